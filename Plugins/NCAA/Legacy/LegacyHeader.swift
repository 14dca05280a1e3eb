import Foundation
import StatlineCore
import StatlineHTML

/// The top of a legacy game page (`/game/box_score/{id}`, `/game/play_by_play/{id}`,
/// STRUCTURE.md §2b): the linescore `table.mytable` (visitor first; period heads then
/// `Total`) and the key/value table ("Game Date:", "Location:", "Attendance:").
struct LegacyHeader: Sendable, Equatable {
  struct Competitor: Sendable, Equatable {
    var orgId: String?
    var name: String
    var periodScores: [Int]
    var total: Int?
  }

  var gameId: String
  var visitor: Competitor
  var home: Competitor
  var periodLabels: [String]
  var date: String?
  var venue: String?
  var attendance: Int?

  static func read(_ document: Document, page: Page) throws -> LegacyHeader {
    let link = try document.first(xpath: "//a[contains(@href,'/game/')]")
    let gameId =
      NCAAIds.number(after: "/game/box_score/", in: page.url) ?? NCAAIds.number(
        after: "/game/play_by_play/", in: page.url)
      ?? NCAAIds.number(after: "/game/box_score/", in: link?.attribute("href"))
      ?? NCAAIds.number(after: "/game/play_by_play/", in: link?.attribute("href"))
    guard let gameId else {
      throw StatlineError(
        .wrongPage, "neither the URL nor the page's links give the legacy game id",
        hint: "replay the page with --url https://stats.ncaa.org/game/box_score/{id}")
    }
    guard
      let table = try document.first(
        xpath:
          "//table[contains(@class,'mytable')][.//td[normalize-space(.)='Total'] or .//th[normalize-space(.)='Total']]")
    else {
      throw StatlineError(
        .wrongPage, "the page has no linescore (table.mytable with a Total column)",
        hint: "this is not a legacy game page, or its layout changed")
    }
    var labels: [String] = []
    var teams: [Competitor] = []
    for row in try table.select(xpath: ".//tr") {
      let cells = try row.select(xpath: "./td | ./th").map(\.text)
      guard cells.count >= 2 else { continue }
      if cells.last == "Total" {
        labels = cells.dropFirst().dropLast().filter { !$0.isEmpty }
        continue
      }
      let link = try row.first(xpath: ".//a[starts-with(@href,'/team/')]")
      let values = cells.dropFirst().dropLast().map { GameText.int($0) }
      teams.append(
        Competitor(
          orgId: NCAAIds.number(after: "/team/", in: link?.attribute("href")), name: cells[0],
          periodScores: values.prefix { $0 != nil }.compactMap { $0 }, total: GameText.int(cells.last)))
    }
    guard teams.count == 2 else {
      throw StatlineError(.wrongPage, "the linescore shows \(teams.count) teams, not 2")
    }
    var header = LegacyHeader(
      gameId: gameId, visitor: teams[0], home: teams[1], periodLabels: labels, date: nil, venue: nil, attendance: nil)
    header.readFacts(try Self.facts(document))
    return header
  }

  /// The game facts the page states as "Label: value": in any table (the key/value table is
  /// `table.mytable` on most pages, a table without the class on some 2020 pages), label and
  /// value in two cells (`td` or `th`) or in one ("Game Date: 02/01/2020"); the first of each
  /// label, lower-cased without its colon.
  static func facts(_ document: Document) throws -> [String: String] {
    var facts: [String: String] = [:]
    for row in try document.select(xpath: "//tr[td or th]") {
      let cells = try row.select(xpath: "./td | ./th").map(\.text)
      guard let first = cells.first, first.count < 40 else { continue }
      let label: String
      let value: String
      if first.hasSuffix(":"), cells.count >= 2 {
        (label, value) = (String(first.dropLast()), cells[1])
      } else if cells.count == 1, let colon = first.firstIndex(of: ":"), first.index(after: colon) < first.endIndex {
        (label, value) = (
          String(first[..<colon]), first[first.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        )
      } else {
        continue
      }
      let key = label.trimmingCharacters(in: .whitespaces).lowercased()
      if facts[key] == nil { facts[key] = value }
    }
    return facts
  }

  /// The date (`02/01/2020`, a time after it left), venue and attendance (`1,311`) of `facts`.
  mutating func readFacts(_ facts: [String: String]) {
    if let date = facts["game date"] { self.date = GameText.date(date.split(separator: " ").first.map(String.init)) }
    if let location = facts["location"], !location.isEmpty { venue = location }
    if let attendance = facts["attendance"] { self.attendance = GameText.count(attendance) }
  }

  /// Legacy pages mark no winner and no state: a game whose regulation periods are all filled
  /// and whose totals differ is final; one with blank regulation periods is live in the last
  /// filled one; anything else is unknown.
  func game(sport: Sport) -> Game {
    let played = min(visitor.periodScores.count, home.periodScores.count)
    var status = GameStatus.unknown
    var period: Int?
    var label: String?
    // The sport's regulation periods (two halves in men's basketball, four quarters in
    // lacrosse); a sport without a profile has no state read.
    let regulation = sport.profile?.regulationPeriods ?? Int.max
    if played >= regulation, let a = visitor.total, let h = home.total, a != h {
      (status, period, label) = (.final, played, "Final")
    } else if played > 0 && played < regulation, regulation != Int.max {
      (status, period, label) = (
        .live, played, periodLabels.indices.contains(played - 1) ? periodLabels[played - 1] : nil
      )
    }
    func line(_ team: Competitor, other: Competitor) -> TeamLine {
      TeamLine(
        team: TeamRef(id: team.orgId.map(NCAAIds.org), name: team.name), score: team.total,
        periodScores: team.periodScores,
        winner: status == .final ? (team.total ?? 0) > (other.total ?? 0) : nil)
    }
    return Game(
      id: NCAAIds.legacyGame(gameId), sport: sport, status: status, period: period, periodLabel: label, date: date,
      venue: venue, attendance: attendance, away: line(visitor, other: home), home: line(home, other: visitor))
  }

  func teams(sport: Sport) -> [Team] {
    [visitor, home].compactMap { team in team.orgId.map { Team(id: NCAAIds.org($0), name: team.name, sport: sport) } }
  }
}
