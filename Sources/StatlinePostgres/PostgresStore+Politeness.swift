import Foundation
import PostgresNIO
import StatlineCore

extension PostgresStore: HostLedger {
  /// One round trip (`statline_reserve`, migration 5) under the host's row lock: the slots this
  /// process finished since its last statement are deleted, lapsed permits dropped, the live ones counted, and a granted slot moves the host's next start by the
  /// spacing, so the cluster's requests to a host start at least `spacing` apart whichever
  /// workers send them. The host's shared breaker comes back with the slot.
  public func reserve(
    host: String, concurrency limit: Int, spacing: TimeInterval, holder: String, now: Date, expiry: Date
  ) async throws -> HostSlot {
    let id = UUID().uuidString
    let done = takeFinished()
    do {
      return try await reserve(
        host: host, concurrency: limit, spacing: spacing, holder: holder, now: now, expiry: expiry, id: id, done: done)
    } catch {
      returnFinished(done)
      throw error
    }
  }

  /// `statline_reserve`, deleting the slots in `done` first.
  private func reserve(
    host: String, concurrency limit: Int, spacing: TimeInterval, holder: String, now: Date, expiry: Date, id: String,
    done: [String]
  ) async throws(StatlineError) -> HostSlot {
    try await perform("cannot reserve a request slot on \(host)") { connection in
      guard
        let (granted, start, failures, breaker, openUntil) = try await connection.query(
          """
          SELECT * FROM statline_reserve(\(host), \(limit)::int, \(spacing), \(holder), \(now.timeIntervalSince1970),
            \(expiry.timeIntervalSince1970), \(id), \(done)::text[])
          """, logger: logger
        ).collect().first?.decode((Bool, Double, Int?, String?, Double?).self)
      else { throw StatlineError(.store, "statline_reserve returned nothing", location: location.description) }
      var slot = HostSlot(host: host, id: granted ? id : nil, start: Date(timeIntervalSince1970: start))
      if let failures, let breaker {
        slot.breaker = HostHealth(
          host: host, breaker: HostHealth.Breaker(rawValue: breaker) ?? .closed, failures: failures,
          openUntil: openUntil.map(Date.init(timeIntervalSince1970:)), updated: now)
      }
      return slot
    }
  }

  public func finish(_ slot: HostSlot) async throws {
    guard let id = slot.id else { return }
    try await perform("cannot give back a request slot on \(slot.host)") { connection in
      try await connection.query("DELETE FROM host_permits WHERE id = \(id)", logger: logger)
    }
  }

  public func pause(host: String, until: Date) async throws {
    try await perform("cannot pause \(host)") { connection in
      try await connection.query(
        """
        WITH paused AS (
          INSERT INTO host_pauses (host, until, since) VALUES (\(host), \(until.timeIntervalSince1970), extract(epoch FROM now()))
          ON CONFLICT (host) DO UPDATE SET until = GREATEST(host_pauses.until, excluded.until)
        )
        INSERT INTO host_slots (host, next_start) VALUES (\(host), \(until.timeIntervalSince1970))
        ON CONFLICT (host) DO UPDATE SET next_start = GREATEST(host_slots.next_start, excluded.next_start)
        """, logger: logger)
    }
  }

  /// Lifts `host`'s pause for every worker (`statline hosts resume`): its next request may
  /// start now. True when a pause stood.
  public func resume(host: String) async throws -> Bool {
    try await perform("cannot resume \(host)") { connection in
      let now = Date().timeIntervalSince1970
      let lifted = try await connection.query(
        """
        WITH lifted AS (DELETE FROM host_pauses WHERE host = \(host) RETURNING until),
        slots AS (
          UPDATE host_slots SET next_start = LEAST(next_start, \(now)) WHERE host = \(host) RETURNING host
        )
        SELECT count(*) FILTER (WHERE until > \(now))::int FROM lifted
        """, logger: logger
      ).collect().first?.decode(Int.self)
      return (lifted ?? 0) > 0
    }
  }

  /// The hosts paused now, with when each pause ends.
  func pausedHosts(at now: Date) async throws -> [String: Date] {
    try await perform("cannot read the paused hosts") { connection in
      var paused: [String: Date] = [:]
      for try await (host, until) in try await connection.query(
        "SELECT host, until FROM host_pauses WHERE until > \(now.timeIntervalSince1970)", logger: logger
      ).decode((String, Double).self) {
        paused[host] = Date(timeIntervalSince1970: until)
      }
      return paused
    }
  }

  /// A success closes the breaker (one statement that touches nothing when it is already
  /// closed and clean); a failure counts, and opens it at the threshold.
  public func recordOutcome(host: String, success: Bool, threshold: Int, cooldown: TimeInterval, now: Date)
    async throws -> HostHealth
  {
    let at = now.timeIntervalSince1970
    if success {
      try await perform("cannot record a success on \(host)") { connection in
        try await connection.query(
          """
          UPDATE hosts SET breaker = 'closed', failures = 0, open_until = NULL, updated = \(at)
          WHERE host = \(host) AND (failures > 0 OR breaker <> 'closed')
          """, logger: logger)
      }
      return HostHealth(host: host, breaker: .closed, failures: 0, openUntil: nil, updated: now)
    }
    return try await perform("cannot record a failure on \(host)") { connection in
      let row = try await connection.query(
        """
        INSERT INTO hosts (host, breaker, failures, open_until, updated) VALUES (\(host), 'closed', 1, NULL, \(at))
        ON CONFLICT (host) DO UPDATE SET failures = hosts.failures + 1, updated = excluded.updated
        RETURNING failures, breaker, open_until
        """, logger: logger
      ).collect().first
      var (failures, breaker, openUntil) = try row?.decode((Int, String, Double?).self) ?? (1, "closed", nil)
      if failures >= threshold && !(breaker == "open" && (openUntil ?? 0) > at) {
        breaker = "open"
        openUntil = at + cooldown
        try await connection.query(
          "UPDATE hosts SET breaker = 'open', open_until = \(openUntil) WHERE host = \(host)", logger: logger)
      }
      return HostHealth(
        host: host, breaker: HostHealth.Breaker(rawValue: breaker) ?? .closed, failures: failures,
        openUntil: openUntil.map(Date.init(timeIntervalSince1970:)), updated: now)
    }
  }

  public func robots(origin: String, since: Date) async throws -> SharedRobots? {
    try await perform("cannot read the shared robots.txt of \(origin)") { connection in
      guard
        let (status, body, fetchedAt) = try await connection.query(
          """
          SELECT status, body, fetched_at FROM robots
          WHERE origin = \(origin) AND fetched_at >= \(since.timeIntervalSince1970)
          """, logger: logger
        ).collect().first?.decode((Int, ByteBuffer, Double).self)
      else { return nil }
      return SharedRobots(
        origin: origin, status: status, body: Data(buffer: body), fetchedAt: Date(timeIntervalSince1970: fetchedAt))
    }
  }

  public func keepRobots(_ robots: SharedRobots) async throws {
    let body = ByteBuffer(bytes: robots.body)
    try await perform("cannot keep the robots.txt of \(robots.origin)") { connection in
      try await connection.query(
        """
        INSERT INTO robots (origin, status, body, fetched_at)
        VALUES (\(robots.origin), \(robots.status), \(body), \(robots.fetchedAt.timeIntervalSince1970))
        ON CONFLICT (origin) DO UPDATE SET status = excluded.status, body = excluded.body,
          fetched_at = excluded.fetched_at
        """, logger: logger)
    }
  }
}

extension PostgresStore: SinkLeases {
  public func holdSink(_ sink: String, holder: String, now: Date, until: Date) async throws -> Bool {
    try await perform("cannot hold the lease of sink \(sink)") { connection in
      try await connection.query(
        """
        INSERT INTO sink_leases (sink, holder, until) VALUES (\(sink), \(holder), \(until.timeIntervalSince1970))
        ON CONFLICT (sink) DO UPDATE SET holder = excluded.holder, until = excluded.until
        WHERE sink_leases.holder = excluded.holder OR sink_leases.until < \(now.timeIntervalSince1970)
        RETURNING holder
        """, logger: logger
      ).collect().first != nil
    }
  }

  public func releaseSinks(holder: String) async throws {
    try await perform("cannot release the sink leases of \(holder)") { connection in
      try await connection.query("DELETE FROM sink_leases WHERE holder = \(holder)", logger: logger)
    }
  }
}
