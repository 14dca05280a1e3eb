import Foundation
import StatlineCore

/// A StatCrew football file (`<fbgame>`) → the game, both box scores (the keys of
/// `SportKeys.football`) and the plays, each score a `score` play with its points and the
/// running score.
///
/// Status: the NCAA In-Arena Utility writes no `<status>` at all. A file without one is final
/// when `<venue end>` gives the time the game ended (the tool writes it at the final whistle),
/// said in a warning; otherwise it is live in its last quarter at its last play's clock, or
/// scheduled when it has no plays yet. A `<status>` when present is read as every sport's.
///
/// A try after a touchdown is folded into the touchdown's play (its points, the running score
/// after it, `details.try`), so a touchdown is one score, as the file's `<scores>` lists it; the
/// try's own play stays, as `other`, without a running score.
struct FootballGameNormalizer: Normalizer {
  func normalize(_ xml: GroupedGame, page: Page) throws -> Batch {
    var warnings: [String] = []
    var (id, visitor, home, game) = try StatCrewGameStart.begin(xml, sport: .football, page: page)
    let regulation = GameText.int(xml.rules["qtrs"]) ?? Sport.football.regulationPeriods
    let profile = Sport.football.profile
    let label = { (period: Int) in profile?.periodLabel(period) ?? GameText.periodLabel(period, regulation) }
    let plays = Self.plays(xml.plays, gameId: id)
    var status = xml.status
    if status == nil {
      let last = xml.plays.last?.period ?? max(game.away.periodScores.count, game.home.periodScores.count)
      if let end = xml.venue["end"], !end.trimmingCharacters(in: .whitespaces).isEmpty {
        status = ["complete": "Y", "period": String(last)]
        warnings.append("the file has no <status>; final because the venue gives the time the game ended (\(end))")
      } else if !xml.plays.isEmpty {
        let clock = xml.plays.last { $0.attributes["clock"] != nil }?.attributes["clock"]
        status = ["period": String(last), "clock": clock ?? ""]
        warnings.append("the file has no <status>; live in \(label(last)) (no end time yet)")
      }
    }
    if let status {
      try StatCrewStatus.apply(status, regulation: regulation, label: label, to: &game)
    } else {
      game.status = .scheduled
      warnings.append("the file has no <status> and no plays: scheduled")
    }
    let teams = [visitor, home].map { $0.team(sport: .football) }
    let box = BoxScore(gameId: id, away: Self.box(visitor), home: Self.box(home))
    return Batch(games: [game], teams: teams, boxScores: [box], plays: plays, warnings: warnings)
  }

  /// StatCrew's football groups and attributes → the model's keys. (A player's points are not
  /// kept: the file's `scoring` group leaves out defensive and return scores' tries.)
  static let keys: [String: String] = [
    "pass.comp": "passCompletions", "pass.att": "passAttempts", "pass.yds": "passingYards",
    "pass.td": "passingTouchdowns", "pass.int": "interceptionsThrown", "rush.att": "rushes",
    "rush.yds": "rushingYards", "rush.td": "rushingTouchdowns", "rcv.no": "receptions", "rcv.yds": "receivingYards",
    "rcv.td": "receivingTouchdowns", "defense.tot_tack": "tackles", "defense.tacka": "assistedTackles",
    "defense.sacks": "sacks", "defense.int": "interceptions", "defense.ff": "fumblesForced",
    "defense.fr": "fumblesRecovered", "fg.made": "fieldGoalsMade", "fg.att": "fieldGoalsAttempted",
    "pat.kickmade": "extraPointsMade", "pat.kickatt": "extraPointsAttempted", "punt.no": "punts",
    "punt.yds": "puntYards",
  ]

  static func stats(_ attributes: [String: String]) -> [String: Int] {
    var stats: [String: Int] = [:]
    for (attribute, key) in keys {
      if let value = GameText.int(attributes[attribute]) { stats[key] = value }
    }
    return stats
  }

  /// Every player the team lists (the In-Arena tool lists only those who played; the others are
  /// in `<dnp>`), the `TEAM` row (`uni="TM"`) left out.
  static func box(_ team: GroupedTeam) -> TeamBox {
    let players = team.playersWhoPlayed(unlistedPlayed: true).map { player in
      PlayerLine(
        name: PersonName.normalized(player.attributes["name"] ?? ""), number: player.attributes["uni"],
        position: (player.attributes["opos"] ?? player.attributes["dpos"]).flatMap { $0.isEmpty ? nil : $0 },
        starter: player.attributes["gs"].map { $0 == "1" } ?? false, stats: stats(player.stats))
    }
    return TeamBox(totals: stats(team.totals), players: players)
  }

  /// StatCrew's play types: R rush, P pass, K kickoff, U punt, F field goal, X a try, E a
  /// penalty (enforcement), # a comment or timeout.
  static let kinds: [String: String] = [
    "R": "rush", "P": "pass", "K": "kickoff", "U": "punt", "F": "fieldGoal", "X": "try", "E": "penalty",
    "#": "comment",
  ]

  /// Each `<play>`: one that scores (`score="Y"`) is a `score` play for the side whose running
  /// score rose, with its points; a try is folded into the touchdown before it.
  static func plays(_ plays: [GroupedPlay], gameId: String) -> [Play] {
    var result: [Play] = []
    var running = (away: 0, home: 0)
    for play in plays {
      let attributes = play.attributes
      let code = attributes["type"] ?? ""
      var details: [String: String] = ["kind": kinds[code] ?? code]
      let text = attributes["text"] ?? ""
      var type = PlayType.other
      if code == "#", text.lowercased().hasPrefix("timeout") { type = .timeout }
      if code == "E" { type = .penalty }
      var away = GameText.int(attributes["vscore"])
      var home = GameText.int(attributes["hscore"])
      var side: Side?
      if attributes["score"]?.uppercased() == "Y", let newAway = away, let newHome = home {
        let points = (newAway - running.away) + (newHome - running.home)
        side = newAway > running.away ? .away : newHome > running.home ? .home : nil
        running = (newAway, newHome)
        // A try right after its side's touchdown is part of that score.
        if code == "X", let last = result.indices.last(where: { result[$0].type == .score }),
          result[last].side == side, result[last].details["try"] == nil
        {
          result[last].details["points"] = String((Int(result[last].details["points"] ?? "") ?? 0) + points)
          result[last].details["try"] = String(points)
          result[last].awayScore = newAway
          result[last].homeScore = newHome
          details["foldedInto"] = String(result[last].sequence)
          (away, home) = (nil, nil)
        } else {
          type = .score
          details["points"] = String(points)
        }
      } else {
        (away, home) = (nil, nil)
      }
      result.append(
        Play(
          gameId: gameId, sequence: result.count + 1, period: play.period, clock: GameText.clock(attributes["clock"]),
          side: side, type: type, text: text, awayScore: away, homeScore: home, details: details))
    }
    return result
  }
}
