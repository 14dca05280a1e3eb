import Foundation
import StatlineCore
import Testing

/// What every store does with the push outbox (architecture.md#the-push-outbox) and with a
/// sender's suspension of a device: the cursor moves with the slots it fills or not at all, a
/// newer alert replaces an unsent older one, a claim holds a slot until its lease lapses, a send
/// completes only the version it sent, a backoff delays, an expired alert is given up, and a
/// deleted device takes its slots with it.
public enum PushOutboxContract {
  static let start = Date(timeIntervalSince1970: 1_773_000_000)

  static func alert(
    _ device: Device, game: String, _ kind: Device.Alert = .score, event: String, life: TimeInterval = 300
  )
    -> PlannedAlert
  {
    PlannedAlert(
      deviceId: device.id, eventId: event, kind: kind, body: "\(kind) \(event)", threadId: game, collapseId: game,
      expiresAt: start.addingTimeInterval(life), silent: false, data: ["gameId": game])
  }

  public static func check(
    _ make: () async throws -> any DeviceRegistry & PushOutbox, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let store = try await make()
    let one = try await store.upsertDevice(DeviceRegistryContract.device(String(repeating: "a", count: 64), teams: []))
      .device
    let two = try await store.upsertDevice(DeviceRegistryContract.device(String(repeating: "b", count: 64), teams: []))
      .device
    let now = start
    #expect(try await store.outboxCursor() == .start, sourceLocation: sourceLocation)

    // Queued with the cursor; the same events again from the old cursor change nothing.
    let first = [
      QueuedAlert(alert(one, game: "g1", event: "e1"), sequence: 1),
      .init(alert(two, game: "g1", event: "e1"), sequence: 1),
    ]
    #expect(
      try await store.enqueueAlerts(first, from: .init(sequence: 0), to: .init(sequence: 3), cap: 12)
        == OutboxEnqueue(moved: true, queued: 2, ignored: 0),
      sourceLocation: sourceLocation)
    #expect(try await store.outboxCursor() == .init(sequence: 3), sourceLocation: sourceLocation)
    #expect(
      try await store.enqueueAlerts(first, from: .init(sequence: 0), to: .init(sequence: 3), cap: 12).moved == false,
      "another worker planned them",
      sourceLocation: sourceLocation)
    #expect(
      try await store.outboxBacklog(at: now) == OutboxBacklog(pending: 2, leased: 0, backingOff: 0),
      sourceLocation: sourceLocation)

    // A newer alert replaces the unsent one (in one batch too); an older one changes nothing.
    let newer = [
      QueuedAlert(alert(one, game: "g1", event: "e4"), sequence: 4),
      .init(alert(one, game: "g1", event: "e5"), sequence: 5),
      .init(alert(two, game: "g1", event: "e0"), sequence: 0),
    ]
    #expect(
      try await store.enqueueAlerts(newer, from: .init(sequence: 3), to: .init(sequence: 5), cap: 12)
        == OutboxEnqueue(moved: true, queued: 2, ignored: 1),
      sourceLocation: sourceLocation)

    // Claimed: held by the claimer; nothing left to claim until the lease lapses.
    let lease = now.addingTimeInterval(30)
    let claimed = try await store.claimAlerts(limit: 10, at: now, leaseUntil: lease)
    #expect(claimed.count == 2 && claimed.allSatisfy { $0.leasedUntil == lease }, sourceLocation: sourceLocation)
    let mine = try #require(claimed.first { $0.deviceId == one.id }, sourceLocation: sourceLocation)
    #expect(
      mine.alert.eventId == "e5" && mine.version == 3, "the newest, its third version", sourceLocation: sourceLocation)
    #expect(try await store.claimAlerts(limit: 10, at: now, leaseUntil: lease).isEmpty, sourceLocation: sourceLocation)
    #expect(try await store.outboxBacklog(at: now).leased == 2, sourceLocation: sourceLocation)
    let lapsed = try await store.claimAlerts(limit: 1, at: lease, leaseUntil: lease.addingTimeInterval(30))
    #expect(lapsed.count == 1, "a lapsed lease is claimed again, as many as asked", sourceLocation: sourceLocation)

    // Device one: a newer alert comes while its send is in flight; the send completes only
    // its version, so the newer one is due next. Device two: sent, done.
    _ = try await store.enqueueAlerts(
      [.init(alert(one, game: "g1", event: "e6"), sequence: 6)], from: .init(sequence: 5), to: .init(sequence: 6),
      cap: 12)
    try await store.settleAlerts(
      [
        OutboxSettlement(deviceId: one.id, collapseId: "g1", .finished(version: 3)),
        OutboxSettlement(deviceId: two.id, collapseId: "g1", .finished(version: 1)),
      ], at: now)
    let next = try await store.claimAlerts(
      limit: 10, at: now.addingTimeInterval(61), leaseUntil: now.addingTimeInterval(91))
    #expect(next.map(\.alert.eventId) == ["e6"] && next.first?.deviceId == one.id, sourceLocation: sourceLocation)

    // A retry backs off: not due until its time.
    try await store.settleAlerts(
      [OutboxSettlement(deviceId: one.id, collapseId: "g1", .retry(version: 4, jitter: 0.5))],
      at: now.addingTimeInterval(61))
    #expect(
      try await store.outboxBacklog(at: now.addingTimeInterval(61)).backingOff == 1, sourceLocation: sourceLocation)
    #expect(
      try await store.claimAlerts(limit: 10, at: now.addingTimeInterval(61.5), leaseUntil: now.addingTimeInterval(90))
        .isEmpty,
      sourceLocation: sourceLocation)
    #expect(
      try await store.claimAlerts(limit: 10, at: now.addingTimeInterval(62), leaseUntil: now.addingTimeInterval(92))
        .count == 1,
      "due after its backoff (0.75 s)", sourceLocation: sourceLocation)

    // Expired: given up, counted once, never claimed; forgotten a day after.
    #expect(try await store.dropExpiredAlerts(at: now.addingTimeInterval(300)) == 1, sourceLocation: sourceLocation)
    #expect(try await store.dropExpiredAlerts(at: now.addingTimeInterval(300)) == 0, sourceLocation: sourceLocation)
    #expect(try await store.outboxBacklog(at: now.addingTimeInterval(300)).pending == 0, sourceLocation: sourceLocation)
    _ = try await store.dropExpiredAlerts(at: now.addingTimeInterval(300 + 86_400))
    #expect(
      try await store.enqueueAlerts(
        [.init(alert(one, game: "g1", event: "e2"), sequence: 2)], from: .init(sequence: 6), to: .init(sequence: 7),
        cap: 12
      )
      .queued == 1, "a forgotten slot starts again", sourceLocation: sourceLocation)

    // A game's cap: twelve alerts, then only the final.
    var capped: [QueuedAlert] = (0..<13).map {
      QueuedAlert(alert(two, game: "g2", event: "c\($0)"), sequence: 10 + Int64($0))
    }
    capped.append(QueuedAlert(alert(two, game: "g2", .final, event: "f", life: 3600), sequence: 30))
    #expect(
      try await store.enqueueAlerts(capped, from: .init(sequence: 7), to: .init(sequence: 30), cap: 12)
        == OutboxEnqueue(moved: true, queued: 13, ignored: 1),
      sourceLocation: sourceLocation)
    // A cursor part way through an event's followers is kept as it is.
    let partway = OutboxCursor(sequence: 31, device: two.id)
    #expect(
      try await store.enqueueAlerts([], from: .init(sequence: 30), to: partway, cap: 12).moved,
      sourceLocation: sourceLocation)
    #expect(try await store.outboxCursor() == partway, sourceLocation: sourceLocation)
    #expect(
      try await store.enqueueAlerts([], from: .init(sequence: 31), to: .init(sequence: 32), cap: 12).moved == false,
      "a cursor part way is not the event's end", sourceLocation: sourceLocation)
    let finals = try await store.claimAlerts(limit: 10, at: now, leaseUntil: now.addingTimeInterval(30))
    #expect(finals.contains { $0.collapseId == "g2" && $0.alert.kind == .final }, sourceLocation: sourceLocation)

    // Suspension: a 410 older than the device's registration leaves it live; a newer one
    // disables it; a quarantine says why.
    let early = Device.Suspension(kind: .disabled, why: "Unregistered", since: "2026-03-01T00:00:00Z")
    #expect(
      try await store.suspendDevice(id: one.id, early) == nil, "registered again since", sourceLocation: sourceLocation)
    #expect(try await store.device(id: one.id)?.isLive == true, sourceLocation: sourceLocation)
    let late = Device.Suspension(kind: .disabled, why: "Unregistered", since: "2026-03-09T00:00:00Z")
    #expect(try await store.suspendDevice(id: one.id, late)?.suspended == late, sourceLocation: sourceLocation)
    #expect(try await store.device(id: one.id)?.suspended == late, sourceLocation: sourceLocation)
    let bad = Device.Suspension(kind: .quarantined, why: "BadDeviceToken", since: "2026-03-09T00:00:00Z")
    #expect(try await store.suspendDevice(id: two.id, bad)?.suspended == bad, sourceLocation: sourceLocation)
    #expect(try await store.suspendDevice(id: "dev_none", bad) == nil, sourceLocation: sourceLocation)
    #expect(try await store.suspendedCounts() == [.disabled: 1, .quarantined: 1], sourceLocation: sourceLocation)
    #expect(
      try await store.suspendedDevices(after: nil, limit: 10).map(\.id) == [one.id, two.id].sorted(),
      "listed in id order", sourceLocation: sourceLocation)
    #expect(
      try await store.suspendedDevices(after: [one.id, two.id].min(), limit: 10).count == 1,
      sourceLocation: sourceLocation)
    // Registering again makes it live.
    #expect(
      try await store.upsertDevice(DeviceRegistryContract.device(one.token, teams: [])).device.isLive,
      sourceLocation: sourceLocation)

    // A deleted device takes its slots with it.
    #expect(try await store.deleteDevice(id: two.id), sourceLocation: sourceLocation)
    #expect(
      try await store.claimAlerts(limit: 10, at: now.addingTimeInterval(40), leaseUntil: now.addingTimeInterval(70))
        .allSatisfy { $0.deviceId != two.id }, sourceLocation: sourceLocation)
  }
}
