import StatlineCore
import Testing

/// The bell a store rings when it commits events: a waiter wakes at the ring, a ring between
/// looking and waiting is not missed, a timeout and a cancellation end the wait.
struct EventBellTests {
  @Test func aRingWakesEveryWaiterAndARingBeforeTheWaitIsNotMissed() async throws {
    let bell = EventBell()
    let seen = bell.rings
    let (started, ready) = AsyncStream.makeStream(of: Void.self)
    let waiters = (0..<3).map { _ in
      Task {
        ready.yield()
        await bell.wait(after: seen)
        return bell.rings
      }
    }
    var iterator = started.makeAsyncIterator()
    for _ in 0..<3 { await iterator.next() }
    bell.ring()
    for waiter in waiters { #expect(await waiter.value == 1) }
    // Rung after the look (`seen`), before the wait: the wait returns at once.
    let look = bell.rings
    bell.ring()
    await bell.wait(after: look)
    #expect(bell.rings == 2)
  }

  @Test func theWaitEndsAtTheTimeoutAndSaysWhichCameFirst() async throws {
    let bell = EventBell()
    #expect(try await !bell.wait(after: bell.rings, orSleep: {}), "the sleep ended first")
    let seen = bell.rings
    bell.ring()
    let never: @Sendable () async throws -> Void = { try await Task.sleep(for: .seconds(3600)) }
    #expect(try await bell.wait(after: seen, orSleep: never), "the ring came first; the hour's sleep was cut short")
  }

  @Test func aCancelledWaitReturns() async throws {
    let bell = EventBell()
    let waiter = Task { await bell.wait(after: bell.rings) }
    waiter.cancel()
    await waiter.value
    let timed = Task { try await bell.wait(after: bell.rings, atMost: .seconds(3600), on: ContinuousClock()) }
    timed.cancel()
    await #expect(throws: CancellationError.self) { try await timed.value }
    #expect(bell.rings == 0)
  }
}
