import Foundation
import StatlineCore
import StatlineEngine
import StatlinePostgres
import StatlineTesting
import Testing

/// Two workers (two schedulers, two pools) on one PostgreSQL store, polling 20 live games every
/// cadence through one fetcher that notes when each page was asked for: every game is polled
/// every cadence, never twice within one, and when one worker stops the other polls them all.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct ClusterSchedulerTests {
  final class Requests: Fetcher, Sendable {
    let log = Locked<[(url: String, at: ContinuousClock.Instant)]>([])
    func fetch(_ request: FetchRequest) async throws -> Page {
      log.withLock { $0.append((request.url, .now)) }
      let id = request.url.split(separator: "/").last.map { String($0.dropLast(5)) } ?? "0"
      let body = TestSource.body([.init(id: id, status: "live", period: 1, away: 0, home: 0)])
      return Page(url: request.url, status: 200, body: Data(body.utf8))
    }
  }

  @Test(.timeLimit(.minutes(1))) func twoWorkersShareTheGamesAndTheSurvivorTakesThemAll() async throws {
    try await TestPostgres.withStores { make in
      let first = try await make()
      let second = try await PostgresStore.open(first.location)
      let fetcher = Requests()
      let registry = try SourceRegistry(plugins: [TestSource.plugin])
      let targets = (1...20).map {
        Target(url: "http://stats.test/game/\($0).json", source: "test", parser: "test-game", role: .game)
      }
      var configuration = Scheduler<ContinuousClock>.Configuration()
      // A cadence of 2 s: the full suite runs beside this test on two cores, and a poll can
      // start a few hundred milliseconds late; the bounds below are in cadences.
      let cadence = 2.0
      configuration.defaultPolicy.live = .seconds(cadence)
      configuration.defaultPolicy.jitter = 0
      configuration.maxConcurrentPolls = 8
      let settings = configuration
      func worker(_ store: PostgresStore, _ id: String) -> Scheduler<ContinuousClock> {
        var membership = ClusterMembership(
          store: store, worker: WorkerInfo(id: id, host: "test", pid: 1, started: Date(), heartbeat: Date()))
        membership.claimEvery = .milliseconds(50)
        membership.renewEvery = .milliseconds(500)
        membership.leaseDuration = .seconds(3)
        return Scheduler(
          store: store, poller: Poller(fetcher: fetcher, registry: registry, captures: store),
          clock: JobClock(clock: ContinuousClock(), start: Date()), configuration: settings, cluster: membership)
      }
      let (workerA, workerB) = (worker(first, "a"), worker(second, "b"))
      let a = Task { try await workerA.run(configured: targets) }
      let b = Task { try await workerB.run(configured: targets) }
      try await Task.sleep(for: .seconds(2.5 * cadence))
      a.cancel()
      _ = try? await a.value
      let stopped = ContinuousClock.now
      #expect(try await first.workers(at: Date()).first { $0.id == "a" }?.leases == 0, "a gave its leases back")
      try await Task.sleep(for: .seconds(2.5 * cadence))
      b.cancel()
      _ = try? await b.value
      await second.close()

      let log = fetcher.log.withLock { $0 }
      let byURL = Dictionary(grouping: log, by: \.url).mapValues { $0.map(\.at).sorted() }
      #expect(byURL.count == 20, "every game polled")
      for (url, times) in byURL {
        let gaps = zip(times, times.dropFirst()).map { JobClock<ContinuousClock>.seconds($0.duration(to: $1)) }
        #expect(gaps.allSatisfy { $0 >= 0.9 * cadence }, "\(url) polled twice within a cadence: \(gaps)")
        // A poll a cut short may have asked the site until the moment it stopped: by design no
        // one asks again before a cadence from then, so the gap across the stop may be up to two
        // cadences (on a loaded machine a's last polls are still running when it stops). Every
        // other gap is one cadence, and none is shorter.
        let acrossStop = zip(times, times.dropFirst()).map { $0 < stopped && stopped <= $1 }
        #expect(
          zip(gaps, acrossStop).allSatisfy { gap, across in gap <= (across ? 2.6 : 1.6) * cadence },
          "\(url) waited longer than a cadence: \(gaps)")
        #expect(times.count >= 4, "\(url) polled \(times.count) times in \(5 * cadence) s")
        #expect(times.contains { $0 > stopped.advanced(by: .seconds(cadence)) }, "\(url) polled after a stopped")
      }
    }
  }

  /// A worker claims a target it polled last when it falls due, not at its next claim tick:
  /// with a tick of an hour, games every second are still polled every second.
  @Test(.timeLimit(.minutes(1))) func aWorkerWakesForTheNextDueTargetItKnows() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let fetcher = Requests()
      let targets = (1...3).map {
        Target(url: "http://stats.test/game/\($0).json", source: "test", parser: "test-game", role: .game)
      }
      var configuration = Scheduler<ContinuousClock>.Configuration()
      configuration.defaultPolicy.live = .seconds(1)
      configuration.defaultPolicy.jitter = 0
      var membership = ClusterMembership(
        store: store, worker: WorkerInfo(id: "a", host: "test", pid: 1, started: Date(), heartbeat: Date()))
      membership.claimEvery = .seconds(3600)
      let worker = Scheduler(
        store: store,
        poller: Poller(fetcher: fetcher, registry: try SourceRegistry(plugins: [TestSource.plugin]), captures: nil),
        clock: JobClock(clock: ContinuousClock(), start: Date()), configuration: configuration, cluster: membership)
      let run = Task { try await worker.run(configured: targets) }
      try await Task.sleep(for: .milliseconds(3_500))
      run.cancel()
      _ = try? await run.value

      let byURL = Dictionary(grouping: fetcher.log.withLock { $0 }, by: \.url).mapValues { $0.map(\.at).sorted() }
      for target in targets {
        let times = byURL[target.url] ?? []
        let gaps = zip(times, times.dropFirst()).map { JobClock<ContinuousClock>.seconds($0.duration(to: $1)) }
        #expect(times.count >= 3, "\(target.url) polled \(times.count) times in 3.5 s")
        #expect(gaps.allSatisfy { $0 >= 0.9 && $0 <= 1.5 }, "\(target.url) gaps \(gaps)")
      }
    }
  }
}
