import Foundation
import PostgresNIO
import StatlineCommit
import StatlineCore

extension PostgresStore: ClusterStore {
  public func heartbeat(_ worker: WorkerInfo, at time: Date) async throws {
    try await perform("cannot beat the heartbeat of worker \(worker.id)") { connection in
      try await connection.query(
        """
        INSERT INTO workers (id, host, pid, started, heartbeat) VALUES (\(worker.id), \(worker.host),
          \(Int(worker.pid)), \(worker.started.timeIntervalSince1970), \(time.timeIntervalSince1970))
        ON CONFLICT (id) DO UPDATE SET heartbeat = excluded.heartbeat, stopped = NULL
        """, logger: logger)
    }
  }

  public func workers(at time: Date) async throws -> [WorkerInfo] {
    try await perform("cannot read the workers") { connection in
      var result: [WorkerInfo] = []
      for try await (id, host, pid, started, heartbeat, stopped, leases) in try await connection.query(
        """
        SELECT w.id, w.host, w.pid, w.started, w.heartbeat, w.stopped,
          (SELECT count(*)::int8 FROM targets t WHERE t.lease_owner = w.id AND t.lease_until >= \(time.timeIntervalSince1970))
        FROM workers w ORDER BY w.heartbeat DESC, w.id
        """, logger: logger
      ).decode((String, String, Int, Double, Double, Double?, Int64).self) {
        result.append(
          WorkerInfo(
            id: id, host: host, pid: Int32(clamping: pid), started: Date(timeIntervalSince1970: started),
            heartbeat: Date(timeIntervalSince1970: heartbeat), stopped: stopped.map(Date.init(timeIntervalSince1970:)),
            leases: Int(leases)))
      }
      return result
    }
  }

  /// How long after a target falls due a claim leaves it to the worker that claimed it last
  /// (migration 9), whose memory holds its records and state: that worker wakes at the due
  /// time it knows and claims within milliseconds, and past this any worker takes it.
  public static let claimAffinity: TimeInterval = 1

  /// One statement: the due, unleased (or lease-expired) targets are locked with `SKIP LOCKED`,
  /// so two workers claiming at the same moment take different targets and never wait on each
  /// other, and leased in the same statement. Another worker's target is left to it for
  /// `claimAffinity` after it falls due.
  public func claim(worker: String, now: Date, limit: Int, until: Date) async throws -> [TargetState] {
    guard limit > 0 else { return [] }
    let graceEnded = now.timeIntervalSince1970 - Self.claimAffinity
    let claimed: [(Double, TargetState)] = try await perform("cannot claim targets for worker \(worker)") {
      connection in
      var claimed: [(Double, TargetState)] = []
      for try await row in try await connection.query(
        """
        WITH due AS (
          SELECT id FROM targets
          WHERE next_due <= \(now.timeIntervalSince1970)
            AND (lease_owner IS NULL OR lease_until < \(now.timeIntervalSince1970))
            AND (last_claimant IS NULL OR last_claimant = \(worker) OR next_due <= \(graceEnded))
          ORDER BY next_due LIMIT \(limit)
          FOR UPDATE SKIP LOCKED)
        UPDATE targets t SET lease_owner = \(worker), lease_until = \(until.timeIntervalSince1970),
          last_claimant = \(worker)
        FROM due WHERE t.id = due.id
        RETURNING t.id, t.state::text, t.etag, t.last_modified, t.body_hash, t.next_due, t.state_tag
        """, logger: logger)
      {
        let columns = row.makeRandomAccess()
        let (id, due, tag) = try (
          columns[0].decode(String.self), columns[5].decode(Double.self),
          columns[6].decode(Int64?.self)
        )
        // A state this process committed, as it left it: no JSON to decode.
        let mine = committed.withLock { $0.claimed(id, tag: tag) }
        claimed.append((due, try mine ?? targetState(row)))
      }
      return claimed
    }
    return claimed.sorted { ($0.0, $0.1.id) < ($1.0, $1.1.id) }.map(\.1)
  }

  public func renew(worker: String, targets: [String], until: Date) async throws -> Set<String> {
    guard !targets.isEmpty else { return [] }
    return try await perform("cannot renew the leases of worker \(worker)") { connection in
      var held: Set<String> = []
      for try await id in try await connection.query(
        """
        UPDATE targets SET lease_until = \(until.timeIntervalSince1970)
        WHERE lease_owner = \(worker) AND id = ANY(\(targets)) RETURNING id
        """, logger: logger
      ).decode(String.self) {
        held.insert(id)
      }
      return held
    }
  }

  public func commit(_ poll: PollCommit, lease: Lease) async throws -> StoreWrite? {
    let prepared = try prepare(poll)
    if poll.hosts.isEmpty {
      switch try await commitInOneStatement(prepared, of: poll, lease: lease) {
      case .written(let written, let plan):
        remember(plan)
        return eventBell.ring(after: written)
      case .leaseLost: return nil
      case .gaveUp: break
      }
    }
    // Under the locks from the start: hosts to write, or records that kept changing under it.
    let (batch, states, time) = (prepared.batch, prepared.states, prepared.time)
    let write: (StoreWrite, CommitPlan?)? = try await transaction("cannot commit the poll of \(lease.target)") {
      connection in
      // The fence: the lease row first, locked; a lease that passed to another worker writes nothing.
      let owner = try await connection.query(
        "SELECT lease_owner FROM targets WHERE id = \(lease.target) FOR UPDATE", logger: logger
      ).collect().first?.decode(String?.self)
      guard owner == lease.worker else { return nil }
      let write = try await self.write(batch, at: time, on: connection)
      for host in poll.hosts { try await self.upsert(host, on: connection) }
      for (index, (state, json)) in states.enumerated() {
        // The leased target's state, its lease given back; others only when new. The last
        // statement moves the schedule's stamp.
        let leased = state.id == lease.target
        try await self.upsert(
          state, json: json, overwrite: leased, releasingLease: leased, stamping: index == states.count - 1,
          on: connection)
      }
      return write
    }
    guard let (written, committed) = write else { return nil }
    remember(committed)
    return eventBell.ring(after: written)
  }

  public func touch(_ target: String, succeededAt time: Date, nextDue: Date?, lease: Lease) async throws -> Bool {
    let since2001 = time.timeIntervalSinceReferenceDate
    let due2001 = nextDue?.timeIntervalSinceReferenceDate
    return try await perform("cannot touch target \(target)") { connection in
      try await connection.query(
        """
        WITH touched AS (
          UPDATE targets SET next_due = \(nextDue?.timeIntervalSince1970), last_succeeded = \(time.timeIntervalSince1970),
            lease_owner = NULL, lease_until = NULL,
            state = state || jsonb_build_object('lastSucceeded', \(since2001)::float8, 'lastPolled', \(since2001)::float8,
              'nextDue', \(due2001)::float8)
          WHERE id = \(target) AND lease_owner = \(lease.worker) RETURNING 1),
        stamped AS (UPDATE schedule_stamp SET schedule = schedule + 1 WHERE id = 1 AND EXISTS (SELECT 1 FROM touched))
        SELECT count(*)::int8 FROM touched
        """, logger: logger
      ).collect().first?.decode(Int64.self) == 1
    }
  }

  public func seed(new: [TargetState], changed: [TargetState], at time: Date) async throws {
    let added = try new.sorted { $0.id < $1.id }.map { state throws(StatlineError) in (state, try state.storedJSON()) }
    let updated = try changed.sorted { $0.id < $1.id }.map { state throws(StatlineError) in
      (state, try state.storedJSON())
    }
    guard !added.isEmpty || !updated.isEmpty else { return }
    try await transaction("cannot add the configured targets") { connection in
      for (state, json) in added { try await self.upsert(state, json: json, overwrite: false, on: connection) }
      for (state, json) in updated {
        try await connection.query(
          """
          UPDATE targets SET next_due = \(state.nextDue?.timeIntervalSince1970), outcome = \(state.outcome.rawValue),
            state = \(json)::jsonb
          WHERE id = \(state.id) AND (lease_owner IS NULL OR lease_until < \(time.timeIntervalSince1970))
          """, logger: logger)
      }
      try await connection.query("UPDATE schedule_stamp SET schedule = schedule + 1 WHERE id = 1", logger: logger)
    }
  }

  public func release(worker: String, at time: Date, cutShort: [String: Date]) async throws {
    try await transaction("cannot release the leases of worker \(worker)") { connection in
      for (target, notBefore) in cutShort {
        let since2001 = notBefore.timeIntervalSinceReferenceDate
        try await connection.query(
          """
          UPDATE targets SET next_due = GREATEST(next_due, \(notBefore.timeIntervalSince1970)),
            state = state || jsonb_build_object('nextDue', GREATEST((state->>'nextDue')::float8, \(since2001)::float8))
          WHERE id = \(target) AND lease_owner = \(worker) AND next_due IS NOT NULL
          """, logger: logger)
      }
      if !cutShort.isEmpty {
        try await connection.query("UPDATE schedule_stamp SET schedule = schedule + 1 WHERE id = 1", logger: logger)
      }
      try await connection.query(
        "UPDATE targets SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = \(worker)", logger: logger)
      // A worker that leaves holds nothing back for the others (`claimAffinity`).
      try await connection.query(
        "UPDATE targets SET last_claimant = NULL WHERE last_claimant = \(worker)", logger: logger)
      try await connection.query(
        "UPDATE workers SET stopped = \(time.timeIntervalSince1970) WHERE id = \(worker)", logger: logger)
    }
  }
}
