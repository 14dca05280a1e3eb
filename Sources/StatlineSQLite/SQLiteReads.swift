import Foundation
import StatlineCommit
import StatlineCore

/// The planner's reads (`CommitReads`) answered inside the store's write transaction: from what
/// this process wrote when it wrote it (it is the file's only writer, so its memory is the
/// file's), else from the file.
struct SQLiteReads: CommitReads {
  let connection: SQLiteConnection
  let recent: RecentRecords
  /// When each game this process wrote was written.
  let changedTimes: [String: Date]
  let planner: CommitPlanner

  var trustsMemory: Bool { true }

  func remembered<Value>(_ body: (RecentRecords) -> Value) -> Value { body(recent) }

  func games(_ ids: [String]) throws(StatlineError) -> [String: StoredGame] {
    var found: [String: StoredGame] = [:]
    var unknown: [String] = []
    for id in ids {
      if let game = recent.game(id), let time = changedTimes[id],
        let hash = recent.rememberedHash(.game, id, .game(game))
      {
        found[id] = StoredGame(game: game, hash: hash, changedAt: time)
      } else {
        unknown.append(id)
      }
    }
    guard !unknown.isEmpty else { return found }
    return found.merging(try Self.storedGames(unknown, on: connection)) { first, _ in first }
  }

  /// The stored games under `ids`, with their hashes and when each last changed.
  static func storedGames(_ ids: [String], on connection: SQLiteConnection) throws(StatlineError)
    -> [String: StoredGame]
  {
    var found: [String: StoredGame] = [:]
    let statement = try connection.statement("SELECT json, changed_at, hash FROM games WHERE id = ?")
    for id in ids {
      statement.bind(id)
      defer { statement.reset() }
      guard try statement.step(), let game = try storedGame(statement.text(0), on: connection) else { continue }
      let changed = statement.isNull(1) ? nil : Date(timeIntervalSince1970: statement.double(1))
      found[id] = StoredGame(game: game, hash: statement.int64(2), changedAt: changed)
    }
    return found
  }

  static func storedGame(_ json: String, on connection: SQLiteConnection) throws(StatlineError) -> Game? {
    guard case .game(let game) = try RecordRow.decode(.game, Data(json.utf8), path: connection.path) else {
      return nil
    }
    return game
  }

  func records(of rows: [PlannedRow], games: Bool) throws(StatlineError) -> [RecordKey: StoredRecord] {
    var stored: [RecordKey: StoredRecord] = [:]
    for row in rows {
      guard let hash = try planner.metered(row.kind, row.id, { () throws(StatlineError) in try storedHash(row) })
      else { continue }
      // The previous version of a canonical game that changed: what its events are derived against.
      let previous = games && hash != row.hash && row.isCanonicalGame ? try previousGame(row.id) : nil
      stored[row.key] = StoredRecord(hash: hash, game: previous)
    }
    return stored
  }

  private func storedHash(_ row: PlannedRow) throws(StatlineError) -> Int64? {
    // The hash this process remembers under the id (it wrote or read the record) is the file's,
    // and costs no statement.
    if let remembered = recent.rememberedHash(row.kind, row.id, row.record) { return remembered }
    let statement: Statement
    switch row.kind {
    case .game: statement = try connection.statement("SELECT hash FROM games WHERE id = ?").bind(row.id)
    case .team: statement = try connection.statement("SELECT hash FROM teams WHERE id = ?").bind(row.id)
    case .boxScore: statement = try connection.statement("SELECT hash FROM box_scores WHERE game_id = ?").bind(row.id)
    case .play:
      statement = try connection.statement("SELECT hash FROM plays WHERE game_id = ? AND sequence = ?")
        .bind(row.gameId, row.sequence)
    case .ranking: statement = try connection.statement("SELECT hash FROM rankings WHERE id = ?").bind(row.id)
    }
    defer { statement.reset() }
    return try statement.step() ? statement.int64(0) : nil
  }

  /// The canonical game stored under `id`: the one this process last wrote or found unchanged,
  /// else read back.
  private func previousGame(_ id: String) throws(StatlineError) -> Game? {
    if let game = recent.game(id) { return game }
    let statement = try connection.statement("SELECT json FROM games WHERE id = ?").bind(id)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try Self.storedGame(statement.text(0), on: connection)
  }

  func recentEvents(of gameIds: [String]) throws(StatlineError) -> [String: [ChangeEvent]] {
    var result: [String: [ChangeEvent]] = [:]
    let statement = try connection.statement(
      "SELECT json FROM events WHERE game_id = ? ORDER BY sequence DESC LIMIT 32")
    for id in gameIds {
      statement.bind(id)
      defer { statement.reset() }
      var events: [ChangeEvent] = []
      while try statement.step() {
        events.append(try SQLiteStore.decodeEvent(statement.text(0), path: connection.path))
      }
      result[id] = events
    }
    return result
  }
}

/// The reads of a migration that gives stored games their canonical games: from the file
/// alone (nothing is remembered yet).
struct SQLiteFileReads: CommitReads {
  let connection: SQLiteConnection

  var trustsMemory: Bool { false }

  func remembered<Value>(_ body: (RecentRecords) -> Value) -> Value { body(RecentRecords(limit: 0)) }

  func games(_ ids: [String]) throws(StatlineError) -> [String: StoredGame] {
    try SQLiteReads.storedGames(ids, on: connection)
  }

  func records(of rows: [PlannedRow], games: Bool) throws(StatlineError) -> [RecordKey: StoredRecord] { [:] }

  func recentEvents(of gameIds: [String]) throws(StatlineError) -> [String: [ChangeEvent]] { [:] }
}
