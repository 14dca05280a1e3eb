import Foundation
import StatlineCore

/// A StatCrew lacrosse game → the normalized game, both box scores and the play-by-play.
struct LCGameNormalizer: Normalizer {
  func normalize(_ xml: LCGame, page: Page) throws -> Batch {
    let sport = try sport(of: xml)
    let id = "\(StatBroadcastSource.id):\(try nativeId(of: xml, page: page))"
    let (visitor, home) = try StatCrewGameStart.sides(xml.teams) { $0.attributes["vh"] }
    var game = StatCrewGameStart.game(
      id: id, sport: sport, venue: xml.venue, away: try line(visitor), home: try line(home))
    try applyStatus(xml, to: &game)
    let women = sport == .lacrosseWomen
    let visitorNames = visitor.players.map { PersonName.normalized($0.name) }
    let homeNames = home.players.map { PersonName.normalized($0.name) }
    let rosters = [Side.away: Set(visitorNames), .home: Set(homeNames)]
    let tokens = (xml.teams.compactMap { $0.attributes["id"] } + xml.teams.compactMap { $0.attributes["name"] })
      .sorted { $0.count > $1.count }
    let plays = LCPlays.normalize(xml.plays, gameId: id, tokens: tokens, rosters: rosters)
    let box = BoxScore(
      gameId: id, away: LCBox.team(visitor, names: visitorNames, women: women),
      home: LCBox.team(home, names: homeNames, women: women))
    let teams = [visitor, home].map { team in
      Team(
        id: LCValues.teamId(team), name: team.attributes["name"] ?? "", abbreviation: team.attributes["id"],
        sport: sport, ncaaOrgId: LCValues.orgId(team))
    }
    return Batch(games: [game], teams: teams, boxScores: [box], plays: plays)
  }

  /// Men's and women's games share the root; `<show>` tells them apart.
  func sport(of xml: LCGame) throws(StatlineError) -> Sport {
    if xml.show["dcs"] == "1" && xml.show["faceoffs"] != "1" { return .lacrosseWomen }
    if xml.show["faceoffs"] == "1" && xml.show["dcs"] != "1" { return .lacrosseMen }
    throw StatlineError(
      .wrongPage,
      "cannot tell a men's from a women's game: <show faceoffs=\"\(xml.show["faceoffs"] ?? "")\" dcs=\"\(xml.show["dcs"] ?? "")\">",
      hint: "men's games show faceoffs=\"1\", women's dcs=\"1\"")
  }

  /// The StatBroadcast event id (`StatCrewIds`).
  func nativeId(of xml: LCGame, page: Page) throws(StatlineError) -> String {
    try StatCrewIds.nativeId(
      venue: xml.venue, teams: xml.teams.map { $0.attributes["id"] ?? $0.attributes["name"] ?? "" }, page: page)
  }

  /// The first run of five or more digits right after a `/` or `=` and right before `.xml`, a
  /// `&` or the end (`…/lcgame/611373.xml`, `…?id=611373&…`): the regular expression
  /// `(?<=[/=])\d{5,}(?=\.xml|$|&)`, read byte by byte.
  static func eventNumber(in url: String) -> String? {
    let bytes = Array(url.utf8)
    func isDigit(_ index: Int) -> Bool { index < bytes.count && bytes[index] &- 0x30 < 10 }
    var start = 1
    while start < bytes.count {
      guard bytes[start - 1] == 0x2F || bytes[start - 1] == 0x3D, isDigit(start) else {
        start += 1
        continue
      }
      var end = start
      while isDigit(end) { end += 1 }
      let next = bytes[end...]
      if end - start >= 5 && (next.isEmpty || next.first == 0x26 || next.starts(with: Array(".xml".utf8))) {
        return String(decoding: bytes[start..<end], as: UTF8.self)
      }
      start = end + 1
    }
    return nil
  }

  private func line(_ team: LCTeam) throws(StatlineError) -> TeamLine {
    guard let name = team.attributes["name"], !name.isEmpty else {
      throw StatlineError(.wrongPage, "a <team> has no name")
    }
    let periodScores = team.periods.sorted { $0.period < $1.period }.compactMap { Int($0.score) }
    return TeamLine(
      team: TeamRef(id: LCValues.teamId(team), name: name, abbreviation: team.attributes["id"]),
      score: GameText.int(team.linescore["score"]), periodScores: periodScores,
      record: team.attributes["record"].flatMap { $0.isEmpty ? nil : $0 }, rank: GameText.int(team.attributes["rank"]))
  }

  /// `complete="Y"` is final; without it the game is live at the status period and clock.
  private func applyStatus(_ xml: LCGame, to game: inout Game) throws(StatlineError) {
    let regulation = GameText.int(xml.rules["prds"]) ?? 4
    try StatCrewStatus.apply(
      xml.status, regulation: regulation, label: { GameText.periodLabel($0, regulation) }, to: &game)
  }
}
