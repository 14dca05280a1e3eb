import StatlineCore

/// A StatCrew file's event id, whatever its sport.
enum StatCrewIds {
  /// The StatBroadcast event id: `<venue sbid>`, else the number in the URL; else the file's
  /// own `<venue gameid>` as `game-<gameid>` (the In-Arena tools write the NCAA contest id there,
  /// StatInput a 24-hex id of its own; kept apart from StatBroadcast's numbers); a file without
  /// any gets `date-visitor-home`. (A `gameid` beside an `sbid` is not read: in StatBroadcast's
  /// own files it is no game's id.)
  static func nativeId(venue: [String: String], teams: [String], page: Page) throws(StatlineError) -> String {
    if let sbid = venue["sbid"], !sbid.isEmpty { return sbid }
    if let url = page.url, let number = LCGameNormalizer.eventNumber(in: url) { return number }
    if let own = venue["gameid"]?.trimmingCharacters(in: .whitespaces), !own.isEmpty,
      own.allSatisfy({ $0.isLetter || $0.isNumber })
    {
      return "game-\(own.lowercased())"
    }
    guard let date = GameText.date(venue["date"]) else {
      throw StatlineError(.wrongPage, "the game has no event id (venue sbid), no id in its URL and no date")
    }
    return ([date.replacingOccurrences(of: "-", with: "")] + teams.map(GameText.slug)).joined(separator: "-")
  }
}

/// What every StatCrew file's game starts from, whatever its sport.
enum StatCrewGameStart {
  /// The visiting (`vh="V"`) and home (`vh="H"`) teams of a file.
  static func sides<Team>(_ teams: [Team], vh: (Team) -> String?) throws(StatlineError) -> (visitor: Team, home: Team) {
    guard let visitor = teams.first(where: { vh($0) == "V" }), let home = teams.first(where: { vh($0) == "H" }) else {
      throw StatlineError(.wrongPage, "the game lacks a visiting (vh=\"V\") or a home (vh=\"H\") <team>")
    }
    return (visitor, home)
  }

  /// A grouped file's game id (`StatCrewIds.nativeId`), its visiting and home teams, and the
  /// game from `<venue>` and each team's line (its period lines' `period` and `score`
  /// attributes), its status still unknown: how every sport's file but lacrosse's begins.
  static func begin(
    _ xml: GroupedGame, sport: Sport, page: Page, period: String = "prd", score: String = "score",
    total: String = "score"
  ) throws(StatlineError) -> (id: String, visitor: GroupedTeam, home: GroupedTeam, game: Game) {
    let native = try StatCrewIds.nativeId(
      venue: xml.venue, teams: xml.teams.map { $0.attributes["id"] ?? $0.attributes["name"] ?? "" }, page: page)
    let id = "\(StatBroadcastSource.id):\(native)"
    let (visitor, home) = try sides(xml.teams) { $0.attributes["vh"] }
    let game = self.game(
      id: id, sport: sport, venue: xml.venue, away: try visitor.line(period: period, score: score, total: total),
      home: try home.line(period: period, score: score, total: total))
    return (id, visitor, home, game)
  }

  /// The game from `<venue>`'s date, place, attendance and neutral flag and a doubleheader's game
  /// number (`dhgame="2"`; `0` or absent: a single game), its status still unknown.
  static func game(id: String, sport: Sport, venue: [String: String], away: TeamLine, home: TeamLine) -> Game {
    var game = Game(
      id: id, sport: sport, status: .unknown, date: GameText.date(venue["date"]), venue: LCValues.venue(venue),
      attendance: GameText.int(venue["attend"]), neutralSite: venue["neutralgame"].map { $0.uppercased() == "Y" },
      away: away, home: home)
    game.gameNumber = GameText.int(venue["dhgame"]).flatMap { (1...9).contains($0) ? $0 : nil }
    return game
  }
}
