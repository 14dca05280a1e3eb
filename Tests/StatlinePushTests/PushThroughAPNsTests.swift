import Foundation
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineTesting
import Testing

/// The whole push path on loopback: events → evaluator → outbox → send loop → the APNs sender
/// over HTTP/2 TLS → `LoopbackAPNs`, counted from the fake's own record: every live follower's
/// alert accepted once, a 410 disabling its device as of the fake's timestamp, a BadDeviceToken
/// quarantining its device, a 503 tried again after its backoff, an unrelated device untouched.
@Suite(.serialized, .timeLimit(.minutes(1))) struct PushThroughAPNsTests {
  @Test func goalsReachEveryFollowerThroughTheLoopbackAPNsAndBadTokensAreSuspended() async throws {
    let rig = try await APNsSenderTests.rig()
    let registry = MemoryDeviceRegistry()
    let events = PushOutboxTests.Events()
    var devices: [Device] = []
    for index in 1...20 { devices.append(await PushOutboxTests.register(registry, index)) }
    _ = await PushOutboxTests.register(registry, 21, teams: ["team:725"])
    let gone = PushOutboxTests.token(1)
    let wrong = PushOutboxTests.token(2)
    let busy = PushOutboxTests.token(3)
    rig.fake.script(gone, .init(status: 410, reason: "Unregistered", timestamp: 1_772_905_000_000))
    rig.fake.script(wrong, .init(status: 400, reason: "BadDeviceToken"))
    rig.fake.script(busy, .init(status: 503, reason: "ServiceUnavailable"))

    let clock = rig.clock
    let evaluator = PushEvaluator(log: events, outbox: registry, now: { clock() })
    let dispatcher = PushDispatcher(
      outbox: registry, transports: [APNsTransport(sender: rig.sender)], now: { clock() }, random: { 0 })
    await events.add(.goal, away: 1, home: 0)
    _ = try await evaluator.evaluatePage()
    let first = try await dispatcher.dispatchBatch()
    #expect(first.claimed == 20 && first.delivered == 17 && first.disabled == 1 && first.quarantined == 1)
    #expect(first.retried == 1)
    clock.advance(minutes: 1)
    let second = try await dispatcher.dispatchBatch()
    #expect(second.delivered == 1, "the 503 went again after its backoff")

    let accepted = rig.fake.accepted.map(\.deviceToken)
    #expect(accepted.count == 18 && Set(accepted).count == 18, "each once, counted by the fake")
    #expect(!accepted.contains(gone) && !accepted.contains(wrong))
    #expect(!accepted.contains(PushOutboxTests.token(21)))
    let disabled = try #require(await registry.device(id: devices[0].id)?.suspended)
    #expect(disabled.kind == .disabled && disabled.since == "2026-03-07T17:36:40Z", "as of the 410's timestamp")
    #expect(await registry.device(id: devices[1].id)?.suspended?.kind == .quarantined)
    await rig.stop()
  }
}
