import Clocks
import Foundation
import Logging
import StatlineCore
import StatlineEngine
import StatlineEvents
import StatlineTesting
import Testing

/// A sink that never answers, and one that always fails, run beside the scheduler on the same
/// manual clock: the live game is still polled every 30 s, and every poll is stored.
@Suite struct DeadSinkCadenceTests {
  /// Never returns until cancelled (a receiver that hangs with no timeout).
  struct HangingSink: EventSink {
    let name = "hanging"
    let filter = EventFilter.all
    func deliver(_ event: ChangeEvent) async throws {
      try await Task.sleep(for: .seconds(1_000_000_000))
    }
  }

  /// Fails every delivery (a receiver that is down).
  final class DownSink: EventSink {
    let name = "down"
    let filter = EventFilter.all
    let attempts = Locked(0)
    func deliver(_ event: ChangeEvent) async throws {
      attempts.withLock { $0 += 1 }
      throw EventDeliveryError("connection refused", retryable: true)
    }
  }

  @Test func aDeadReceiverNeverSlowsThePollingCadence() async throws {
    let base = "http://stats.test"
    let game = "\(base)/game/1.json"
    // The score goes up by one every poll: every poll stores a change and derives a goal.
    let answers = (0...40).map { goals in
      ScriptedFetcher.Answer.ok(TestSource.body([.init(id: "1", status: "live", period: 1, away: goals, home: 0)]))
    }
    let fetcher = ScriptedFetcher([game: answers])
    let store = MemoryStore()
    let clock = TestClock<Duration>()
    let polls = Locked<[PollReport]>([])
    let scheduler = Scheduler(
      store: store,
      poller: Poller(fetcher: fetcher, registry: try SourceRegistry(plugins: [TestSource.plugin]), captures: nil),
      clock: JobClock(clock: clock, start: Date(timeIntervalSince1970: 1_771_200_000)), random: { 0.5 },
      report: { event in if case .polled(let report) = event { polls.withLock { $0.append(report) } } })
    let down = DownSink()
    let delivery = EventDelivery(
      log: store, sinks: [HangingSink(), down], clock: clock, logger: Logger(label: "test"), random: { 0.5 })
    let target = Target(url: game, source: "test", parser: "test-game", role: .game)
    let job = Task { try await scheduler.run(configured: [target]) }
    let sinks = Task { try await delivery.run() }
    // Each step waits for its poll to be reported (bounded), not for a fixed number of yields:
    // the full suite runs beside this test on two cores, and a fixed count was sometimes too
    // few, so the clock moved on before the poll it had woken ran (reported late, or missed).
    func settle(polls expected: Int) async {
      var yields = 0
      while polls.withLock({ $0.count }) < expected && yields < 500_000 {
        await Task.yield()
        yields += 1
      }
      for _ in 0..<200 { await Task.yield() }
    }
    await settle(polls: 1)
    for step in 0..<20 {
      await clock.advance(by: .seconds(30))
      await settle(polls: step + 2)
    }
    let reports = polls.withLock { $0 }
    #expect(reports.count == 21, "one poll at start and one every 30 s for 10 minutes: \(reports.count)")
    #expect(reports.allSatisfy { $0.outcome == .stored }, "every poll stored its change")
    // The first poll is spread over the start-up window (0.5 s); then none is late.
    #expect(reports.dropFirst().allSatisfy { $0.lag == .zero }, "\(reports.map(\.lag))")
    let events = try await store.events(since: 0, limit: 100)
    #expect(events.filter { $0.type == .goal }.count == 20)
    #expect(try await store.cursor(of: "hanging") == 0, "the hanging sink is stuck on its first event")
    #expect(down.attempts.withLock { $0 } > 3, "the failing sink keeps retrying on its own backoff")
    #expect(try await delivery.backlog(of: HangingSink()) == Int64(events.count))
    job.cancel()
    sinks.cancel()
    _ = try? await job.value
    _ = try? await sinks.value
  }
}
