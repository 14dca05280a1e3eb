import Foundation
import StatlineCore

extension SQLiteStore: ScheduleStore {
  public func targets() throws -> [TargetState] {
    let statement = try connection.statement(
      """
      SELECT t.id, t.state, v.etag, v.last_modified, v.body_hash FROM targets t
      LEFT JOIN validators v ON v.target_id = t.id ORDER BY t.id
      """)
    var result: [TargetState] = []
    while try statement.step() {
      var state: TargetState
      do {
        state = try JSONDecoder().decode(TargetState.self, from: Data(statement.text(1).utf8))
      } catch {
        throw StatlineError(
          .store, "the stored state of target \(statement.text(0)) cannot be read: \(error)",
          location: connection.path, hint: "the file may come from another Statline; run `statline status` to see it")
      }
      state.etag = statement.isNull(2) ? nil : statement.text(2)
      state.lastModified = statement.isNull(3) ? nil : statement.text(3)
      state.bodyHash = statement.isNull(4) ? nil : UInt64(bitPattern: statement.int64(4))
      result.append(state)
    }
    return result
  }

  public func commit(_ poll: PollCommit) throws -> StoreWrite {
    // A game changed by a poll changed when the job polled (the job's clock, not this one).
    let time = poll.states.compactMap(\.lastPolled).max() ?? Date()
    let batch = try planner.screened(poll)
    var encoded: [(state: TargetState, json: String)] = []
    for state in poll.states {
      do { encoded.append((state, try state.storedJSON())) } catch { throw error.located(location: connection.path) }
    }
    let (result, plan) = try committing(batch, at: time) { () throws(StatlineError) in
      if !encoded.isEmpty {
        let stamp = try nextScheduleStamp()
        for (state, json) in encoded { try upsert(state, json: json, stamp: stamp) }
      }
      for host in poll.hosts { try upsert(host) }
    }
    remember(plan)
    return eventBell.ring(after: result)
  }

  public func touch(_ target: String, succeededAt time: Date, nextDue: Date?) throws {
    let seconds = StateJSON.seconds(time)
    let due = nextDue.map(StateJSON.seconds)
    try connection.transaction { () throws(StatlineError) in
      let stamp = try nextScheduleStamp()
      try connection.statement(
        """
        UPDATE targets SET next_due = ?2, stamp = ?5,
          state = json_set(state, '$.lastSucceeded', ?1, '$.lastPolled', ?1, '$.nextDue', ?3) WHERE id = ?4
        """
      ).bind(seconds, nextDue?.timeIntervalSince1970, due, target, stamp).run()
    }
  }

  public func hosts() throws -> [HostHealth] {
    let statement = try connection.statement(
      "SELECT host, breaker, failures, open_until, updated FROM hosts ORDER BY host")
    var result: [HostHealth] = []
    while try statement.step() {
      result.append(
        HostHealth(
          host: statement.text(0), breaker: HostHealth.Breaker(rawValue: statement.text(1)) ?? .closed,
          failures: Int(statement.int64(2)),
          openUntil: statement.isNull(3) ? nil : Date(timeIntervalSince1970: statement.double(3)),
          updated: Date(timeIntervalSince1970: statement.double(4))))
    }
    return result
  }

  /// Moves the schedule's stamp (the caller holds the transaction) and returns it: what the
  /// targets written with it are stamped with.
  private func nextScheduleStamp() throws(StatlineError) -> Int64 {
    try connection.execute("UPDATE store_version SET schedule = schedule + 1 WHERE id = 1")
    return try connection.integer("SELECT schedule FROM store_version WHERE id = 1")
  }

  private func upsert(_ state: TargetState, json: String, stamp: Int64) throws(StatlineError) {
    let target = state.target
    try connection.statement(
      """
      INSERT INTO targets (id, url, source, parser, role, next_due, outcome, state, stamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET next_due = excluded.next_due, outcome = excluded.outcome, state = excluded.state,
        stamp = excluded.stamp
      """
    ).bind(
      state.id, target.url, target.source, target.parser, target.role.rawValue,
      state.nextDue?.timeIntervalSince1970, state.outcome.rawValue, json, stamp
    ).run()
    try connection.statement(
      """
      INSERT INTO validators (target_id, etag, last_modified, body_hash) VALUES (?, ?, ?, ?)
      ON CONFLICT (target_id) DO UPDATE SET etag = excluded.etag, last_modified = excluded.last_modified,
        body_hash = excluded.body_hash
      """
    ).bind(state.id, state.etag, state.lastModified, state.bodyHash.map { Int64(bitPattern: $0) }).run()
  }

  private func upsert(_ host: HostHealth) throws(StatlineError) {
    try connection.statement(
      """
      INSERT INTO hosts (host, breaker, failures, open_until, updated) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (host) DO UPDATE SET breaker = excluded.breaker, failures = excluded.failures,
        open_until = excluded.open_until, updated = excluded.updated
      """
    ).bind(
      host.host, host.breaker.rawValue, host.failures, host.openUntil?.timeIntervalSince1970,
      host.updated.timeIntervalSince1970
    ).run()
  }
}

/// Dates inside a stored `TargetState`'s JSON, for the SQL that reads or sets them without
/// decoding the state: seconds since 2001 (`JSONEncoder`'s default date strategy).
enum StateJSON {
  static func date(_ seconds: Double) -> Date { Date(timeIntervalSinceReferenceDate: seconds) }
  static func seconds(_ date: Date) -> Double { date.timeIntervalSinceReferenceDate }
}
