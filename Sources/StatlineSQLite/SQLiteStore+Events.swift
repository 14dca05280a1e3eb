import Foundation
import StatlineCore

extension SQLiteStore: EventLog {
  /// Inserts a write's numbered events; the caller holds the transaction.
  func insert(_ events: [ChangeEvent]) throws(StatlineError) {
    for event in events {
      try connection.statement("INSERT INTO events (sequence, version, game_id, type, json) VALUES (?, ?, ?, ?, ?)")
        .bind(event.sequence, event.version, event.gameId, event.type.rawValue, try json(event)).run()
    }
  }

  public func events(since sequence: Int64, limit: Int) throws -> [ChangeEvent] {
    let statement = try connection.statement("SELECT json FROM events WHERE sequence > ? ORDER BY sequence LIMIT ?")
      .bind(sequence, limit)
    var result: [ChangeEvent] = []
    while try statement.step() { result.append(try decode(statement.text(0))) }
    return result
  }

  /// The highest event sequence (0 when there is none).
  public func lastEventSequence() throws -> Int64 {
    try connection.integer("SELECT COALESCE(MAX(sequence), 0) FROM events")
  }

  public func cursor(of sink: String) throws -> Int64 {
    let statement = try connection.statement("SELECT sequence FROM sink_cursors WHERE sink = ?").bind(sink)
    defer { statement.reset() }
    return try statement.step() ? statement.int64(0) : 0
  }

  /// Every sink's cursor, by name.
  public func sinkCursors() throws -> [String: Int64] {
    let statement = try connection.statement("SELECT sink, sequence FROM sink_cursors")
    var result: [String: Int64] = [:]
    while try statement.step() { result[statement.text(0)] = statement.int64(1) }
    return result
  }

  public func setCursor(_ sequence: Int64, of sink: String) throws {
    try connection.statement(
      """
      INSERT INTO sink_cursors (sink, sequence) VALUES (?, ?)
      ON CONFLICT (sink) DO UPDATE SET sequence = excluded.sequence
      """
    ).bind(sink, sequence).run()
  }

  public func deadLetters(sink: String?) throws -> [DeadLetter] {
    let statement =
      if let sink {
        try connection.statement(
          "SELECT sink, attempts, error, failed_at, json FROM dead_letters WHERE sink = ? ORDER BY sequence"
        ).bind(sink)
      } else {
        try connection.statement(
          "SELECT sink, attempts, error, failed_at, json FROM dead_letters ORDER BY sequence, sink")
      }
    var result: [DeadLetter] = []
    while try statement.step() {
      result.append(
        DeadLetter(
          sink: statement.text(0), event: try decode(statement.text(4)), attempts: Int(statement.int64(1)),
          error: statement.text(2), failedAt: Date(timeIntervalSince1970: statement.double(3))))
    }
    return result
  }

  public func addDeadLetter(_ letter: DeadLetter) throws {
    try connection.statement(
      """
      INSERT INTO dead_letters (sink, sequence, attempts, error, failed_at, json) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (sink, sequence) DO UPDATE SET attempts = excluded.attempts, error = excluded.error,
        failed_at = excluded.failed_at
      """
    ).bind(
      letter.sink, letter.event.sequence, letter.attempts, letter.error, letter.failedAt.timeIntervalSince1970,
      try json(letter.event)
    ).run()
  }

  public func removeDeadLetter(sink: String, sequence: Int64) throws {
    try connection.statement("DELETE FROM dead_letters WHERE sink = ? AND sequence = ?").bind(sink, sequence).run()
  }

  private func json(_ event: ChangeEvent) throws(StatlineError) -> String {
    do {
      return String(decoding: try event.jsonLine(), as: UTF8.self)
    } catch {
      throw StatlineError(.store, "event \(event.sequence) cannot be encoded: \(error)", location: connection.path)
    }
  }

  func decode(_ json: String) throws(StatlineError) -> ChangeEvent {
    try Self.decodeEvent(json, path: connection.path)
  }

  static func decodeEvent(_ json: String, path: String) throws(StatlineError) -> ChangeEvent {
    do {
      return try ChangeEvent.decode(Data(json.utf8))
    } catch {
      throw StatlineError(
        .store, "a stored event cannot be read: \(error)", location: path,
        hint: "the file may come from another Statline")
    }
  }
}
