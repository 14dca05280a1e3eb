import Foundation
import PostgresNIO
import StatlineCore

extension PostgresStore: EventLog {
  public func events(since sequence: Int64, limit: Int) async throws -> [ChangeEvent] {
    try await perform("cannot read events") { connection in
      var result: [ChangeEvent] = []
      for try await json in try await connection.query(
        "SELECT json::text FROM events WHERE sequence > \(sequence) ORDER BY sequence LIMIT \(limit)", logger: logger
      ).decode(String.self) {
        result.append(try decodeEvent(json))
      }
      return result
    }
  }

  public func lastEventSequence() async throws -> Int64 {
    try await perform("cannot read the last event") { connection in
      try await connection.query("SELECT COALESCE(MAX(sequence), 0) FROM events", logger: logger).collect().first?
        .decode(Int64.self) ?? 0
    }
  }

  public func cursor(of sink: String) async throws -> Int64 {
    try await perform("cannot read the cursor of sink \(sink)") { connection in
      try await connection.query("SELECT sequence FROM sink_cursors WHERE sink = \(sink)", logger: logger).collect()
        .first?.decode(Int64.self) ?? 0
    }
  }

  /// Every sink's cursor, by name.
  public func sinkCursors() async throws -> [String: Int64] {
    try await perform("cannot read the sink cursors") { connection in
      var result: [String: Int64] = [:]
      for try await (sink, sequence) in try await connection.query(
        "SELECT sink, sequence FROM sink_cursors", logger: logger
      ).decode((String, Int64).self) {
        result[sink] = sequence
      }
      return result
    }
  }

  /// Never moves a cursor back: a worker whose sink lease lapsed mid-page cannot undo what the
  /// sink's next holder delivered.
  public func setCursor(_ sequence: Int64, of sink: String) async throws {
    try await perform("cannot move the cursor of sink \(sink)") { connection in
      try await connection.query(
        """
        INSERT INTO sink_cursors (sink, sequence) VALUES (\(sink), \(sequence))
        ON CONFLICT (sink) DO UPDATE SET sequence = GREATEST(sink_cursors.sequence, excluded.sequence)
        """, logger: logger)
    }
  }

  public func deadLetters(sink: String?) async throws -> [DeadLetter] {
    try await perform("cannot read dead letters") { connection in
      var result: [DeadLetter] = []
      for try await (sink, attempts, error, failedAt, json) in try await connection.query(
        """
        SELECT sink, attempts, error, failed_at, json::text FROM dead_letters
        WHERE \(sink)::text IS NULL OR sink = \(sink) ORDER BY sequence, sink
        """, logger: logger
      ).decode((String, Int, String, Double, String).self) {
        result.append(
          DeadLetter(
            sink: sink, event: try decodeEvent(json), attempts: attempts, error: error,
            failedAt: Date(timeIntervalSince1970: failedAt)))
      }
      return result
    }
  }

  public func addDeadLetter(_ letter: DeadLetter) async throws {
    let json = try encodeEvent(letter.event)
    try await perform("cannot keep a dead letter for sink \(letter.sink)") { connection in
      try await connection.query(
        """
        INSERT INTO dead_letters (sink, sequence, attempts, error, failed_at, json)
        VALUES (\(letter.sink), \(letter.event.sequence), \(letter.attempts), \(letter.error),
          \(letter.failedAt.timeIntervalSince1970), \(json)::jsonb)
        ON CONFLICT (sink, sequence) DO UPDATE SET attempts = excluded.attempts, error = excluded.error,
          failed_at = excluded.failed_at
        """, logger: logger)
    }
  }

  public func removeDeadLetter(sink: String, sequence: Int64) async throws {
    try await perform("cannot remove a dead letter of sink \(sink)") { connection in
      try await connection.query(
        "DELETE FROM dead_letters WHERE sink = \(sink) AND sequence = \(sequence)", logger: logger)
    }
  }

  func encodeEvent(_ event: ChangeEvent) throws(StatlineError) -> String {
    do {
      return String(decoding: try event.jsonLine(), as: UTF8.self)
    } catch {
      throw StatlineError(
        .store, "event \(event.sequence) cannot be encoded: \(error)", location: location.description)
    }
  }

  func decodeEvent(_ json: String) throws(StatlineError) -> ChangeEvent {
    do {
      return try ChangeEvent.decode(Data(json.utf8))
    } catch {
      throw StatlineError(
        .store, "a stored event cannot be read: \(error)", location: location.description,
        hint: "the database may hold another program's tables")
    }
  }
}
