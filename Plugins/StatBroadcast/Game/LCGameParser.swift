import Foundation
import StatlineCore
import StatlineHTML

/// Reads StatCrew-schema game XML. Lacrosse (`<lcgame>`) is read in full; any other sport root
/// is a clear "unsupported sport" error, and anything else is the wrong page.
struct LCGameParser: PageParser {
  static let otherSports: [String: String] = [
    "bbgame": "basketball", "wbbgame": "women's basketball", "bsgame": "baseball or softball",
    "fbgame": "football", "sogame": "soccer", "vbgame": "volleyball", "hkgame": "hockey",
  ]

  func parse(_ page: Page) throws -> LCGame {
    let document = try Document.xml(page.body, url: page.url)
    guard let root = document.root else { throw StatlineError(.wrongPage, "the XML has no root element") }
    guard root.name == "lcgame" else {
      if let sport = Self.otherSports[root.name] {
        throw StatlineError(
          .unsupported, "unsupported sport: <\(root.name)> is \(sport); this parser reads lacrosse (<lcgame>)",
          hint: "only lacrosse game XML is supported so far")
      }
      throw StatlineError(
        .wrongPage, "the XML root is <\(root.name)>, not a StatCrew game (<lcgame>)",
        hint: "check that the URL points at a game's XML")
    }
    let venue = try root.first(xpath: "venue")
    let teams = try root.select(xpath: "team").map(team)
    guard teams.count == 2 else {
      throw StatlineError(
        .wrongPage, "the game has \(teams.count) <team> element(s), not 2",
        hint: "the XML may be cut off or still being written; it is retried on the next poll")
    }
    var plays: [LCPlay] = []
    for period in try root.select(xpath: "plays/period") {
      let number = Int(period.attribute("number") ?? "") ?? 0
      for child in period.children where child.isElement {
        if child.name == "play" {
          plays.append(LCPlay(period: number, attributes: attributes(child), score: nil))
        } else if child.name == "currentscore", !plays.isEmpty, plays[plays.count - 1].period == number {
          plays[plays.count - 1].score = (child.attribute("vscore") ?? "", child.attribute("hscore") ?? "")
        }
      }
    }
    return LCGame(
      venue: venue.map(attributes) ?? [:], rules: try venue?.first(xpath: "rules").map(attributes) ?? [:],
      show: try venue?.first(xpath: "show").map(attributes) ?? [:],
      status: try root.first(xpath: "status").map(attributes), teams: teams, plays: plays)
  }

  private func team(_ node: Node) throws(StatlineError) -> LCTeam {
    let linescore = try node.first(xpath: "linescore")
    let periods = try linescore?.select(xpath: "lineprd").map { prd in
      (period: Int(prd.attribute("prd") ?? "") ?? 0, score: prd.attribute("score") ?? "")
    }
    return LCTeam(
      attributes: attributes(node), linescore: linescore.map(attributes) ?? [:], periods: periods ?? [],
      totals: try node.first(xpath: "totals").map(groups) ?? [:],
      players: try node.select(xpath: "player").map { LCPlayer(attributes: attributes($0), stats: groups($0)) })
  }

  private func groups(_ node: Node) -> [String: [String: String]] {
    var result: [String: [String: String]] = [:]
    for child in node.children where child.isElement { result[child.name] = attributes(child) }
    return result
  }

  private func attributes(_ node: Node) -> [String: String] {
    Dictionary(node.attributes.map { ($0.name, $0.value) }) { first, _ in first }
  }
}
