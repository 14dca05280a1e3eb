import Foundation
import PostgresNIO
import StatlineCore

extension PostgresStore: StoreReader {
  /// The records of one kind a query returns as `json::text` in its first column.
  private func records<T>(_ kind: StoreChange.Kind, _ query: PostgresQuery, _ cast: @escaping (StoreRecord) -> T?)
    async throws(StatlineError) -> [T]
  {
    let path = location.description
    let logger = self.logger
    let records: [StoreRecord] = try await perform("cannot read \(kind) records") { connection in
      var result: [StoreRecord] = []
      for try await json in try await connection.query(query, logger: logger).decode(String.self) {
        result.append(try RecordRow.decode(kind, Data(json.utf8), path: path))
      }
      return result
    }
    return records.compactMap(cast)
  }

  private static func game(_ record: StoreRecord) -> Game? { if case .game(let game) = record { game } else { nil } }
  private static func team(_ record: StoreRecord) -> Team? { if case .team(let team) = record { team } else { nil } }

  /// A canonical game by its id, or by the id of any source game merged into it.
  public func game(id: String) async throws -> Game? {
    try await records(
      .game,
      """
      SELECT COALESCE(c.json, g.json)::text FROM games g LEFT JOIN games c ON c.id = g.json->>'canonicalId'
      WHERE g.id = \(id)
      """, Self.game
    ).first
  }

  /// The record stored under `id` as it is: a source game's own, for an operator.
  public func sourceGame(id: String) async throws -> Game? {
    try await records(.game, "SELECT json::text FROM games WHERE id = \(id)", Self.game).first
  }

  public func sourceGames() async throws -> [Game] {
    try await records(.game, "SELECT json::text FROM games WHERE NOT starts_with(id, 'game:') ORDER BY id", Self.game)
  }

  public func conflictedGames(limit: Int) async throws -> [Game] {
    try await records(
      .game,
      """
      SELECT json::text FROM games WHERE starts_with(id, 'game:') AND json ? 'conflict'
      ORDER BY date DESC NULLS LAST, id LIMIT \(limit)
      """, Self.game)
  }

  public func games(sport: Sport?, date: String?) async throws -> [Game] {
    try await records(
      .game,
      """
      SELECT json::text FROM games WHERE starts_with(id, 'game:')
        AND (\(sport?.rawValue)::text IS NULL OR sport = \(sport?.rawValue))
        AND (\(date)::text IS NULL OR date = \(date)) ORDER BY id
      """, Self.game
    ).filter { !$0.isRetired }
  }

  public func games(team: String, datePrefix: String?) async throws -> [Game] {
    try await records(
      .game,
      """
      SELECT json::text FROM games WHERE (away_team = \(team) OR home_team = \(team)) AND starts_with(id, 'game:')
        AND (\(datePrefix)::text IS NULL OR starts_with(date, \(datePrefix))) ORDER BY date, id
      """, Self.game
    ).filter { !$0.isRetired }
  }

  public func teams(sport: Sport?) async throws -> [Team] {
    try await records(.team, "SELECT json::text FROM teams ORDER BY id", Self.team).filter {
      sport == nil || $0.sport == sport
    }
  }

  public func team(id: String) async throws -> Team? {
    try await records(.team, "SELECT json::text FROM teams WHERE id = \(id)", Self.team).first
  }

  public func rankings(sport: Sport?, poll: String?) async throws -> [Ranking] {
    try await records(
      .ranking,
      """
      SELECT json::text FROM rankings WHERE (\(sport?.rawValue)::text IS NULL OR sport = \(sport?.rawValue))
        AND (\(poll)::text IS NULL OR poll = \(poll)) ORDER BY poll, season, edition
      """
    ) { if case .ranking(let week) = $0 { week } else { nil } }
  }

  public func boxScore(gameId: String) async throws -> BoxScore? {
    try await records(.boxScore, "SELECT json::text FROM box_scores WHERE game_id = \(gameId)") {
      if case .boxScore(let box) = $0 { box } else { nil }
    }.first
  }

  public func boxScores(gameIds: [String]) async throws -> [String: StoredBoxScore] {
    let path = location.description
    return try await perform("cannot read box scores") { connection in
      var result: [String: StoredBoxScore] = [:]
      for try await (id, version, json) in try await connection.query(
        "SELECT game_id, version, json::text FROM box_scores WHERE game_id = ANY(\(gameIds))", logger: logger
      ).decode((String, Int64, String).self) {
        guard case .boxScore(let box) = try RecordRow.decode(.boxScore, Data(json.utf8), path: path) else { continue }
        result[id] = StoredBoxScore(box, version: version)
      }
      return result
    }
  }

  public func gameVersions(ids: [String]) async throws -> [String: Int64] {
    try await perform("cannot read game versions") { connection in
      var result: [String: Int64] = [:]
      for try await (id, version) in try await connection.query(
        "SELECT id, version FROM games WHERE id = ANY(\(ids))", logger: logger
      ).decode((String, Int64).self) {
        result[id] = version
      }
      return result
    }
  }

  public func plays(gameId: String, after sequence: Int, limit: Int) async throws -> [Play] {
    try await records(
      .play,
      "SELECT json::text FROM plays WHERE game_id = \(gameId) AND sequence > \(sequence) ORDER BY sequence LIMIT \(limit)"
    ) { if case .play(let play) = $0 { play } else { nil } }
  }

  public func lastSuccessfulPoll() async throws -> Date? {
    try await perform("cannot read the last good poll") { connection in
      try await connection.query("SELECT MAX(last_succeeded) FROM targets", logger: logger).collect().first?
        .decode(Double?.self).map(Date.init(timeIntervalSince1970:))
    }
  }

  public func stamp() async throws -> StoreStamp {
    try await perform("cannot read the store's stamp") { connection in
      guard
        let (version, schedule) = try await connection.query(
          "SELECT v.version, s.schedule FROM store_version v, schedule_stamp s", logger: logger
        ).collect().first?.decode((Int64, Int64).self)
      else { return StoreStamp(version: 0, schedule: 0) }
      return StoreStamp(version: version, schedule: schedule)
    }
  }

  public func changedAt(gameIds: [String]) async throws -> [String: Date] {
    try await perform("cannot read when games changed") { connection in
      var result: [String: Date] = [:]
      for try await (id, time) in try await connection.query(
        "SELECT id, changed_at FROM games WHERE id = ANY(\(gameIds)) AND changed_at IS NOT NULL", logger: logger
      ).decode((String, Double).self) {
        result[id] = Date(timeIntervalSince1970: time)
      }
      return result
    }
  }

  /// Only the fields freshness needs, not every target's state with its games.
  /// Nil: workers commit side by side, so a target's stamp cannot say which commits a board has
  /// seen (one committed late would be missed); the board is built whole.
  public func freshnessChanges(since schedule: Int64) async throws -> FreshnessBoard.Changes? { nil }

  public func freshnessBoard() async throws -> FreshnessBoard {
    let feeders: [(FreshnessBoard.Feeder, [String])] = try await perform("cannot read the freshness board") {
      connection in
      var feeders: [(FreshnessBoard.Feeder, [String])] = []
      for try await (id, url, outcome, retired, succeeded, cadence, error, gameId, games) in try await connection.query(
        """
        SELECT id, url, outcome, next_due IS NULL, last_succeeded, (state->>'cadence')::float8, state->>'lastError',
          state->>'gameId',
          COALESCE((SELECT array_agg(g->>'id') FROM jsonb_array_elements(state->'games') AS g), '{}')
        FROM targets
        """, logger: logger
      ).decode((String, String, String, Bool, Double?, Double?, String?, String?, [String]).self) {
        let feeder = FreshnessBoard.Feeder(
          id: id, host: URL(string: url)?.host(), lastSucceeded: succeeded.map(Date.init(timeIntervalSince1970:)),
          cadence: cadence, outcome: TargetState.Outcome(rawValue: outcome) ?? .new, lastError: error,
          retired: retired)
        feeders.append((feeder, games + (gameId.map { [$0] } ?? [])))
      }
      return feeders
    }
    return FreshnessBoard(feeders: feeders, hosts: try await hosts())
  }
}
