import Foundation
import PostgresNIO
import StatlineCore

/// The push outbox (`PushOutbox`) of a PostgreSQL store, shared by every worker: the cursor row
/// is locked while a worker plans (so no two plan the same events), and due slots are claimed
/// with `SKIP LOCKED` (so workers take different ones). The rules are `OutboxSlot`'s.
extension PostgresStore: PushOutbox {
  public func outboxCursor(of feed: OutboxFeed) async throws -> OutboxCursor {
    try await perform("cannot read the push outbox's cursor of \(feed.rawValue)") { connection in
      try await Self.cursor(of: feed, locking: false, on: connection, logger: logger)
    }
  }

  static func cursor(of feed: OutboxFeed, locking: Bool, on connection: PostgresConnection, logger: Logger)
    async throws -> OutboxCursor
  {
    let query: PostgresQuery =
      locking
      ? "SELECT sequence, device FROM \(unescaped: feed.cursorTable) WHERE id = 1 FOR UPDATE"
      : "SELECT sequence, device FROM \(unescaped: feed.cursorTable) WHERE id = 1"
    guard let row = try await connection.query(query, logger: logger).collect().first else { return .start }
    let (sequence, device) = try row.decode((Int64, String?).self)
    return OutboxCursor(sequence: sequence, device: device)
  }

  public func enqueueAlerts(
    _ alerts: [QueuedAlert], from: OutboxCursor, to: OutboxCursor, cap: Int, in feed: OutboxFeed
  ) async throws -> OutboxEnqueue {
    let keys = Array(Set(alerts.map { OutboxSlot.Key(deviceId: $0.alert.deviceId, collapseId: $0.alert.collapseId) }))
    return try await transaction("cannot queue \(alerts.count) push alerts") { connection in
      let cursor = try await Self.cursor(of: feed, locking: true, on: connection, logger: logger)
      guard cursor == from else { return OutboxEnqueue(moved: false, queued: 0, ignored: 0) }
      var existing: [OutboxSlot.Key: OutboxSlot] = [:]
      for slot in try await Self.slots(keys, locking: true, on: connection, logger: logger) {
        existing[slot.key] = slot
      }
      let (changed, ignored) = OutboxSlot.merging(alerts, into: existing, cap: cap)
      try await Self.write(changed, on: connection, logger: logger)
      try await connection.query(
        "UPDATE \(unescaped: feed.cursorTable) SET sequence = \(to.sequence), device = \(to.device) WHERE id = 1",
        logger: logger)
      return OutboxEnqueue(moved: true, queued: alerts.count - ignored, ignored: ignored)
    }
  }

  public func claimAlerts(limit: Int, at now: Date, leaseUntil: Date) async throws -> [OutboxSlot] {
    let time = now.timeIntervalSince1970
    return try await transaction("cannot claim push alerts") { connection in
      var slots: [OutboxSlot] = []
      for try await text in try await connection.query(
        """
        SELECT json FROM push_outbox WHERE pending AND ready_at <= \(time) AND expires_at > \(time)
        ORDER BY ready_at LIMIT \(limit) FOR UPDATE SKIP LOCKED
        """, logger: logger
      ).decode(String.self) {
        slots.append(try Self.slot(text).leased(until: leaseUntil))
      }
      try await Self.write(slots, on: connection, logger: logger)
      return slots
    }
  }

  public func settleAlerts(_ settlements: [OutboxSettlement], at now: Date) async throws {
    guard !settlements.isEmpty else { return }
    let keys = settlements.map { OutboxSlot.Key(deviceId: $0.deviceId, collapseId: $0.collapseId) }
    try await transaction("cannot settle \(settlements.count) push alerts") { connection in
      var stored: [OutboxSlot.Key: OutboxSlot] = [:]
      for slot in try await Self.slots(keys, locking: true, on: connection, logger: logger) { stored[slot.key] = slot }
      var settled: [OutboxSlot] = []
      for item in settlements {
        let key = OutboxSlot.Key(deviceId: item.deviceId, collapseId: item.collapseId)
        guard let slot = stored[key] else { continue }
        stored[key] = slot.settled(item.settlement, at: now)
        settled.append(stored[key]!)
      }
      try await Self.write(settled, on: connection, logger: logger)
    }
  }

  public func dropExpiredAlerts(at now: Date) async throws -> Int {
    let time = now.timeIntervalSince1970
    let forget = OutboxSlot.forgetExpiredBefore(now)
    return try await transaction("cannot drop expired push alerts") { connection in
      // Only the pending ones are read: the finished slots kept for a day are never decoded.
      var expired: [OutboxSlot] = []
      for try await text in try await connection.query(
        "SELECT json FROM push_outbox WHERE pending AND expires_at <= \(time) FOR UPDATE SKIP LOCKED", logger: logger
      ).decode(String.self) {
        let slot = try Self.slot(text)
        if slot.expired(at: now) { expired.append(slot.givenUp()) }
      }
      try await Self.write(expired, on: connection, logger: logger)
      try await connection.query(
        "DELETE FROM push_outbox WHERE NOT pending AND expires_at <= \(forget)", logger: logger)
      return expired.count
    }
  }

  public func outboxBacklog(at now: Date) async throws -> OutboxBacklog {
    let time = now.timeIntervalSince1970
    return try await perform("cannot read the push outbox") { connection in
      guard
        let row = try await connection.query(
          """
          SELECT count(*)::int, count(*) FILTER (WHERE leased_until > \(time))::int,
            count(*) FILTER (WHERE not_before > \(time))::int
          FROM push_outbox WHERE pending
          """, logger: logger
        ).collect().first
      else { return OutboxBacklog(pending: 0, leased: 0, backingOff: 0) }
      let (pending, leased, backingOff) = try row.decode((Int, Int, Int).self)
      return OutboxBacklog(pending: pending, leased: leased, backingOff: backingOff)
    }
  }

  static func slots(_ keys: [OutboxSlot.Key], locking: Bool, on connection: PostgresConnection, logger: Logger)
    async throws -> [OutboxSlot]
  {
    guard !keys.isEmpty else { return [] }
    var slots: [OutboxSlot] = []
    for try await text in try await connection.query(
      """
      SELECT json FROM push_outbox WHERE (device_id, collapse_id) IN (
        SELECT * FROM unnest(\(keys.map(\.deviceId))::text[], \(keys.map(\.collapseId))::text[]))
      ORDER BY device_id, collapse_id FOR UPDATE
      """, logger: logger
    ).decode(String.self) {
      slots.append(try slot(text))
    }
    return slots
  }

  static func write(_ slots: [OutboxSlot], on connection: PostgresConnection, logger: Logger) async throws {
    guard !slots.isEmpty else { return }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let texts = try slots.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    try await connection.query(
      """
      INSERT INTO push_outbox (device_id, collapse_id, pending, ready_at, expires_at, leased_until, not_before, json)
      SELECT * FROM unnest(\(slots.map(\.deviceId))::text[], \(slots.map(\.collapseId))::text[],
        \(slots.map(\.pending))::bool[], \(slots.map(\.readyAt))::float8[], \(slots.map(\.expiresAt))::float8[],
        \(slots.map { $0.leasedUntil?.timeIntervalSince1970 ?? 0 })::float8[],
        \(slots.map { $0.notBefore?.timeIntervalSince1970 ?? 0 })::float8[], \(texts)::text[])
      ON CONFLICT (device_id, collapse_id) DO UPDATE SET pending = EXCLUDED.pending, ready_at = EXCLUDED.ready_at,
        expires_at = EXCLUDED.expires_at, leased_until = EXCLUDED.leased_until, not_before = EXCLUDED.not_before,
        json = EXCLUDED.json
      """, logger: logger)
  }

  static func slot(_ text: String) throws(StatlineError) -> OutboxSlot {
    do {
      return try JSONDecoder().decode(OutboxSlot.self, from: Data(text.utf8))
    } catch {
      throw StatlineError(
        .store, "a stored outbox slot does not decode: \(error)", location: "push_outbox",
        hint: "the database may come from another Statline")
    }
  }
}
