import Foundation
import StatlineCore

extension SQLiteStore: StoreReader {
  /// A canonical game by its id, or by the id of any source game merged into it.
  public func game(id: String) throws -> Game? {
    guard let game = try sourceGame(id: id) else { return nil }
    if let canonical = game.canonicalId { return try sourceGame(id: canonical) ?? game }
    return game
  }

  /// The record stored under `id` as it is: a source game's own, for an operator.
  public func sourceGame(id: String) throws -> Game? {
    let statement = try connection.statement("SELECT json FROM games WHERE id = ?").bind(id)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try record(.game, statement.text(0)) { if case .game(let game) = $0 { game } else { nil } }
  }

  public func sourceGames() throws -> [Game] {
    let statement = try connection.statement(
      "SELECT json FROM games WHERE NOT (id >= 'game:' AND id < 'game;') ORDER BY id")
    var result: [Game] = []
    while try statement.step() {
      if let game = try record(.game, statement.text(0), { if case .game(let game) = $0 { game } else { nil } }) {
        result.append(game)
      }
    }
    return result
  }

  public func conflictedGames(limit: Int) throws -> [Game] {
    let statement = try connection.statement(
      """
      SELECT json FROM games WHERE id >= 'game:' AND id < 'game;' AND json_extract(json, '$.conflict') IS NOT NULL
      ORDER BY date DESC, id LIMIT ?
      """
    ).bind(limit)
    var result: [Game] = []
    while try statement.step() {
      if let game = try record(.game, statement.text(0), { if case .game(let game) = $0 { game } else { nil } }) {
        result.append(game)
      }
    }
    return result
  }

  public func games(sport: Sport?, date: String?) throws -> [Game] {
    let statement = try connection.statement(
      """
      SELECT json FROM games WHERE id >= 'game:' AND id < 'game;' AND (?1 IS NULL OR sport = ?1)
        AND (?2 IS NULL OR date = ?2) ORDER BY id
      """
    ).bind(sport?.rawValue, date)
    var result: [Game] = []
    while try statement.step() {
      if let game = try record(.game, statement.text(0), { if case .game(let game) = $0 { game } else { nil } }) {
        // A retired canonical game is kept for delta sync only.
        if !game.isRetired { result.append(game) }
      }
    }
    return result
  }

  public func games(team: String, datePrefix: String?) throws -> [Game] {
    let statement = try connection.statement(
      """
      SELECT json FROM games WHERE (away_team = ?1 OR home_team = ?1) AND id >= 'game:' AND id < 'game;'
        AND (?2 IS NULL OR substr(date, 1, length(?2)) = ?2)
      ORDER BY date, id
      """
    ).bind(team, datePrefix)
    var result: [Game] = []
    while try statement.step() {
      if let game = try record(.game, statement.text(0), { if case .game(let game) = $0 { game } else { nil } }) {
        // A retired canonical game is kept for delta sync only.
        if !game.isRetired { result.append(game) }
      }
    }
    return result
  }

  public func teams(sport: Sport?) throws -> [Team] {
    let statement = try connection.statement("SELECT json FROM teams ORDER BY id")
    var result: [Team] = []
    while try statement.step() {
      if let team = try record(.team, statement.text(0), { if case .team(let team) = $0 { team } else { nil } }),
        sport == nil || team.sport == sport
      {
        result.append(team)
      }
    }
    return result
  }

  public func rankings(sport: Sport?, poll: String?) throws -> [Ranking] {
    let statement = try connection.statement(
      """
      SELECT json FROM rankings WHERE (?1 IS NULL OR sport = ?1) AND (?2 IS NULL OR poll = ?2)
      ORDER BY poll, season, edition
      """
    ).bind(sport?.rawValue, poll)
    var result: [Ranking] = []
    while try statement.step() {
      if let ranking = try record(
        .ranking, statement.text(0), { if case .ranking(let week) = $0 { week } else { nil } })
      {
        result.append(ranking)
      }
    }
    return result
  }

  public func team(id: String) throws -> Team? {
    let statement = try connection.statement("SELECT json FROM teams WHERE id = ?").bind(id)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try record(.team, statement.text(0)) { if case .team(let team) = $0 { team } else { nil } }
  }

  public func lastSuccessfulPoll() throws -> Date? {
    // Read in SQL: /readyz and /metrics ask often, and decoding every state is not needed.
    let statement = try connection.statement("SELECT MAX(json_extract(state, '$.lastSucceeded')) FROM targets")
    defer { statement.reset() }
    guard try statement.step(), !statement.isNull(0) else { return nil }
    return StateJSON.date(statement.double(0))
  }

  public func stamp() throws -> StoreStamp {
    let statement = try connection.statement("SELECT version, schedule FROM store_version WHERE id = 1")
    defer { statement.reset() }
    guard try statement.step() else { return StoreStamp(version: 0, schedule: 0) }
    return StoreStamp(version: statement.int64(0), schedule: statement.int64(1))
  }

  public func changedAt(gameIds: [String]) throws -> [String: Date] {
    var result: [String: Date] = [:]
    let statement = try connection.statement(
      "SELECT id, changed_at FROM games WHERE id IN (SELECT value FROM json_each(?)) AND changed_at IS NOT NULL")
    statement.bind(Self.jsonArray(gameIds))
    while try statement.step() { result[statement.text(0)] = Date(timeIntervalSince1970: statement.double(1)) }
    return result
  }

  public func freshnessBoard() throws -> FreshnessBoard {
    FreshnessBoard(feeders: try feeders(since: nil), hosts: try hosts())
  }

  public func freshnessChanges(since schedule: Int64) throws -> FreshnessBoard.Changes? {
    FreshnessBoard.Changes(feeders: try feeders(since: schedule), hosts: try hosts())
  }

  /// Every target (or those changed after the schedule stamp `since`) as freshness needs it,
  /// read with SQLite's JSON functions: only those fields, not every target's state with its games.
  private func feeders(since schedule: Int64?) throws(StatlineError) -> [(FreshnessBoard.Feeder, [String])] {
    let statement = try connection.statement(
      """
      SELECT id, url, outcome, next_due IS NULL, json_extract(state, '$.lastSucceeded'), json_extract(state, '$.cadence'),
        json_extract(state, '$.lastError'), json_extract(state, '$.gameId'),
        (SELECT json_group_array(json_extract(value, '$.id')) FROM json_each(state, '$.games'))
      FROM targets
      """ + (schedule == nil ? "" : " WHERE stamp > ?")
    )
    if let schedule { statement.bind(schedule) }
    var feeders: [(FreshnessBoard.Feeder, [String])] = []
    while try statement.step() {
      var games = (try? JSONDecoder().decode([String].self, from: Data(statement.text(8).utf8))) ?? []
      if !statement.isNull(7) { games.append(statement.text(7)) }
      let feeder = FreshnessBoard.Feeder(
        id: statement.text(0), host: URL(string: statement.text(1))?.host(),
        lastSucceeded: statement.isNull(4) ? nil : StateJSON.date(statement.double(4)),
        cadence: statement.isNull(5) ? nil : statement.double(5),
        outcome: TargetState.Outcome(rawValue: statement.text(2)) ?? .new,
        lastError: statement.isNull(6) ? nil : statement.text(6), retired: statement.int64(3) != 0)
      feeders.append((feeder, games))
    }
    return feeders
  }

  public func boxScore(gameId: String) throws -> BoxScore? {
    let statement = try connection.statement("SELECT json FROM box_scores WHERE game_id = ?").bind(gameId)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try record(.boxScore, statement.text(0)) { if case .boxScore(let box) = $0 { box } else { nil } }
  }

  public func boxScores(gameIds: [String]) throws -> [String: StoredBoxScore] {
    let statement = try connection.statement(
      "SELECT game_id, version, json FROM box_scores WHERE game_id IN (SELECT value FROM json_each(?))"
    ).bind(Self.jsonArray(gameIds))
    defer { statement.reset() }
    var result: [String: StoredBoxScore] = [:]
    while try statement.step() {
      guard let box = try record(.boxScore, statement.text(2), { if case .boxScore(let box) = $0 { box } else { nil } })
      else { continue }
      result[statement.text(0)] = StoredBoxScore(box, version: statement.int64(1))
    }
    return result
  }

  public func gameVersions(ids: [String]) throws -> [String: Int64] {
    let statement = try connection.statement(
      "SELECT id, version FROM games WHERE id IN (SELECT value FROM json_each(?))"
    ).bind(Self.jsonArray(ids))
    defer { statement.reset() }
    var result: [String: Int64] = [:]
    while try statement.step() { result[statement.text(0)] = statement.int64(1) }
    return result
  }

  /// Ids as a JSON array, for `json_each(?)`.
  private static func jsonArray(_ ids: [String]) -> String {
    (try? JSONEncoder().encode(ids)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
  }

  public func plays(gameId: String, after sequence: Int, limit: Int) throws -> [Play] {
    let statement = try connection.statement(
      "SELECT json FROM plays WHERE game_id = ? AND sequence > ? ORDER BY sequence LIMIT ?"
    ).bind(gameId, sequence, limit)
    var result: [Play] = []
    while try statement.step() {
      if let play = try record(.play, statement.text(0), { if case .play(let play) = $0 { play } else { nil } }) {
        result.append(play)
      }
    }
    return result
  }

  private func record<T>(_ kind: StoreChange.Kind, _ json: String, _ cast: (StoreRecord) -> T?) throws(StatlineError)
    -> T?
  {
    cast(try RecordRow.decode(kind, Data(json.utf8), path: connection.path))
  }
}
