import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePush

/// Devices disabled by a 410 or `UNREGISTERED` are deleted by the running push service once
/// `purgeDisabledAfter` has passed; newer disabled ones and quarantined ones stay.
@Suite(.timeLimit(.minutes(1))) struct TokenHygieneTests {
  @Test func theServicePurgesDevicesDisabledLongerThanItsSetting() async throws {
    let rig = PushOutboxTests.Rig()
    let old = await PushOutboxTests.register(rig.registry, 1)
    let recent = await PushOutboxTests.register(rig.registry, 2)
    let odd = await PushOutboxTests.register(rig.registry, 3)
    let live = await PushOutboxTests.register(rig.registry, 4)
    // Registered on 1 March; it is now May, and the oldest was disabled 40 days ago (after it
    // registered: a 410 older than a registration leaves the device live).
    rig.now.advance(70 * 86_400)
    let now = rig.now()
    func iso(daysAgo days: Double) -> String { Freshness.iso(now.addingTimeInterval(-days * 86_400)) }
    #expect(
      await rig.registry.suspendDevice(
        id: old.id, .init(kind: .disabled, why: "APNs 410 Unregistered", since: iso(daysAgo: 40))) != nil)
    _ = await rig.registry.suspendDevice(
      id: recent.id, .init(kind: .disabled, why: "FCM UNREGISTERED", since: iso(daysAgo: 10)))
    _ = await rig.registry.suspendDevice(
      id: odd.id, .init(kind: .quarantined, why: "BadDeviceToken", since: iso(daysAgo: 90)))

    let service = PushService(
      log: rig.events, evaluator: rig.evaluator, dispatcher: rig.dispatcher, clock: ContinuousClock(),
      purgeDisabledAfter: .seconds(30 * 86_400))
    let running = Task { await service.run() }
    defer { running.cancel() }
    let limit = ContinuousClock.now + .seconds(20)
    while await rig.registry.device(id: old.id) != nil {
      try #require(ContinuousClock.now < limit, "purged at the service's start")
      try await Task.sleep(for: .milliseconds(20))
    }
    running.cancel()
    await running.value
    #expect(await rig.registry.device(id: recent.id)?.suspended?.kind == .disabled, "10 days: kept")
    #expect(await rig.registry.device(id: odd.id)?.suspended?.kind == .quarantined, "quarantined: kept")
    #expect(await rig.registry.device(id: live.id)?.isLive == true)
  }
}
