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
    for row in try document.select(xpath: "//table[contains(@class,'mytable')]/descendant::tr[td[2]]") {
      let cells = try row.select(xpath: "./td").map(\.text)
      switch cells[0] {
      case "Game Date:": header.date = GameText.date(cells[1].split(separator: " ").first.map(String.init))
      case "Location:": header.venue = cells[1].isEmpty ? nil : cells[1]
      case "Attendance:": header.attendance = GameText.count(cells[1])
      default: break
      }
    }
    return header
  }

  /// Legacy pages mark no winner and no state: a game whose regulation periods are all filled
  /// and whose totals differ is final; one with blank regulation periods is live in the last
  /// filled one; anything else is unknown.
  func game(sport: Sport) -> Game {
    let played = min(visitor.periodScores.count, home.periodScores.count)
    var status = GameStatus.unknown
    var period: Int?
    var label: String?
    if played >= 4, let a = visitor.total, let h = home.total, a != h {
      (status, period, label) = (.final, played, "Final")
    } else if played > 0 && played < 4 {
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
