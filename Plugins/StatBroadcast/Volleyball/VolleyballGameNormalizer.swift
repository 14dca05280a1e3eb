import Foundation
import StatlineCore

/// A StatCrew volleyball file → the match, both box scores (volleyball's keys, `SportKeys`) and
/// the rallies, each point a `score` play with the set's running points.
///
/// The score is sets won (`<linescore score>`), the periods are each set's points. Men's or
/// women's comes from the file's `gender`, else from the sport its target was found with (the
/// calendar row that listed it); a file without either (the real Volleyball LiveStats files
/// have no gender) is `volleyball`, never guessed. Final when `<status complete="Y">`;
/// otherwise live in the status set (`game=`, volleyball's word for a set).
struct VolleyballGameNormalizer: Normalizer {
  func normalize(_ xml: GroupedGame, page: Page) throws -> Batch {
    var warnings: [String] = []
    let sport = Self.sport(xml, hint: page.sport, &warnings)
    var (id, visitor, home, game) = try StatCrewGameStart.begin(
      xml, sport: sport, page: page, period: "game", score: "points")
    // Volleyball's files name the hall `arena` (the others `stadium`).
    if let arena = xml.venue["arena"], !arena.isEmpty { game.venue = arena }
    var status = xml.status
    if let set = status?["game"], status?["period"] == nil { status?["period"] = set }
    let profile = sport.profile
    try StatCrewStatus.apply(status, regulation: 5, label: { profile?.periodLabel($0) ?? "Set \($0)" }, to: &game)
    if game.status == .live { game.clock = nil }
    if sport == .volleyball {
      warnings.append("the file does not say men's or women's volleyball: the sport is 'volleyball'")
    }
    let teams = [visitor, home].map { $0.team(sport: sport) }
    let box = BoxScore(gameId: id, away: Self.box(visitor, &warnings), home: Self.box(home, &warnings))
    let sides = [visitor.attributes["id"]: Side.away, home.attributes["id"]: Side.home]
    // The server in brackets is written "Last, First" or "Last First": both are the roster's player.
    let roster = GroupedRoster([visitor, home])
    return Batch(
      games: [game], teams: teams, boxScores: [box],
      plays: Self.plays(xml.plays, gameId: id, sides: sides, roster: roster),
      warnings: warnings)
  }

  /// The file's gender, else its `sportcode`, else the sport its target was found with (a
  /// calendar's `WVB`), else `volleyball`.
  static func sport(_ xml: GroupedGame, hint: Sport?, _ warnings: inout [String]) -> Sport {
    switch xml.venue["gender"]?.uppercased() {
    case "M": return .volleyballMen
    case "W", "F": return .volleyballWomen
    default:
      if let stated = xml.statedSport(among: [.volleyballMen, .volleyballWomen], &warnings) { return stated }
      return hint == .volleyballMen || hint == .volleyballWomen ? hint! : .volleyball
    }
  }

  /// StatCrew's volleyball groups and attributes → the model's keys.
  static let keys: [String: String] = [
    "attack.k": "kills", "attack.e": "attackErrors", "attack.ta": "attackAttempts", "set.a": "assists",
    "serve.sa": "serviceAces", "serve.se": "serviceErrors", "defense.dig": "digs", "defense.re": "receptionErrors",
    "block.bs": "blockSolos", "block.ba": "blockAssists", "block.be": "blockErrors",
  ]

  /// The keys a group of attributes gives; `points` (`misc.pts`, which counts half a point per
  /// block assist) only when whole, else it is left out and `who` is added to `halves`.
  static func stats(_ attributes: [String: String], of who: String, halves: inout [String]) -> [String: Int] {
    var stats: [String: Int] = [:]
    for (attribute, key) in keys {
      if let value = GameText.int(attributes[attribute]) { stats[key] = value }
    }
    if let text = attributes["misc.pts"], let points = Double(text) {
      if points == points.rounded() { stats["points"] = Int(points) } else { halves.append("\(who) \(text)") }
    }
    return stats
  }

  /// The players who played (`gp` counts the sets played: more than 0); the `TEAM` row
  /// (`uni="TM"`) is the team's, already in its totals.
  static func box(_ team: GroupedTeam, _ warnings: inout [String]) -> TeamBox {
    let name = team.attributes["name"] ?? "a team"
    var halves: [String] = []
    let players = team.playersWhoPlayed().map { player in
      let playerName = PersonName.normalized(player.attributes["name"] ?? "")
      return PlayerLine(
        name: playerName, number: player.attributes["uni"],
        starter: player.attributes["ms"].map { $0 == "1" },
        stats: stats(player.stats, of: playerName, halves: &halves))
    }
    let totals = stats(team.totals, of: "the totals", halves: &halves)
    if !halves.isEmpty {
      warnings.append(
        "\(name): points with a half (a block assist counts half) left out: \(halves.joined(separator: ", "))")
    }
    return TeamBox(totals: totals, players: players)
  }

  /// Each `<play>`: a rally won (`point="MIA"`) is a `score` play for the side whose team id won
  /// it, with the set's running points; a timeout is a `timeout` (its team named in the text);
  /// the rest (the starting line-ups) are `other`. The server, in brackets, is kept in `details`.
  static func plays(_ plays: [GroupedPlay], gameId: String, sides: [String?: Side], roster: GroupedRoster) -> [Play] {
    plays.enumerated().map { index, play in
      let attributes = play.attributes
      let text = attributes["text"] ?? ""
      var details: [String: String] = [:]
      if let serving = attributes["serveteam"], !serving.isEmpty { details["serveTeam"] = serving }
      if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
        let server = String(text[text.index(after: text.startIndex)..<close])
        details["server"] = roster.name(server)
      }
      var type = PlayType.other
      var side: Side?
      if let point = attributes["point"], !point.isEmpty {
        type = .score
        side = sides[point]
        details["points"] = "1"
      } else if text.lowercased().hasPrefix("timeout") {
        type = .timeout
      }
      return Play(
        gameId: gameId, sequence: index + 1,
        period: play.period, side: side, type: type, text: text, awayScore: GameText.int(attributes["vscore"]),
        homeScore: GameText.int(attributes["hscore"]), details: details)
    }
  }
}
