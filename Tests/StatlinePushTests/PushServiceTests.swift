import Foundation
import StatlineCore
import StatlineTesting
import Synchronization
import Testing

@testable import StatlinePush

/// The push service's loops: a send loop with nothing to do wakes when a planner queues alerts,
/// not at its next idle look (the latency a goal's alert waits between planning and sending).
@Suite(.timeLimit(.minutes(1))) struct PushServiceTests {
  @Test func aQueuedAlertWakesTheSendLoopsAtOnce() async throws {
    let rig = PushOutboxTests.Rig()
    _ = await PushOutboxTests.register(rig.registry, 1)
    // An idle look an hour apart: only the bells can make anything happen within the test.
    let looks = Mutex(0)
    let service = PushService(
      log: rig.events, evaluator: rig.evaluator, dispatcher: rig.dispatcher, clock: ContinuousClock(),
      idle: .seconds(3600), report: { batch in if batch.claimed == 0 { looks.withLock { $0 += 1 } } })
    let running = Task { await service.run() }
    defer { running.cancel() }
    // Every send loop has looked, found nothing, and waits.
    let started = ContinuousClock.now + .seconds(20)
    while looks.withLock({ $0 }) < PushDispatcher.lanes {
      try #require(ContinuousClock.now < started, "the send loops did not start")
      try await Task.sleep(for: .milliseconds(10))
    }
    await rig.events.add(.goal, away: 1, home: 0)
    rig.events.eventBell.ring()
    let limit = ContinuousClock.now + .seconds(20)
    while rig.transport.tokens.isEmpty {
      try #require(ContinuousClock.now < limit, "the alert waits for the send loop's idle look")
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(service.queued.rings == 1)
    running.cancel()
    await running.value
  }
}
