import Foundation
import StatlineCore

/// The devices of a SQLite store (`DeviceRegistry`) and its push outbox, on a connection of their
/// own that writes the device and outbox tables only: beside a read-only API (`statline serve`) or the job. The job's writer lock is not taken (that
/// lock keeps a second job from polling; SQLite itself serializes the two writers), and the file
/// must already have this Statline's schema (the job migrates it).
public actor SQLiteDeviceRegistry: DeviceRegistry {
  let connection: SQLiteConnection

  public init(path: String) throws(StatlineError) {
    guard FileManager.default.fileExists(atPath: path) else {
      throw StatlineError(
        .store, "there is no store at \(path)", location: path, hint: "let `statline run` (or `once`) create it")
    }
    connection = try SQLiteConnection(path: path)
    try connection.execute("PRAGMA foreign_keys = ON")
    let schema = try connection.integer("PRAGMA user_version")
    guard schema == Migrations.latest else {
      throw StatlineError(
        .store, "the store has schema version \(schema), this Statline writes devices in \(Migrations.latest)",
        location: path,
        hint: schema < Migrations.latest
          ? "let `statline run` (or `once`) open it once to migrate it" : "run a newer statline")
    }
  }

  public func upsertDevice(_ device: Device) throws -> DeviceUpsert { try SQLiteDevices.upsert(device, on: connection) }
  public func device(id: String) throws -> Device? { try SQLiteDevices.device(id: id, on: connection) }
  public func devices(ids: [String]) throws -> [Device] { try SQLiteDevices.devices(ids: ids, on: connection) }
  public func deleteDevice(id: String) throws -> Bool { try SQLiteDevices.delete(id: id, on: connection) }
  public func devices(following teams: [String], after: String?, limit: Int) throws -> [Device] {
    try SQLiteDevices.following(teams, after: after, limit: limit, on: connection)
  }
  public func devices(watching gameIds: [String], after: String?, limit: Int) throws -> [Device] {
    try SQLiteDevices.watching(gameIds, after: after, limit: limit, on: connection)
  }
  public func deviceCounts() throws -> [Device.Kind: Int] { try SQLiteDevices.counts(on: connection) }
  public func suspendedCounts() throws -> [Device.Suspension.Kind: Int] {
    try SQLiteDevices.suspendedCounts(on: connection)
  }
  public func suspendedDevices(after: String?, limit: Int) throws -> [Device] {
    try SQLiteDevices.suspended(after: after, limit: limit, on: connection)
  }
  public func suspendDevice(id: String, _ suspension: Device.Suspension) throws -> Device? {
    try SQLiteDevices.suspend(id: id, suspension, on: connection)
  }
}

/// The push outbox of a SQLite store, on the devices' connection.
extension SQLiteDeviceRegistry: PushOutbox {
  public func outboxCursor(of feed: OutboxFeed) throws -> OutboxCursor {
    try SQLiteOutbox.cursor(of: feed, on: connection)
  }
  public func enqueueAlerts(
    _ alerts: [QueuedAlert], from: OutboxCursor, to: OutboxCursor, cap: Int, in feed: OutboxFeed
  ) throws -> OutboxEnqueue {
    try SQLiteOutbox.enqueue(alerts, from: from, to: to, cap: cap, in: feed, on: connection)
  }
  public func claimAlerts(limit: Int, at now: Date, leaseUntil: Date) throws -> [OutboxSlot] {
    try SQLiteOutbox.claim(limit: limit, at: now, leaseUntil: leaseUntil, on: connection)
  }
  public func settleAlerts(_ settlements: [OutboxSettlement], at now: Date) throws {
    try SQLiteOutbox.settle(settlements, at: now, on: connection)
  }
  public func dropExpiredAlerts(at now: Date) throws -> Int { try SQLiteOutbox.dropExpired(at: now, on: connection) }
  public func outboxBacklog(at now: Date) throws -> OutboxBacklog { try SQLiteOutbox.backlog(at: now, on: connection) }
}
