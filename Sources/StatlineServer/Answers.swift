import StatlineCore

/// The JSON shapes of the answers: each record wrapped, so that fields can be added beside it.
struct Scoreboard: Encodable {
  var date: String
  @NullEncoded var sport: Sport?
  @NullEncoded var status: GameStatus?
  var games: [Game]
  /// How fresh each game is, by id.
  var freshness: [String: Freshness]
  var version: Int64
}

struct GameAnswer: Encodable {
  var game: Game
  /// Each source game merged into it, by precedence, with when it was last polled.
  var sources: [SourceLine]
  var freshness: Freshness
  var version: Int64
}

struct BoxScoreAnswer: Encodable {
  /// The box score of the game's first source (by precedence) that has one, on its sides.
  var boxScore: BoxScore
  /// The source game it comes from.
  var source: String
  var freshness: Freshness
  var version: Int64
}

struct PlaysAnswer: Encodable {
  var gameId: String
  /// The source game the plays come from (the game's first source by precedence that has any).
  var source: String
  var plays: [Play]
  /// The `after` to send for the plays that follow.
  var next: Int64
  var more: Bool
  var freshness: Freshness
  var version: Int64
}

struct ChangesAnswer: Encodable {
  var changes: [ChangeJSON]
  /// The `since` to send next time.
  var next: Int64
  var more: Bool
  var version: Int64
}

struct EventsAnswer: Encodable {
  var events: [ChangeEvent]
  var next: Int64
  var more: Bool
}

/// One changed record of delta sync: `{version, kind, id, record}` with the record's own JSON.
struct ChangeJSON: Encodable {
  var version: Int64
  var kind: StoreChange.Kind
  var id: String
  var record: StoreRecord

  init(_ change: StoreChange) {
    version = change.version
    kind = change.kind
    id = change.id
    record = change.record
  }

  enum CodingKeys: String, CodingKey { case version, kind, id, record }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(version, forKey: .version)
    try container.encode(kind, forKey: .kind)
    try container.encode(id, forKey: .id)
    switch record {
    case .game(let game): try container.encode(game, forKey: .record)
    case .team(let team): try container.encode(team, forKey: .record)
    case .boxScore(let box): try container.encode(box, forKey: .record)
    case .play(let play): try container.encode(play, forKey: .record)
    case .ranking(let ranking): try container.encode(ranking, forKey: .record)
    }
  }
}

struct TeamsAnswer: Encodable {
  var teams: [Team]
  var version: Int64
}

struct TeamAnswer: Encodable {
  var team: Team
  var version: Int64
}

/// A team's schedule and results.
struct TeamGamesAnswer: Encodable {
  var teamId: String
  @NullEncoded var season: String?
  var games: [Game]
  var freshness: [String: Freshness]
  var version: Int64
}
