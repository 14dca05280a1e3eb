import Clocks
import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// Collects the job's events for assertions.
final class JobEventRecorder: @unchecked Sendable {
  private let lock = NSLock()
  private var events: [JobEvent] = []

  func append(_ event: JobEvent) { lock.withLock { events.append(event) } }

  var polls: [PollReport] {
    lock.withLock { events.compactMap { if case .polled(let report) = $0 { report } else { nil } } }
  }

  var summaries: [JobSummary] {
    lock.withLock { events.compactMap { if case .summary(let summary) = $0 { summary } else { nil } } }
  }

  func polls(of url: String) -> [PollReport] { polls.filter { $0.target.url == url } }
}

@Suite struct SchedulerTests {
  static let t0 = Date(timeIntervalSince1970: 1_771_200_000)
  static let base = "http://stats.test"
  static let scoreboard = Target(
    url: "\(base)/scoreboard", source: "test", parser: "test-scoreboard", role: .discovery)

  let clock = TestClock<Duration>()
  let log = JobEventRecorder()

  /// - Parameter start: the wall time now (a new process started later says a later time).
  func scheduler(
    _ fetcher: any Fetcher, store: any ScheduleStore, captures: (any CaptureLog)? = nil, start: Date = t0
  ) throws -> Scheduler<TestClock<Duration>> {
    let registry = try SourceRegistry(plugins: [TestSource.plugin])
    let log = self.log
    return Scheduler(
      store: store, poller: Poller(fetcher: fetcher, registry: registry, captures: captures),
      clock: JobClock(clock: clock, start: start), random: { 0.5 }, report: { log.append($0) })
  }

  func settle(until condition: @escaping () -> Bool) async {
    for _ in 0..<20_000 where !condition() { await Task.yield() }
    for _ in 0..<300 { await Task.yield() }
  }

  @Test func discoversLiveGamesAndPollsThemEveryThirtySeconds() async throws {
    let fetcher = ScriptedFetcher([
      Self.scoreboard.url: [
        .ok(
          TestSource.body([
            .init(id: "1", status: "live", period: 1, away: 0, home: 0), .init(id: "2", status: "scheduled"),
          ]))
      ],
      "\(Self.base)/game/1.json": [
        .ok(TestSource.body([.init(id: "1", status: "live", period: 1, away: 0, home: 0)])),
        .ok(TestSource.body([.init(id: "1", status: "live", period: 1, away: 1, home: 0)])),
      ],
    ])
    let store = MemoryStore()
    let scheduler = try scheduler(fetcher, store: store)
    let task = Task { try await scheduler.run(configured: [Self.scoreboard]) }
    await settle { self.log.polls.count >= 2 }
    #expect(await fetcher.count("\(Self.base)/game/2.json") == 0, "a scheduled game gets no game target")
    #expect(log.polls(of: "\(Self.base)/game/1.json").map(\.outcome) == [.stored])
    await clock.advance(by: .seconds(29))
    await settle { false }
    #expect(await fetcher.count("\(Self.base)/game/1.json") == 1)
    await clock.advance(by: .seconds(1))
    await settle { self.log.polls.count >= 4 }
    #expect(await fetcher.count("\(Self.base)/game/1.json") == 2)
    #expect(
      log.polls(of: "\(Self.base)/game/1.json").last?.written == 2,
      "the goal changes two records: the source game and its canonical game")
    #expect(log.polls(of: "\(Self.base)/game/1.json").last?.lag == .zero)
    let targets = try await store.targets()
    #expect(targets.count == 2)
    task.cancel()
    _ = try? await task.value
  }

  @Test func anUnchangedPageIsNotParsedOrWritten() async throws {
    let body = TestSource.body([.init(id: "1", status: "live", period: 1, away: 0, home: 0)])
    let fetcher = ScriptedFetcher([
      Self.scoreboard.url: [.ok(body, headers: ["ETag": "\"a\""]), .page(status: 304), .ok(body)]
    ])
    let store = MemoryStore()
    let scheduler = try scheduler(fetcher, store: store)
    let first = try await scheduler.runOnce(configured: [Self.scoreboard])
    #expect(first.filter { $0.target == Self.scoreboard }.map(\.outcome) == [.stored])
    await clock.advance(by: .seconds(30))
    let second = try await scheduler.runOnce(configured: [Self.scoreboard])
    #expect(second.first { $0.target == Self.scoreboard }?.outcome == .unchanged)
    #expect(second.first { $0.target == Self.scoreboard }?.status == 304)
    #expect(
      await fetcher.requests.last { $0.url == Self.scoreboard.url }?.etag == "\"a\"",
      "the conditional GET sends the stored ETag")
    await clock.advance(by: .seconds(30))
    let third = try await scheduler.runOnce(configured: [Self.scoreboard])
    #expect(
      third.first { $0.target == Self.scoreboard }.map { ($0.outcome, $0.written) } ?? (.new, -1) == (.unchanged, 0))
  }

  @Test func routineUnchangedPollsOnlyTouchTheirSuccessUntilTheStateIsFiveMinutesOld() async throws {
    let body = TestSource.body([.init(id: "1", status: "live", period: 1, away: 0, home: 0)])
    let fetcher = ScriptedFetcher([
      Self.scoreboard.url: [.ok(body, headers: ["ETag": "\"a\""]), .page(status: 304, headers: ["ETag": "\"a\""])],
      "\(Self.base)/game/1.json": [
        .ok(body, headers: ["ETag": "\"g\""]), .page(status: 304, headers: ["ETag": "\"g\""]),
      ],
    ])
    let store = MemoryStore()
    let scheduler = try scheduler(fetcher, store: store)
    let task = Task { try await scheduler.run(configured: [Self.scoreboard]) }
    await settle { self.log.polls.count >= 2 }
    await clock.advance(by: .seconds(30))
    await settle { self.log.polls.count >= 4 }
    let afterFirstUnchanged = await store.commits
    let firstSuccess = try await store.targets().first { $0.id == Self.scoreboard.id }?.lastSucceeded
    for _ in 0..<5 {
      await clock.advance(by: .seconds(30))
      await settle { false }
    }
    #expect(log.polls.count >= 14)
    #expect(await store.commits == afterFirstUnchanged, "304 after 304: no commit")
    #expect(await store.touches >= 8, "each routine poll's success is touched (freshness reads it)")
    let touched = try #require(try await store.targets().first { $0.id == Self.scoreboard.id })
    #expect(
      touched.lastSucceeded.map { $0.timeIntervalSince(firstSuccess ?? .distantFuture) >= 150 } == true,
      "the last routine poll's success is in the store")
    for _ in 0..<6 {
      await clock.advance(by: .seconds(30))
      await settle { false }
    }
    #expect(await store.commits > afterFirstUnchanged, "the state is still written every five minutes")
    task.cancel()
    _ = try? await task.value
  }

  @Test func aBrokenPageIsCapturedAndTheStoreKeepsTheLastGoodData() async throws {
    let good = TestSource.body([.init(id: "1", status: "live", period: 1, away: 2, home: 0)])
    let fetcher = ScriptedFetcher([Self.scoreboard.url: [.ok(good), .ok("{\"games\": []}")]])
    let store = MemoryStore()
    let captures = MemoryCaptures()
    let scheduler = try scheduler(fetcher, store: store, captures: captures)
    _ = try await scheduler.runOnce(configured: [Self.scoreboard])
    await clock.advance(by: .seconds(30))
    let reports = try await scheduler.runOnce(configured: [Self.scoreboard])
    let report = try #require(reports.first { $0.target == Self.scoreboard })
    #expect(report.outcome == .failed && report.capture == 1)
    #expect(await captures.saved.first?.1.kind == .emptyPage)
    #expect(try await store.sourceGame(id: "test:1") != nil)
    let canonical = try await store.game(id: "test:1")?.id
    let stored = try await store.changes(since: 0, limit: 10)
    #expect(canonical != nil && stored.contains { $0.id == canonical })
    let state = try #require(try await store.targets().first { $0.id == Self.scoreboard.id })
    #expect(state.games.first?.away.score == 2)
    #expect(state.nextDue == Self.t0.addingTimeInterval(60), "the first failure backs off 30 s")
  }

  @Test func aHangingTargetDoesNotHoldUpTheOthers() async throws {
    let hanging = Target(
      url: "http://slow.test/scoreboard", source: "test", parser: "test-scoreboard", role: .discovery)
    let inner = ScriptedFetcher([
      Self.scoreboard.url: [.ok(TestSource.body([.init(id: "1", status: "scheduled")]))]
    ])
    let fetcher = HangingFetcher(inner: inner, hangingHost: "slow.test")
    let scheduler = try scheduler(fetcher, store: MemoryStore())
    let task = Task { try await scheduler.run(configured: [Self.scoreboard, hanging]) }
    await settle { self.log.polls.count >= 1 }
    for _ in 0..<3 {
      await clock.advance(by: .seconds(3600))
      await settle { false }
    }
    #expect(log.polls(of: Self.scoreboard.url).count == 4, "the healthy target keeps its hourly cadence")
    #expect(log.polls(of: hanging.url).isEmpty)
    task.cancel()
    _ = try? await task.value
  }

  @Test func aRestartResumesTheScheduleWithoutABurst() async throws {
    let body = TestSource.body([.init(id: "1", status: "scheduled")])
    let fetcher = ScriptedFetcher([Self.scoreboard.url: [.ok(body)]])
    let store = MemoryStore()
    _ = try await scheduler(fetcher, store: store).runOnce(configured: [Self.scoreboard])
    await clock.advance(by: .seconds(60))
    let restarted = try await scheduler(fetcher, store: store).runOnce(configured: [Self.scoreboard])
    #expect(restarted.isEmpty, "the target is not due for an hour; a restart does not poll it again")
    #expect(await fetcher.count(Self.scoreboard.url) == 1)
  }

  /// cron runs `once` again and again: each run polls what is due when it starts. (Spreading
  /// overdue targets into the future, as a restart of `run` does, made every later run find
  /// nothing due and the data froze while cron reported success.)
  @Test func onceAfterOnceAgainPollsEveryTargetThatIsDue() async throws {
    let body = TestSource.body([.init(id: "1", status: "live", period: 1, away: 0, home: 0)])
    let fetcher = ScriptedFetcher([Self.scoreboard.url: [.ok(body)]])
    let store = MemoryStore()
    var polled: [Int] = []
    for run in 0..<4 {
      // Each run is a new process, started 40 s after the one before.
      let start = Self.t0.addingTimeInterval(Double(run) * 40)
      let reports = try await scheduler(fetcher, store: store, start: start).runOnce(configured: [Self.scoreboard])
      polled.append(reports.filter { $0.target.url == Self.scoreboard.url }.count)
    }
    #expect(polled == [1, 1, 1, 1], "every run past the 30 s cadence polls the live scoreboard")
    #expect(await fetcher.count(Self.scoreboard.url) == 4)
  }

  @Test func periodicSummariesCountWhatHappened() async throws {
    let fetcher = ScriptedFetcher([
      Self.scoreboard.url: [.ok(TestSource.body([.init(id: "1", status: "live", period: 2, away: 1, home: 1)]))],
      "\(Self.base)/game/1.json": [.page(status: 500)],
    ])
    let scheduler = try scheduler(fetcher, store: MemoryStore())
    let task = Task { try await scheduler.run(configured: [Self.scoreboard]) }
    await settle { self.log.polls.count >= 2 }
    await clock.advance(by: .seconds(30))
    await settle { self.log.polls(of: Self.scoreboard.url).count >= 2 }
    await clock.advance(by: .seconds(30))
    await settle { !self.log.summaries.isEmpty }
    let summary = try #require(log.summaries.first)
    #expect(summary.live == 1)
    #expect(summary.counters.stored == 1 && summary.counters.unchanged >= 1 && summary.counters.fetchErrors >= 1)
    #expect(summary.line.contains("fetch errors"))
    task.cancel()
    _ = try? await task.value
  }
}

/// Never answers for one host, until cancelled.
struct HangingFetcher: Fetcher {
  let inner: any Fetcher
  let hangingHost: String

  func fetch(_ request: FetchRequest) async throws -> Page {
    if request.host == hangingHost {
      try await Task.sleep(for: .seconds(100_000))
    }
    return try await inner.fetch(request)
  }
}
