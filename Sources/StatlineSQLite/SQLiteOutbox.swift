import Foundation
import StatlineCore

/// The push outbox's statements (architecture.md#the-push-outbox), on the connection
/// `SQLiteDeviceRegistry` holds; the rules are `OutboxSlot`'s.
enum SQLiteOutbox {
  static func cursor(of feed: OutboxFeed, on connection: SQLiteConnection) throws(StatlineError) -> OutboxCursor {
    let statement = try connection.statement("SELECT sequence, device FROM \(feed.cursorTable) WHERE id = 1")
    defer { statement.reset() }
    guard try statement.step() else { return .start }
    return OutboxCursor(sequence: statement.int64(0), device: statement.isNull(1) ? nil : statement.text(1))
  }

  static func enqueue(
    _ alerts: [QueuedAlert], from: OutboxCursor, to: OutboxCursor, cap: Int, in feed: OutboxFeed,
    on connection: SQLiteConnection
  ) throws(StatlineError) -> OutboxEnqueue {
    try connection.transaction { () throws(StatlineError) -> OutboxEnqueue in
      guard try cursor(of: feed, on: connection) == from else {
        return OutboxEnqueue(moved: false, queued: 0, ignored: 0)
      }
      var existing: [OutboxSlot.Key: OutboxSlot] = [:]
      let read = try connection.statement("SELECT json FROM push_outbox WHERE device_id = ? AND collapse_id = ?")
      for key in Set(alerts.map { OutboxSlot.Key(deviceId: $0.alert.deviceId, collapseId: $0.alert.collapseId) }) {
        read.reset()
        if try read.bind(key.deviceId, key.collapseId).step() { existing[key] = try decode(read.text(0), connection) }
      }
      read.reset()
      let (changed, ignored) = OutboxSlot.merging(alerts, into: existing, cap: cap)
      for slot in changed { try write(slot, on: connection) }
      try connection.statement("UPDATE \(feed.cursorTable) SET sequence = ?, device = ? WHERE id = 1").bind(
        to.sequence, to.device
      ).run()
      return OutboxEnqueue(moved: true, queued: alerts.count - ignored, ignored: ignored)
    }
  }

  static func claim(limit: Int, at now: Date, leaseUntil: Date, on connection: SQLiteConnection)
    throws(StatlineError) -> [OutboxSlot]
  {
    try connection.transaction { () throws(StatlineError) -> [OutboxSlot] in
      let statement = try connection.statement(
        """
        SELECT json FROM push_outbox WHERE pending = 1 AND ready_at <= ?1 AND expires_at > ?1
        ORDER BY ready_at LIMIT ?2
        """
      ).bind(now.timeIntervalSince1970, limit)
      var slots: [OutboxSlot] = []
      while try statement.step() { slots.append(try decode(statement.text(0), connection).leased(until: leaseUntil)) }
      statement.reset()
      for slot in slots { try write(slot, on: connection) }
      return slots
    }
  }

  static func settle(_ settlements: [OutboxSettlement], at now: Date, on connection: SQLiteConnection)
    throws(StatlineError)
  {
    try connection.transaction { () throws(StatlineError) in
      let read = try connection.statement("SELECT json FROM push_outbox WHERE device_id = ? AND collapse_id = ?")
      for settled in settlements {
        read.reset()
        guard try read.bind(settled.deviceId, settled.collapseId).step() else { continue }
        let slot = try decode(read.text(0), connection)
        read.reset()
        try write(slot.settled(settled.settlement, at: now), on: connection)
      }
    }
  }

  static func dropExpired(at now: Date, on connection: SQLiteConnection) throws(StatlineError) -> Int {
    try connection.transaction { () throws(StatlineError) -> Int in
      // Only the pending ones are read: the finished slots kept for a day are never decoded.
      let statement = try connection.statement(
        "SELECT json FROM push_outbox WHERE pending = 1 AND expires_at <= ?"
      ).bind(now.timeIntervalSince1970)
      var expired: [OutboxSlot] = []
      while try statement.step() {
        let slot = try decode(statement.text(0), connection)
        if slot.expired(at: now) { expired.append(slot.givenUp()) }
      }
      statement.reset()
      for slot in expired { try write(slot, on: connection) }
      try connection.statement("DELETE FROM push_outbox WHERE pending = 0 AND expires_at <= ?").bind(
        OutboxSlot.forgetExpiredBefore(now)
      ).run()
      return expired.count
    }
  }

  static func backlog(at now: Date, on connection: SQLiteConnection) throws(StatlineError) -> OutboxBacklog {
    let statement = try connection.statement(
      """
      SELECT COUNT(*), COALESCE(SUM(leased_until > ?1), 0), COALESCE(SUM(not_before > ?1), 0)
      FROM push_outbox WHERE pending = 1
      """
    ).bind(now.timeIntervalSince1970)
    defer { statement.reset() }
    guard try statement.step() else { return OutboxBacklog(pending: 0, leased: 0, backingOff: 0) }
    return OutboxBacklog(
      pending: Int(statement.int64(0)), leased: Int(statement.int64(1)), backingOff: Int(statement.int64(2)))
  }

  static func write(_ slot: OutboxSlot, on connection: SQLiteConnection) throws(StatlineError) {
    let json: String
    do {
      json = String(decoding: try SQLiteDevices.encoder.encode(slot), as: UTF8.self)
    } catch {
      throw StatlineError(.store, "an outbox slot cannot be encoded: \(error)", location: connection.path)
    }
    try connection.statement(
      """
      INSERT INTO push_outbox (device_id, collapse_id, pending, ready_at, expires_at, leased_until, not_before, json)
      VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
      ON CONFLICT (device_id, collapse_id) DO UPDATE SET pending = ?3, ready_at = ?4, expires_at = ?5,
        leased_until = ?6, not_before = ?7, json = ?8
      """
    ).bind(
      slot.deviceId, slot.collapseId, slot.pending ? 1 : 0, slot.readyAt, slot.expiresAt,
      slot.leasedUntil?.timeIntervalSince1970 ?? 0, slot.notBefore?.timeIntervalSince1970 ?? 0, json
    ).run()
  }

  static func decode(_ json: String, _ connection: SQLiteConnection) throws(StatlineError) -> OutboxSlot {
    do {
      return try JSONDecoder().decode(OutboxSlot.self, from: Data(json.utf8))
    } catch {
      throw StatlineError(
        .store, "a stored outbox slot does not decode: \(error)", location: connection.path,
        hint: "the store may come from another Statline")
    }
  }
}
