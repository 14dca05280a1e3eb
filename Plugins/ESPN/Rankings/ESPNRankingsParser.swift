import Foundation
import StatlineCore

/// One answer's polls with what the answer and its URL say of them.
struct ESPNRankings: Sendable {
  struct Week: Sendable {
    var poll: ESPNRankingsAnswer.Poll
    /// ESPN's own season year (`seasons/2025`) and season type (2: the regular season).
    var year: Int
    var seasonType: Int
  }

  var weeks: [Week]
  var league: String
  var sport: Sport
  /// Team names by ESPN id, from the answer's teams list (the core API names teams by `$ref`).
  var names: [String: ESPNRankingsAnswer.TeamLink]
  var warnings: [String]
}

/// Reads ESPN's rankings (`ESPNRankingsAnswer`) for a league whose sport is known or configured.
/// The league, the season and the week come from the URL and the answer's `$ref`s, never
/// guessed: an answer that says none of them is refused, naming what is missing.
struct ESPNRankingsParser: PageParser {
  var leagues: [String: Sport]

  func parse(_ page: Page) throws -> ESPNRankings {
    let answer = try JSONPage.read(page) { (root) throws(JSONShapeError) in try ESPNRankingsAnswer(json: root) }
    var listed: [(key: String?, poll: ESPNRankingsAnswer.Poll)] = []
    if let single = answer.single { listed.append((page.url, single)) }
    for poll in answer.rankings ?? [] { listed.append((nil, poll)) }
    for (key, poll) in (answer.polls ?? [:]).sorted(by: { $0.key < $1.key }) { listed.append((key, poll)) }
    guard !listed.isEmpty else {
      throw StatlineError(
        .wrongPage, "the answer holds no poll (no rankings, ranks or polls)", location: page.location,
        hint: "a core API listing of refs only is read through the polls it lists: poll their URLs")
    }
    let refs =
      [page.url] + (answer.listing?.items ?? []).map(\.ref) + listed.map(\.poll.season?.ref)
      + listed.flatMap { ($0.poll.ranks ?? []).map(\.team?.ref) }
    guard let league = refs.lazy.compactMap({ Self.league(in: $0) }).first else {
      throw StatlineError(
        .wrongPage, "neither the URL nor the answer's $refs name an ESPN league", location: page.location,
        hint: "replay it with --url https://site.api.espn.com/apis/site/v2/sports/{sport}/{league}/rankings")
    }
    guard let sport = leagues[league] else {
      throw StatlineError(
        .unsupported, "the ESPN league '\(league)' is not one Statline knows the sport of", location: page.location,
        hint: "name it in statline.yml: sources: { espn: { options: { league.\(league): <sport> } } }")
    }
    var weeks: [ESPNRankings.Week] = []
    var warnings: [String] = []
    for (key, poll) in listed {
      let path = [key, poll.season?.ref].compactMap { $0 } + refs.compactMap { $0 }
      let year = poll.season?.year ?? path.lazy.compactMap { Self.number(after: "seasons/", in: $0) }.first
      let type = poll.season?.type ?? path.lazy.compactMap { Self.number(after: "types/", in: $0) }.first
      guard let year, let type else {
        warnings.append("poll '\(poll.name ?? "?")': no season says which year it is: left out")
        continue
      }
      weeks.append(ESPNRankings.Week(poll: poll, year: year, seasonType: type))
    }
    guard !weeks.isEmpty else {
      throw StatlineError(
        .wrongPage, "no poll says its season (season.year or a seasons/{year} $ref)", location: page.location)
    }
    var names: [String: ESPNRankingsAnswer.TeamLink] = [:]
    for team in answer.teams?.all ?? [] { if let id = team.id { names[id] = team } }
    return ESPNRankings(weeks: weeks, league: league, sport: sport, names: names, warnings: warnings)
  }

  /// `…/sports/football/leagues/college-football/…` (core) or `…/sports/lacrosse/mens-college-lacrosse/rankings`.
  static func league(in text: String?) -> String? {
    guard let text, let range = text.range(of: "/sports/") else { return nil }
    let parts = text[range.upperBound...].split(separator: "/").map(String.init)
    if parts.count >= 3, parts[1] == "leagues" { return parts[2] }
    if parts.count >= 3, parts[2].hasPrefix("rankings") { return parts[1] }
    return nil
  }

  /// The number after `marker` in `text` (`seasons/2025/…` → 2025).
  static func number(after marker: String, in text: String) -> Int? {
    guard let range = text.range(of: marker) else { return nil }
    return Int(text[range.upperBound...].prefix { $0.isNumber })
  }

  /// The ESPN team id of a `$ref` (`…/teams/194?lang=en` → `194`).
  static func teamId(in ref: String?) -> String? {
    guard let ref, let range = ref.range(of: "/teams/") else { return nil }
    let id = ref[range.upperBound...].prefix { $0.isNumber }
    return id.isEmpty ? nil : String(id)
  }
}
