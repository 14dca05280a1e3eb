import StatlineCore

/// A StatCrew file's event id, whatever its sport.
enum StatCrewIds {
  /// The StatBroadcast event id: `<venue sbid>`, else the number in the URL; a file without
  /// either gets `date-visitor-home`.
  static func nativeId(venue: [String: String], teams: [String], page: Page) throws(StatlineError) -> String {
    if let sbid = venue["sbid"], !sbid.isEmpty { return sbid }
    if let url = page.url, let number = LCGameNormalizer.eventNumber(in: url) { return number }
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

  /// The game from `<venue>`'s date, place, attendance and neutral flag, its status still unknown.
  static func game(id: String, sport: Sport, venue: [String: String], away: TeamLine, home: TeamLine) -> Game {
    Game(
      id: id, sport: sport, status: .unknown, date: GameText.date(venue["date"]), venue: LCValues.venue(venue),
      attendance: GameText.int(venue["attend"]), neutralSite: venue["neutralgame"].map { $0.uppercased() == "Y" },
      away: away, home: home)
  }
}
