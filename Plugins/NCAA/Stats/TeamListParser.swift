import Foundation
import StatlineCore
import StatlineHTML

/// The teams of one sport, division and season (`/team/inst_team_list?…`): season-team ids and
/// names (current layout, `/teams/{id}` links) or organisation ids (legacy, `/team/{org}/{year}`).
struct TeamList: Sendable, Equatable {
  struct Entry: Sendable, Equatable {
    var id: String
    var name: String
    /// The team's season page.
    var url: String
    var legacy: Bool
  }

  var sport: Sport
  var entries: [Entry]
}

struct TeamListParser: PageParser {
  func parse(_ page: Page) throws -> TeamList {
    var reader = TeamListReader()
    try HTMLStream.read(page.body, into: &reader, url: page.url)
    let query = page.url.flatMap(URLComponents.init(string:))?.queryItems ?? []
    let code = query.first { $0.name == "sport_code" }?.value ?? NCAAIds.code(after: "sport_code=", in: reader.sportTab)
    guard let sport = NCAASports.sport(code: code) else {
      throw StatlineError(
        .unsupported, "the team list is for sport code '\(code ?? "unknown")', which Statline does not know",
        hint: "known codes: \(NCAASports.byCode.keys.sorted().joined(separator: ", "))")
    }
    var entries: [TeamList.Entry] = []
    var seen: Set<String> = []
    for (href, name) in reader.links {
      guard !name.isEmpty else { continue }
      if let number = NCAAIds.number(after: "/teams/", in: href), href == "/teams/\(number)" {
        guard seen.insert(number).inserted else { continue }
        entries.append(
          TeamList.Entry(
            id: NCAAIds.seasonTeam(number), name: name, url: "https://stats.ncaa.org/teams/\(number)", legacy: false))
      } else if let org = NCAAIds.number(after: "/team/", in: href),
        let year = NCAAIds.number(after: "/team/\(org)/", in: href), href == "/team/\(org)/\(year)"
      {
        guard seen.insert(org).inserted else { continue }
        entries.append(
          TeamList.Entry(
            id: NCAAIds.org(org), name: name, url: "https://stats.ncaa.org/team/\(org)/\(year)", legacy: true))
      }
    }
    guard !entries.isEmpty else {
      throw StatlineError(
        .wrongPage, "the team list links to no team pages",
        hint: "the sport may have no teams in that division and year, or the layout changed")
    }
    return TeamList(sport: sport, entries: entries)
  }
}

/// The teams; each team's season page becomes a discovery target.
struct TeamListNormalizer: Normalizer {
  func normalize(_ list: TeamList, page: Page) throws -> Batch {
    Batch(teams: list.entries.map { Team(id: $0.id, name: $0.name, sport: list.sport) })
  }
}
