import Foundation
import StatlineCore

/// A StatCrew basketball file → the game, both box scores (basketball's keys, `SportKeys`) and
/// the plays, each made basket and free throw a `score` play with its points and the running
/// score the file prints.
///
/// Men's or women's comes from the file's own `gender` (`<venue gender="M">`), a `<wbbgame>` root
/// or its `sportcode` (`<venue sportcode="MBB">`, named in a warning); a file that says none is
/// `unknown` unless its target was found with the sport, never guessed from its period count. Final when
/// `<status complete="Y">`; otherwise live in the status period, or an error when the status says
/// no period (a file without `<status>` is refused: nothing says the game's state).
struct BasketballGameNormalizer: Normalizer {
  func normalize(_ xml: GroupedGame, page: Page) throws -> Batch {
    var warnings: [String] = []
    let sport = Self.sport(xml, hint: page.sport, &warnings)
    var (id, visitor, home, game) = try StatCrewGameStart.begin(xml, sport: sport, page: page)
    try Self.applyStatus(xml, to: &game)
    let box = BoxScore(gameId: id, away: Self.box(visitor), home: Self.box(home))
    let teams = [visitor, home].map { $0.team(sport: sport) }
    var roster: [String: String] = [:]
    for team in [visitor, home] {
      for player in team.players {
        guard let check = player.attributes["checkname"], let name = player.attributes["name"] else { continue }
        roster[check.uppercased()] = PersonName.normalized(name)
      }
    }
    return Batch(
      games: [game], teams: teams, boxScores: [box], plays: Self.plays(xml.plays, gameId: id, roster: roster),
      warnings: warnings)
  }

  /// The file's gender, else a `<wbbgame>` root, else its `sportcode`, else the sport its target
  /// was found with (a calendar's `MBB`), else `unknown`.
  static func sport(_ xml: GroupedGame, hint: Sport?, _ warnings: inout [String]) -> Sport {
    switch xml.venue["gender"]?.uppercased() {
    case "M": return .basketballMen
    case "W", "F": return .basketballWomen
    default:
      if xml.root.lowercased() == "wbbgame" { return .basketballWomen }
      if let stated = xml.statedSport(among: [.basketballMen, .basketballWomen], &warnings) { return stated }
      return hint == .basketballMen || hint == .basketballWomen ? hint! : .unknown
    }
  }

  static func applyStatus(_ xml: GroupedGame, to game: inout Game) throws(StatlineError) {
    let profile = game.sport.profile
    let regulation = GameText.int(xml.rules["prds"]) ?? profile?.regulationPeriods ?? 2
    try StatCrewStatus.apply(
      xml.status, regulation: regulation,
      label: { profile?.periodLabel($0) ?? GameText.periodLabel($0, regulation) }, to: &game)
  }

  /// StatCrew's basketball attributes (of the `<stats>` element) → the model's keys; minutes
  /// become seconds.
  static let keys: [String: String] = [
    "tp": "points", "fgm": "fieldGoalsMade", "fga": "fieldGoalsAttempted", "fgm3": "threePointersMade",
    "fga3": "threePointersAttempted", "ftm": "freeThrowsMade", "fta": "freeThrowsAttempted",
    "oreb": "offensiveRebounds", "dreb": "defensiveRebounds", "treb": "rebounds", "ast": "assists",
    "to": "turnovers", "stl": "steals", "blk": "blocks", "pf": "fouls",
  ]

  static func stats(_ attributes: [String: String], seconds: Bool) -> [String: Int] {
    var stats: [String: Int] = [:]
    for (attribute, key) in keys {
      if let value = GameText.int(attributes["stats." + attribute]) { stats[key] = value }
    }
    if seconds, let minutes = GameText.int(attributes["stats.min"]) { stats["secondsPlayed"] = minutes * 60 }
    return stats
  }

  /// The players who played (`gp="1"`, a stats element); the `TEAM` row (`uni="TM"`) is the
  /// team's, already in its totals.
  static func box(_ team: GroupedTeam) -> TeamBox {
    let players = team.playersWhoPlayed().filter { !$0.stats.isEmpty }.map { player in
      PlayerLine(
        name: PersonName.normalized(player.attributes["name"] ?? ""), number: player.attributes["uni"],
        position: player.attributes["pos"].flatMap { $0.isEmpty ? nil : $0 },
        starter: player.attributes["gs"].map { $0 == "1" }, stats: stats(player.stats, seconds: true))
    }
    return TeamBox(totals: stats(team.totals, seconds: false), players: players)
  }

  /// Each `<play>`: a made basket or free throw (`GOOD`) is a `score` play with its points (1 for
  /// a free throw, 3 for a three, else 2) and the running score; turnovers and timeouts are
  /// typed; the rest are `other`, their action and kind kept in `details`. The file has no
  /// play text: `text` is its tokens (`GOOD 3PTR KOHLER,JAXON`). Players are named as the roster
  /// writes them (`checkname` → `name`); an `ASSIST` right after a basket at its clock names the
  /// basket's assist.
  static func plays(_ plays: [GroupedPlay], gameId: String, roster: [String: String]) -> [Play] {
    var result = plays.enumerated().map { index, play in
      let attributes = play.attributes
      let action = attributes["action"]?.uppercased() ?? ""
      let kind = attributes["type"]?.uppercased() ?? ""
      let name = attributes["checkname"] ?? ""
      let person =
        name.isEmpty || name.uppercased() == "TEAM" ? nil : roster[name.uppercased()] ?? PersonName.normalized(name)
      var type = PlayType.other
      var details: [String: String] = ["action": action]
      if !kind.isEmpty { details["kind"] = kind }
      switch action {
      case "GOOD":
        type = .score
        details["points"] = kind == "FT" ? "1" : kind == "3PTR" ? "3" : "2"
      case "TURNOVER": type = .turnover
      case "TIMEOUT": type = .timeout
      default: break
      }
      let side: Side? = attributes["vh"] == "V" ? .away : attributes["vh"] == "H" ? .home : nil
      return Play(
        gameId: gameId, sequence: index + 1, period: play.period, clock: GameText.clock(attributes["time"]),
        side: side, type: type, text: [action, kind, name].filter { !$0.isEmpty }.joined(separator: " "),
        player: person, assist: nil, awayScore: GameText.int(attributes["vscore"]),
        homeScore: GameText.int(attributes["hscore"]), details: details)
    }
    for index in result.indices.dropFirst() where result[index].details["action"] == "ASSIST" {
      let basket = result[index - 1]
      if basket.type == .score, basket.side == result[index].side, basket.clock == result[index].clock {
        result[index - 1].assist = result[index].player
      }
    }
    return result
  }
}
