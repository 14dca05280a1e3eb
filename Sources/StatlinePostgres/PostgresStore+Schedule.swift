import Foundation
import PostgresNIO
import StatlineCommit
import StatlineCore

extension PostgresStore: ScheduleStore {
  public func targets() async throws -> [TargetState] {
    try await perform("cannot read the targets") { connection in
      var result: [TargetState] = []
      for try await row in try await connection.query(
        "SELECT id, state::text, etag, last_modified, body_hash FROM targets ORDER BY id", logger: logger)
      {
        result.append(try targetState(row))
      }
      return result
    }
  }

  /// A target's state from a row of `id, state::text, etag, last_modified, body_hash`.
  func targetState(_ row: PostgresRow) throws -> TargetState {
    let (id, json, etag, lastModified, bodyHash) = try row.decode((String, String, String?, String?, Int64?).self)
    var state: TargetState
    do {
      state = try JSONDecoder().decode(TargetState.self, from: Data(json.utf8))
    } catch {
      throw StatlineError(
        .store, "the stored state of target \(id) cannot be read: \(error)", location: location.description,
        hint: "the database may hold another program's tables; run `statline status` to see it")
    }
    state.etag = etag
    state.lastModified = lastModified
    state.bodyHash = bodyHash.map { UInt64(bitPattern: $0) }
    return state
  }

  /// A poll's commit, checked and encoded before its transaction begins: the batch screened
  /// (`CommitPlanner.screened`), the states as JSON (in id order, so two commits lock rows in one order), and
  /// when it changed its games (when the job polled: the job's clock, not this one).
  struct PreparedCommit {
    var batch: Batch?
    var states: [(state: TargetState, json: String)]
    var time: Date
  }

  func prepare(_ poll: PollCommit) throws(StatlineError) -> PreparedCommit {
    let batch = try planner.screened(poll)
    let states = try poll.states.sorted { $0.id < $1.id }.map { state throws(StatlineError) in
      (state: state, json: try state.storedJSON())
    }
    return PreparedCommit(batch: batch, states: states, time: poll.states.compactMap(\.lastPolled).max() ?? Date())
  }

  public func commit(_ poll: PollCommit) async throws -> StoreWrite {
    let prepared = try prepare(poll)
    if poll.hosts.isEmpty,
      case .written(let written, let plan) = try await commitInOneStatement(
        prepared, of: poll, lease: nil)
    {
      remember(plan)
      return eventBell.ring(after: written)
    }
    // Under the locks from the start: hosts to write, or records that kept changing under it.
    let (batch, states, time) = (prepared.batch, prepared.states, prepared.time)
    let (write, plan) = try await transaction("cannot commit the poll") { connection in
      let write = try await self.write(batch, at: time, on: connection)
      for host in poll.hosts { try await self.upsert(host, on: connection) }
      for (index, (state, json)) in states.enumerated() {
        try await self.upsert(state, json: json, stamping: index == states.count - 1, on: connection)
      }
      return write
    }
    remember(plan)
    return eventBell.ring(after: write)
  }

  public func touch(_ target: String, succeededAt time: Date, nextDue: Date?) async throws {
    let since2001 = time.timeIntervalSinceReferenceDate
    let due2001 = nextDue?.timeIntervalSinceReferenceDate
    try await perform("cannot touch target \(target)") { connection in
      // One statement: the state's dates are seconds since 2001 (`JSONEncoder`'s default).
      try await connection.query(
        """
        WITH touched AS (
          UPDATE targets SET next_due = \(nextDue?.timeIntervalSince1970), last_succeeded = \(time.timeIntervalSince1970),
            state = state || jsonb_build_object('lastSucceeded', \(since2001)::float8, 'lastPolled', \(since2001)::float8,
              'nextDue', \(due2001)::float8)
          WHERE id = \(target) RETURNING 1)
        UPDATE schedule_stamp SET schedule = schedule + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM touched)
        """, logger: logger)
    }
  }

  public func hosts() async throws -> [HostHealth] {
    var hosts: [HostHealth] = try await perform("cannot read the hosts") { connection in
      var result: [HostHealth] = []
      for try await (host, breaker, failures, openUntil, updated) in try await connection.query(
        "SELECT host, breaker, failures, open_until, updated FROM hosts ORDER BY host", logger: logger
      ).decode((String, String, Int, Double?, Double).self) {
        result.append(
          HostHealth(
            host: host, breaker: HostHealth.Breaker(rawValue: breaker) ?? .closed, failures: failures,
            openUntil: openUntil.map(Date.init(timeIntervalSince1970:)), updated: Date(timeIntervalSince1970: updated)))
      }
      return result
    }
    // A `Retry-After` pause, on the host's row (a paused host that never had a breaker gets one).
    let now = Date()
    let paused = try await pausedHosts(at: now)
    guard !paused.isEmpty else { return hosts }
    for index in hosts.indices { hosts[index].pausedUntil = paused[hosts[index].host] }
    for (host, until) in paused where !hosts.contains(where: { $0.host == host }) {
      hosts.append(
        HostHealth(host: host, breaker: .closed, failures: 0, openUntil: nil, updated: now, pausedUntil: until))
    }
    return hosts.sorted { $0.host < $1.host }
  }

  /// Writes a target's state; with `overwrite` false, only when no one has added the target yet.
  /// - Parameters:
  ///   - releasingLease: also gives the target's lease back (the worker's commit of its poll),
  ///     in the same statement.
  ///   - stamping: also moves the schedule's stamp (the API's answers depend on it), in the
  ///     same statement: the commit's last, so the stamp's row lock is held only for the commit.
  func upsert(
    _ state: TargetState, json: String, overwrite: Bool = true, releasingLease: Bool = false, stamping: Bool = false,
    on connection: PostgresConnection
  ) async throws {
    let target = state.target
    var query: PostgresQuery = """
      INSERT INTO targets (id, url, source, parser, role, next_due, outcome, last_succeeded, state, etag,
        last_modified, body_hash)
      VALUES (\(state.id), \(target.url), \(target.source), \(target.parser), \(target.role.rawValue),
        \(state.nextDue?.timeIntervalSince1970), \(state.outcome.rawValue), \(state.lastSucceeded?.timeIntervalSince1970),
        \(json)::jsonb, \(state.etag), \(state.lastModified), \(state.bodyHash.map { Int64(bitPattern: $0) }))
      """
    query.sql +=
      overwrite
      ? """
       ON CONFLICT (id) DO UPDATE SET next_due = excluded.next_due, outcome = excluded.outcome,
        last_succeeded = excluded.last_succeeded, state = excluded.state, etag = excluded.etag,
        last_modified = excluded.last_modified, body_hash = excluded.body_hash
      """ + (releasingLease ? ", lease_owner = NULL, lease_until = NULL" : "") : " ON CONFLICT (id) DO NOTHING"
    if stamping {
      query.sql = "WITH stamp AS (UPDATE schedule_stamp SET schedule = schedule + 1 WHERE id = 1) " + query.sql
    }
    try await connection.query(query, logger: logger)
  }

  func upsert(_ host: HostHealth, on connection: PostgresConnection) async throws {
    try await connection.query(
      """
      INSERT INTO hosts (host, breaker, failures, open_until, updated)
      VALUES (\(host.host), \(host.breaker.rawValue), \(host.failures), \(host.openUntil?.timeIntervalSince1970),
        \(host.updated.timeIntervalSince1970))
      ON CONFLICT (host) DO UPDATE SET breaker = excluded.breaker, failures = excluded.failures,
        open_until = excluded.open_until, updated = excluded.updated
      """, logger: logger)
  }
}
