import Clocks
import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// A store that refuses commits (a full disk: every commit fails, as SQLite's "database or disk
/// is full"): such a poll is a failure in every count, never "stored"; nothing of it is kept, so
/// the page is fetched whole again (no validator of a page the store never got); the refusals
/// stand in `commitHealth` until a commit is accepted.
@Suite struct RefusedCommitTests {
  /// The memory store, refusing commits and touches while `full` is set.
  final class FullDisk: ScheduleStore {
    let store = MemoryStore()
    let full = Locked(false)

    func refuse() throws {
      if full.withLock({ $0 }) {
        throw StatlineError(.store, "database or disk is full", location: "/var/lib/statline/statline.sqlite")
      }
    }

    func write(_ batch: Batch) async throws -> StoreWrite {
      try refuse()
      return try await store.write(batch)
    }
    func changes(since version: Int64, limit: Int) async throws -> [StoreChange] {
      try await store.changes(since: version, limit: limit)
    }
    func targets() async throws -> [TargetState] { try await store.targets() }
    func commit(_ poll: PollCommit) async throws -> StoreWrite {
      try refuse()
      return try await store.commit(poll)
    }
    func hosts() async throws -> [HostHealth] { try await store.hosts() }
    func touch(_ target: String, succeededAt time: Date, nextDue: Date?) async throws {
      try refuse()
      try await store.touch(target, succeededAt: time, nextDue: nextDue)
    }
  }

  @Test func aRefusedCommitIsAFailureEverywhereAndThePageIsFetchedWholeAgain() async throws {
    let target = Target(url: "http://stats.test/game/1.json", source: "test", parser: "test-scoreboard", role: .game)
    let page = { (away: Int) in TestSource.body([.init(id: "1", status: "live", period: 1, away: away, home: 0)]) }
    let fetcher = ScriptedFetcher([
      target.url: [
        .ok(page(0), headers: ["ETag": "\"a\""]), .ok(page(1), headers: ["ETag": "\"b\""]),
        .ok(page(1), headers: ["ETag": "\"b\""]),
      ]
    ])
    let store = FullDisk()
    let clock = TestClock<Duration>()
    let log = JobEventRecorder()
    let scheduler = Scheduler(
      store: store,
      poller: Poller(fetcher: fetcher, registry: try SourceRegistry(plugins: [TestSource.plugin]), captures: nil),
      clock: JobClock(clock: clock, start: SchedulerTests.t0), random: { 0.5 }, report: { log.append($0) })

    #expect(try await scheduler.runOnce(configured: [target]).map(\.outcome) == [.stored])

    store.full.withLock { $0 = true }
    await clock.advance(by: .seconds(30))
    let refused = try #require(try await scheduler.runOnce(configured: [target]).first)
    #expect(refused.outcome == .failed && refused.commitRefused && refused.written == 0)
    #expect(refused.error?.contains("database or disk is full") == true)
    #expect(scheduler.totals.stored == 1 && scheduler.totals.storeErrors == 1 && scheduler.totals.fetchErrors == 0)
    #expect(scheduler.commitHealth.failures.count == 1)
    let failure = try #require(scheduler.commitHealth.failures.values.first)
    #expect(failure.consecutive == 1 && failure.lastSucceeded == SchedulerTests.t0)
    #expect(try await store.store.sourceGame(id: "test:1")?.away.score == 0, "nothing of the refused poll was kept")

    // The disk has room again: the next poll (on the failure backoff) asks for the page whole,
    // with the validator of what the store holds, and stores the goal.
    store.full.withLock { $0 = false }
    await clock.advance(by: .seconds(60))
    let stored = try #require(try await scheduler.runOnce(configured: [target]).first)
    #expect(await fetcher.requests.last?.etag == "\"a\"", "never the validator of the refused page")
    #expect(stored.outcome == .stored && stored.events[.goal] == 1)
    #expect(!scheduler.commitHealth.isFailing)
    #expect(try await store.store.sourceGame(id: "test:1")?.away.score == 1)
  }
}
