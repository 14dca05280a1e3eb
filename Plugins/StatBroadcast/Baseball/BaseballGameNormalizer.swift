import Foundation
import StatlineCore

/// A StatCrew baseball or softball file (`<bsgame>`) → the game (runs per inning, an unplayed
/// half left out, not a zero), both box scores (the keys of `SportKeys.baseball`, pitching in
/// outs) and every plate appearance and substitution, each one that scores a `score` play with
/// its runs and the running score.
///
/// Baseball or softball from `<venue gender>` (men's: baseball, women's: softball), else the
/// file's `sportcode` (`<venue sportcode="BSB">`, named in a warning), else the sport its target
/// was found with (a calendar's `BSB`), else the scheduled innings (`schedinn`:
/// 9 or 7); a file that says none of them is `unknown`, said. Status
/// from `<status>` (which this tool writes at the end of the file): `complete="Y"` is final;
/// otherwise live in its inning (`Top 5th`, `Bottom 5th` when it says whose half).
struct BaseballGameNormalizer: Normalizer {
  func normalize(_ xml: GroupedGame, page: Page) throws -> Batch {
    var warnings: [String] = []
    let sport = Self.sport(xml, hint: page.sport, &warnings)
    var (id, visitor, home, game) = try StatCrewGameStart.begin(
      xml, sport: sport, page: page, period: "inn", score: "score", total: "runs")
    let regulation = GameText.int(xml.venue["schedinn"]) ?? sport.profile?.regulationPeriods ?? 9
    let label = { (inning: Int) in SportProfile.ordinal(inning) + " Inning" }
    var status = xml.status
    if let inning = status?["inning"], status?["period"] == nil { status?["period"] = inning }
    try StatCrewStatus.apply(status, regulation: regulation, label: label, to: &game)
    if game.status == .final {
      game.periodLabel = game.period.map { $0 > regulation ? "Final/\($0)" : "Final" }
    } else if game.status == .live {
      game.clock = nil
      if let inning = game.period, let half = status?["vh"]?.uppercased(), half == "V" || half == "H" {
        game.periodLabel = (half == "V" ? "Top " : "Bottom ") + SportProfile.ordinal(inning)
      }
    }
    let teams = [visitor, home].map { $0.team(sport: sport) }
    let box = BoxScore(gameId: id, away: Self.box(visitor), home: Self.box(home))
    return Batch(
      games: [game], teams: teams, boxScores: [box], plays: Self.plays(xml.plays, gameId: id), warnings: warnings)
  }

  static func sport(_ xml: GroupedGame, hint: Sport?, _ warnings: inout [String]) -> Sport {
    switch xml.venue["gender"]?.uppercased() {
    case "M": return .baseball
    case "W", "F": return .softball
    default: break
    }
    if let stated = xml.statedSport(among: [.baseball, .softball], &warnings) { return stated }
    if let hint, hint == .baseball || hint == .softball { return hint }
    switch GameText.int(xml.venue["schedinn"]) {
    case 9: return .baseball
    case 7: return .softball
    default:
      warnings.append("the file says neither a gender nor 9 or 7 scheduled innings: baseball or softball is unknown")
      return .unknown
    }
  }

  /// StatCrew's groups and attributes → the model's keys (innings pitched become outs).
  static let keys: [String: String] = [
    "hitting.ab": "atBats", "hitting.r": "runs", "hitting.h": "hits", "hitting.double": "doubles",
    "hitting.triple": "triples", "hitting.hr": "homeRuns", "hitting.rbi": "runsBattedIn", "hitting.bb": "walks",
    "hitting.so": "strikeouts", "hitting.hbp": "hitByPitch", "hitting.sb": "stolenBases",
    "hitting.cs": "caughtStealing", "hitting.sh": "sacrificeHits", "hitting.sf": "sacrificeFlies",
    "pitching.h": "hitsAllowed", "pitching.r": "runsAllowed", "pitching.er": "earnedRunsAllowed",
    "pitching.bb": "walksAllowed", "pitching.so": "strikeoutsPitched", "pitching.hr": "homeRunsAllowed",
    "pitching.pitches": "pitches", "pitching.bf": "battersFaced", "fielding.po": "putouts",
    "fielding.a": "fieldingAssists", "fielding.e": "errors",
  ]

  static func stats(_ attributes: [String: String]) -> [String: Int] {
    var stats: [String: Int] = [:]
    for (attribute, key) in keys {
      if let value = GameText.int(attributes[attribute]) { stats[key] = value }
    }
    if let outs = GameText.outs(innings: attributes["pitching.ip"]) { stats["outsPitched"] = outs }
    return stats
  }

  /// The players who played (`gp` more than 0); the team's left on base from its line score.
  static func box(_ team: GroupedTeam) -> TeamBox {
    let players = team.playersWhoPlayed().map { player in
      PlayerLine(
        name: PersonName.normalized(player.attributes["name"] ?? ""), number: player.attributes["uni"],
        position: player.attributes["pos"].flatMap { $0.isEmpty ? nil : $0 },
        starter: player.attributes["gs"].map { $0 == "1" }, stats: stats(player.stats))
    }
    var totals = stats(team.totals)
    if let left = GameText.int(team.linescore["lob"]) { totals["leftOnBase"] = left }
    return TeamBox(totals: totals, players: players)
  }

  /// Each `<play>` of a half-inning, on the batting side, its text the narrative and its player
  /// the batter; one that scores (`scoring="Y"`) is a `score` play with `details.points` its runs
  /// and the running score (the file gives each play's runs, not the score: it is added up).
  static func plays(_ plays: [GroupedPlay], gameId: String) -> [Play] {
    var running = (away: 0, home: 0)
    return plays.enumerated().map { index, play in
      let attributes = play.attributes
      let side: Side? = attributes["vh"] == "V" ? .away : attributes["vh"] == "H" ? .home : nil
      var details: [String: String] = [:]
      for name in ["outs", "qualifiers", "rbis"] {
        if let value = attributes[name], !value.isEmpty { details[name] = value }
      }
      var type = PlayType.other
      var away: Int?
      var home: Int?
      if attributes["scoring"]?.uppercased() == "Y", let runs = GameText.int(attributes["runs"]), runs > 0, let side {
        type = .score
        details["points"] = String(runs)
        if side == .away { running.away += runs } else { running.home += runs }
        (away, home) = (running.away, running.home)
      }
      let batter = attributes["batter"].flatMap { $0.isEmpty ? nil : PersonName.normalized($0) }
      return Play(
        gameId: gameId, sequence: GameText.int(attributes["seq"]) ?? index + 1, period: play.period, side: side,
        type: type, text: attributes["text"] ?? "", player: batter, awayScore: away, homeScore: home,
        details: details)
    }
  }
}
