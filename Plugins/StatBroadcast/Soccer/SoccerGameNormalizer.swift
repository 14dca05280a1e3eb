import Foundation
import StatlineCore

/// A StatCrew soccer or field hockey file (`<sogame>`) → the game, both box scores (the keys of
/// `SportKeys.soccer`) and the plays, each goal a `goal` play with its scorer, assist and the
/// running score.
///
/// Soccer or field hockey by the file's own attributes, never by the root alone: `<show fhk>`,
/// else the rules' periods (2 halves: soccer; 4 quarters: field hockey). Men's or women's soccer
/// from `<venue gender>`, else the sport its target was found with (a calendar's `MSOC`), else
/// `soccer` (what the game is, never a guess). The clock is the
/// match minute, counting up, as the file writes it.
///
/// Status: `complete="Y"` is final. The In-Arena tool's files have no complete flag at all, so
/// a file without one is final when its last play ends a period at or past regulation with one
/// side ahead (the match is over: regulation ended with a winner, or a golden goal ended an
/// overtime), said in a warning; otherwise it is live in the status period ("Halftime" or
/// "End of …" after a period's last play).
struct SoccerGameNormalizer: Normalizer {
  func normalize(_ xml: GroupedGame, page: Page) throws -> Batch {
    var warnings: [String] = []
    let sport = try Self.sport(xml, hint: page.sport, &warnings)
    var (id, visitor, home, game) = try StatCrewGameStart.begin(xml, sport: sport, page: page)
    let regulation = GameText.int(xml.rules["prds"]) ?? sport.regulationPeriods
    let profile = sport.profile
    let label = { (period: Int) in profile?.periodLabel(period) ?? GameText.periodLabel(period, regulation) }
    let roster = GroupedRoster([visitor, home])
    let sides = [visitor.attributes["id"]: Side.away, home.attributes["id"]: Side.home]
    let plays = Self.plays(xml.plays, gameId: id, sides: sides, roster: roster)
    var status = xml.status
    let ended = plays.last.flatMap { $0.type == .periodEnd ? $0.period : nil }
    if status?["complete"] == nil, let ended, ended >= regulation, let away = game.away.score,
      let home = game.home.score, away != home
    {
      status?["complete"] = "Y"
      status?["period"] = String(ended)
      warnings.append(
        "the file has no complete flag; final because its last play ends \(label(ended)) with "
          + "\(away > home ? game.away.team.name : game.home.team.name) ahead \(max(away, home))-\(min(away, home))")
    }
    try StatCrewStatus.apply(status, regulation: regulation, label: label, to: &game)
    if game.status == .live, let ended, ended == game.period {
      game.periodLabel = regulation == 2 && ended == 1 ? "Halftime" : "End of \(label(ended))"
    }
    let teams = [visitor, home].map { $0.team(sport: sport) }
    let box = BoxScore(gameId: id, away: Self.box(visitor), home: Self.box(home))
    return Batch(games: [game], teams: teams, boxScores: [box], plays: plays, warnings: warnings)
  }

  /// Field hockey when `<show fhk="1">` or four periods; soccer when `fhk="0"` or two; anything
  /// else is neither, and said.
  static func sport(_ xml: GroupedGame, hint: Sport?, _ warnings: inout [String]) throws(StatlineError) -> Sport {
    let periods = GameText.int(xml.rules["prds"])
    let fieldHockey: Bool
    switch (xml.show?["fhk"], periods) {
    case ("1", _), (nil, 4): fieldHockey = true
    case ("0", _), (nil, 2): fieldHockey = false
    default:
      throw StatlineError(
        .unsupported,
        "unsupported sport: <sogame> with \(periods.map { "\($0) periods" } ?? "no <rules prds>") and no <show fhk> "
          + "is neither soccer (2 halves) nor field hockey (4 quarters)")
    }
    if fieldHockey { return .fieldHockey }
    switch xml.venue["gender"]?.uppercased() {
    case "M": return .soccerMen
    case "W", "F": return .soccerWomen
    default:
      if let stated = xml.statedSport(among: [.soccerMen, .soccerWomen], &warnings) { return stated }
      // The calendar row that listed the game says which.
      if let hint, hint == .soccerMen || hint == .soccerWomen { return hint }
      warnings.append("the file does not say men's or women's soccer: the sport is 'soccer'")
      return .soccer
    }
  }

  /// StatCrew's soccer groups and attributes → the model's keys.
  static let keys: [String: String] = [
    "shots.g": "goals", "shots.a": "assists", "shots.pts": "points", "shots.sh": "shots", "shots.sog": "shotsOnGoal",
    "penalty.fouls": "fouls", "penalty.yellow": "yellowCards", "penalty.red": "redCards", "goalie.saves": "saves",
    "goalie.ga": "goalsAllowed",
  ]

  static func stats(_ attributes: [String: String]) -> [String: Int] {
    var stats: [String: Int] = [:]
    for (attribute, key) in keys {
      if let value = GameText.int(attributes[attribute]) { stats[key] = value }
    }
    if let minutes = GameText.int(attributes["misc.minutes"]) { stats["secondsPlayed"] = minutes * 60 }
    return stats
  }

  /// The players who played (`gp="1"`); the `TEAM` row (`uni="TM"`) is the team's. The team's
  /// corners and offsides are its periods' (`lineprd`).
  static func box(_ team: GroupedTeam) -> TeamBox {
    let players = team.playersWhoPlayed().map { player in
      PlayerLine(
        name: PersonName.normalized(player.attributes["name"] ?? ""), number: player.attributes["uni"],
        position: player.attributes["pos"].flatMap { $0.isEmpty ? nil : $0 },
        starter: player.attributes["gs"].map { $0 == "1" }, stats: stats(player.stats))
    }
    var totals = stats(team.totals)
    for (attribute, key) in [("corners", "corners"), ("offsides", "offsides")] {
      let values = team.periods.compactMap { GameText.int($0[attribute]) }
      if !values.isEmpty { totals[key] = values.reduce(0, +) }
    }
    return TeamBox(totals: totals, players: players)
  }

  /// The plays' actions: a goal, a shot, a card, a goalkeeper in, a period's start and end; the
  /// rest (fouls, corners, substitutions) are `other`, the action kept in `details`.
  static let types: [String: PlayType] = [
    "GOAL": .goal, "SHOT": .shot, "YC": .penalty, "RC": .penalty, "YRC": .penalty, "GOALIE": .goalieChange,
    "PRD": .periodStart, "END-PRD": .periodEnd,
  ]

  /// The plays that name a player (a goal's scorer, a shot's shooter, a card's player, the
  /// keeper in): the only ones whose text is read for one.
  static let playerTypes: Set<PlayType> = [.goal, .shot, .penalty, .goalieChange]

  /// Each `<play>`, on the side `vh` names, its player the one the text names after "by" or "on"
  /// (a goal's scorer, a shot's shooter, a card's player; "Assist by" the assist), as the roster
  /// writes them.
  static func plays(_ plays: [GroupedPlay], gameId: String, sides: [String?: Side], roster: GroupedRoster)
    -> [Play]
  {
    // "Last, First", up to a second comma ("Mid, Cara, SAVE Duke keeper."). (Byte searches,
    // not Foundation's: these ran for most of the file's reading time.)
    func person(_ written: Substring) -> String? {
      var written = written
      if let first = written.firstIndex(of: ","),
        let second = written[written.index(after: first)...].firstIndex(of: ",")
      {
        written = written[..<second]
      }
      // Spaces and dots trimmed from both ends, by bytes (both are ASCII: the cut is a
      // character boundary).
      let bytes = written.utf8
      var (start, end) = (bytes.startIndex, bytes.endIndex)
      func trimmed(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: ".") }
      while start < end, trimmed(bytes[start]) { start = bytes.index(after: start) }
      while start < end, trimmed(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
      let name = String(written[start..<end])
      // A card shown to the bench ("Yellow card on NCSU TEAM.") is no player's.
      guard !name.isEmpty, !(name.utf8.count == 4 && name.uppercased() == "TEAM") else { return nil }
      return roster.name(name)
    }
    return plays.enumerated().map { index, play in
      let attributes = play.attributes
      let action = attributes["action"]?.uppercased() ?? ""
      let text = attributes["text"] ?? ""
      var details: [String: String] = ["action": action]
      if action == "YC" || action == "YRC" { details["card"] = "yellow" }
      if action == "RC" || action == "YRC" { details["card"] = action == "RC" ? "red" : "yellowRed" }
      let type = types[action] ?? .other
      let namesPlayer = playerTypes.contains(type)
      var player: String?
      var assist: String?
      if namesPlayer, action == "GOALIE", let (keeper, _) = FastText.split(text, at: " at goalie") {
        player = person(Substring(keeper))
      } else if namesPlayer, let (_, after) = FastText.split(text, at: " by ") ?? FastText.split(text, at: " on ") {
        var rest = Substring(after)
        // "GOAL by UW Ramsey, Zach." names the team first.
        if let team = attributes["team"], rest.hasPrefix(team + " ") { rest = rest.dropFirst(team.count + 1) }
        if let (scorer, helpers) = FastText.split(String(rest), at: " Assist by ") {
          assist = person(Substring(FastText.split(helpers, at: " and ")?.0 ?? helpers))
          rest = Substring(scorer)
        }
        player = person(rest)
      }
      let side: Side? = attributes["vh"] == "V" ? .away : attributes["vh"] == "H" ? .home : sides[attributes["team"]]
      return Play(
        gameId: gameId, sequence: index + 1, period: play.period, clock: GameText.clock(attributes["clock"]),
        side: type == .periodEnd || type == .periodStart ? nil : side, type: type, text: text,
        player: player, assist: type == .goal ? assist : nil, awayScore: GameText.int(attributes["vscore"]),
        homeScore: GameText.int(attributes["hscore"]), details: details)
    }
  }
}
