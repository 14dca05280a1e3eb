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
    #expect(try await store.outboxCursor(of: .events) == .start, sourceLocation: sourceLocation)

    // Queued with the cursor; the same events again from the old cursor change nothing.
    let first = [
      QueuedAlert(alert(one, game: "g1", event: "e1"), sequence: 1),
      .init(alert(two, game: "g1", event: "e1"), sequence: 1),
    ]
    #expect(
      try await store.enqueueAlerts(first, from: .init(sequence: 0), to: .init(sequence: 3), cap: 12, in: .events)
        == OutboxEnqueue(moved: true, queued: 2, ignored: 0),
      sourceLocation: sourceLocation)
    #expect(try await store.outboxCursor(of: .events) == .init(sequence: 3), sourceLocation: sourceLocation)
    #expect(
      try await store.enqueueAlerts(first, from: .init(sequence: 0), to: .init(sequence: 3), cap: 12, in: .events).moved
        == false,
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
      try await store.enqueueAlerts(newer, from: .init(sequence: 3), to: .init(sequence: 5), cap: 12, in: .events)
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
      cap: 12, in: .events)
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
        cap: 12, in: .events
      )
      .queued == 1, "a forgotten slot starts again", sourceLocation: sourceLocation)

    // A game's cap: twelve alerts, then only the final.
    var capped: [QueuedAlert] = (0..<13).map {
      QueuedAlert(alert(two, game: "g2", event: "c\($0)"), sequence: 10 + Int64($0))
    }
    capped.append(QueuedAlert(alert(two, game: "g2", .final, event: "f", life: 3600), sequence: 30))
    #expect(
      try await store.enqueueAlerts(capped, from: .init(sequence: 7), to: .init(sequence: 30), cap: 12, in: .events)
        == OutboxEnqueue(moved: true, queued: 13, ignored: 1),
      sourceLocation: sourceLocation)
    // A cursor part way through an event's followers is kept as it is.
    let partway = OutboxCursor(sequence: 31, device: two.id)
    #expect(
      try await store.enqueueAlerts([], from: .init(sequence: 30), to: partway, cap: 12, in: .events).moved,
      sourceLocation: sourceLocation)
    #expect(try await store.outboxCursor(of: .events) == partway, sourceLocation: sourceLocation)
    #expect(
      try await store.enqueueAlerts([], from: .init(sequence: 31), to: .init(sequence: 32), cap: 12, in: .events).moved
        == false,
      "a cursor part way is not the event's end", sourceLocation: sourceLocation)
    let finals = try await store.claimAlerts(limit: 10, at: now, leaseUntil: now.addingTimeInterval(30))
    #expect(finals.contains { $0.collapseId == "g2" && $0.alert.kind == .final }, sourceLocation: sourceLocation)
    try await liveActivityFeed(store, events: partway, sourceLocation)

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
    // Disabled devices are purged after their time, quarantined ones kept for an operator.
    #expect(
      try await store.purgeDisabledDevices(before: Freshness.date("2026-03-08T00:00:00Z")!) == 0,
      "disabled on the 9th: not yet", sourceLocation: sourceLocation)
    #expect(
      try await store.purgeDisabledDevices(before: Freshness.date("2026-03-10T00:00:00Z")!) == 1,
      sourceLocation: sourceLocation)
    #expect(try await store.device(id: one.id) == nil, sourceLocation: sourceLocation)
    #expect(try await store.device(id: two.id)?.suspended == bad, "quarantined: kept", sourceLocation: sourceLocation)
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

  /// The Live Activity planner's feed: a cursor of its own (store versions), moved with the
  /// updates it queues and never with the event cursor; an update replaces the unsent one by
  /// `ActivityUpdate.after` in every store (a clock's tick after a sent one at priority 5, the
  /// same state again nothing).
  static func liveActivityFeed(
    _ store: any DeviceRegistry & PushOutbox, events: OutboxCursor, _ sourceLocation: SourceLocation
  ) async throws {
    var device = DeviceRegistryContract.device(String(repeating: "c", count: 64), teams: [], kind: .apnsLiveActivity)
    device.gameId = "g9"
    device = try await store.upsertDevice(device).device
    func update(_ clock: String, version: Int64) -> QueuedAlert {
      let game = Game(
        id: "g9", sport: .lacrosseMen, status: .live, period: 2, periodLabel: "2nd", clock: clock,
        away: TeamLine(team: TeamRef(id: "team:193", name: "Duke"), score: 1),
        home: TeamLine(team: TeamRef(id: "team:457", name: "North Carolina"), score: 0))
      var planned = alert(device, game: "g9", event: "ver_\(version)")
      planned.activity = ActivityUpdate(
        state: LiveActivityState(game: game), ending: false, priority: ActivityUpdate.urgent, timestamp: start,
        staleDate: start.addingTimeInterval(45), relevance: 50)
      return QueuedAlert(planned, sequence: version)
    }
    #expect(try await store.outboxCursor(of: .activities) == .start, sourceLocation: sourceLocation)
    #expect(
      try await store.enqueueAlerts(
        [update("10:00", version: 40)], from: .start, to: .init(sequence: 40), cap: 12,
        in: .activities
      ).queued == 1,
      sourceLocation: sourceLocation)
    #expect(try await store.outboxCursor(of: .activities) == .init(sequence: 40), sourceLocation: sourceLocation)
    #expect(
      try await store.outboxCursor(of: .events) == events, "the event cursor stays", sourceLocation: sourceLocation)
    #expect(
      try await store.enqueueAlerts([], from: .start, to: .init(sequence: 41), cap: 12, in: .activities).moved == false,
      sourceLocation: sourceLocation)
    let claimed = try await store.claimAlerts(limit: 100, at: start, leaseUntil: start.addingTimeInterval(30))
    let first = try #require(claimed.first { $0.deviceId == device.id }, sourceLocation: sourceLocation)
    #expect(first.alert.activity?.priority == ActivityUpdate.urgent, sourceLocation: sourceLocation)
    try await store.settleAlerts(
      [OutboxSettlement(deviceId: device.id, collapseId: "g9", .finished(version: first.version))], at: start)
    let written = try await store.enqueueAlerts(
      [update("10:00", version: 41), update("09:30", version: 42)], from: .init(sequence: 40),
      to: .init(sequence: 42), cap: 12, in: .activities)
    #expect(written == OutboxEnqueue(moved: true, queued: 1, ignored: 1), sourceLocation: sourceLocation)
    let tick = try await store.claimAlerts(limit: 100, at: start, leaseUntil: start.addingTimeInterval(30))
      .first { $0.deviceId == device.id }
    #expect(
      tick?.alert.activity?.priority == ActivityUpdate.opportunistic && tick?.alert.activity?.state.clock == "09:30",
      "only the clock moved since the one sent", sourceLocation: sourceLocation)
  }
}
