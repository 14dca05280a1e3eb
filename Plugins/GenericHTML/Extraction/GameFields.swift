import StatlineCore

/// The fields a `games:` section may set, and how they become a `Game`.
///
/// A row names both sides directly (`away.*`, `home.*`) or, on a team's schedule, from that
/// team's point of view (`team.*`, `opponent.*` and `teamSide: home|away`).
enum GameFields {
  static let lineKeys = ["id", "name", "abbreviation", "score", "record", "rank", "winner"]
  static let sides = ["away", "home", "team", "opponent"]
  static let gameKeys = [
    "id", "sport", "status", "period", "periodLabel", "clock", "date", "startTime", "venue",
    "attendance", "neutralSite", "teamSide",
  ]
  static let allowed = Set(gameKeys + sides.flatMap { side in lineKeys.map { "\(side).\($0)" } })

  static func check(_ section: RecordSection, reader: NodeReader) throws(StatlineError) {
    let names = Set(section.fields.map(\.name))
    let perspective = names.contains { $0.hasPrefix("team.") || $0.hasPrefix("opponent.") }
    let direct = names.contains { $0.hasPrefix("away.") || $0.hasPrefix("home.") }
    guard names.contains("id") else {
      throw reader.failure(
        "games.fields", nil, "games need an 'id' field",
        expected: "id: a selector or template giving 'namespace:native'")
    }
    if perspective && direct {
      throw reader.failure(
        "games.fields", nil, "mixes away./home. with team./opponent. fields", expected: "one form or the other")
    }
    if perspective && !names.contains("teamSide") {
      throw reader.failure(
        "games.fields", nil, "team./opponent. fields need 'teamSide'", expected: "teamSide giving home or away")
    }
    let prefixes = perspective ? ["team", "opponent"] : ["away", "home"]
    for prefix in prefixes where !names.contains("\(prefix).name") {
      throw reader.failure(
        "games.fields", nil, "games need '\(prefix).name'", expected: "a selector for the \(prefix) team's name")
    }
  }

  static func game(from row: RowValues, config: GenericConfig) throws(StatlineError) -> Game {
    func fail(_ message: String) -> StatlineError {
      StatlineError(.wrongPage, message, context: row.context, hint: "compare the page with the config")
    }
    func string(_ key: String) -> String? {
      row[key].map(\.description)
    }
    func int(_ key: String) throws(StatlineError) -> Int? {
      switch row[key] {
      case nil: return nil
      case .integer(let value): return value
      case .string(let text):
        guard let value = Int(text) else { throw fail("'\(key)' is '\(text)', not an integer") }
        return value
      case .boolean: throw fail("'\(key)' is a boolean, not an integer")
      }
    }
    func bool(_ key: String) -> Bool? {
      switch row[key] {
      case nil: nil
      case .boolean(let value): value
      case .integer(let value): value != 0
      case .string(let text): ["true", "yes", "y", "1"].contains(text.lowercased())
      }
    }
    func line(_ prefix: String) throws(StatlineError) -> TeamLine {
      guard let name = string("\(prefix).name") else { throw fail("the \(prefix) team has no name") }
      return TeamLine(
        team: TeamRef(id: string("\(prefix).id"), name: name, abbreviation: string("\(prefix).abbreviation")),
        score: try int("\(prefix).score"), periodScores: [], record: string("\(prefix).record"),
        rank: try int("\(prefix).rank"), winner: bool("\(prefix).winner"))
    }
    guard let id = string("id") else { throw fail("the game has no id") }
    let statusText = string("status") ?? GameStatus.unknown.rawValue
    guard let status = GameStatus(rawValue: statusText) else {
      throw fail(
        "status '\(statusText)' is not one of \(GameStatus.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    let sport = string("sport").map { Sport($0) } ?? config.sport ?? .unknown
    var away: TeamLine
    var home: TeamLine
    if let sideText = string("teamSide") {
      guard let side = Side(rawValue: sideText) else { throw fail("teamSide '\(sideText)' is not home or away") }
      let team = try line("team")
      let opponent = try line("opponent")
      (away, home) = side == .away ? (team, opponent) : (opponent, team)
    } else {
      away = try line("away")
      home = try line("home")
    }
    if status == .final, let a = away.score, let h = home.score, away.winner == nil, home.winner == nil {
      away.winner = a > h
      home.winner = h > a
    }
    return Game(
      id: id, sport: sport, status: status, period: try int("period"), periodLabel: string("periodLabel"),
      clock: string("clock"), date: string("date"), startTime: string("startTime"), venue: string("venue"),
      attendance: try int("attendance"), neutralSite: bool("neutralSite"), away: away, home: home)
  }
}

/// The fields a `teams:` section may set.
enum TeamFields {
  static let allowed: Set<String> = ["id", "name", "abbreviation", "conference", "sport"]

  static func check(_ section: RecordSection, reader: NodeReader) throws(StatlineError) {
    let names = Set(section.fields.map(\.name))
    for required in ["id", "name"] where !names.contains(required) {
      throw reader.failure(
        "teams.fields", nil, "teams need a '\(required)' field",
        expected: "a selector or template for the team's \(required)")
    }
  }

  static func team(from row: RowValues, config: GenericConfig) throws(StatlineError) -> Team {
    guard let id = row["id"]?.description, let name = row["name"]?.description else {
      throw StatlineError(.wrongPage, "a team row has no id or name", context: row.context)
    }
    return Team(
      id: id, name: name, abbreviation: row["abbreviation"]?.description,
      conference: row["conference"]?.description,
      sport: row["sport"].map { Sport($0.description) } ?? config.sport)
  }
}
