import Foundation
import StatlineCore

/// The scrape job: polls due targets concurrently, commits each result with the target's new
/// state in one store transaction, and sleeps until the next target is due. Failed targets
/// never hold up the others; a restart resumes from the states in the store.
public struct Scheduler<C: Clock>: Sendable where C.Duration == Duration {
  public struct Configuration: Sendable {
    /// Polls in flight at once, across hosts (the politeness layer limits each host).
    public var maxConcurrentPolls = 32
    /// Per-source policies; others get `defaultPolicy`.
    public var policies: [String: SchedulingPolicy] = [:]
    public var defaultPolicy = SchedulingPolicy.default
    /// The sports whose games get game targets when a discovery page lists them (`sports:` in
    /// the configuration); nil: every sport a parser asks for.
    public var sports: Set<Sport>?
    /// The most targets one poll of a page creates (`maxTargetsPerPage`).
    public var maxTargetsPerPage = 1_000
    /// Targets that fell due while the job was down are spread over this window.
    public var restartSpread: Duration = .seconds(10)
    /// How often `run` reports a summary.
    public var summaryEvery: Duration = .seconds(60)
    /// How often the state of a target whose page keeps not changing is written anyway.
    public var persistUnchangedEvery: Duration = .seconds(300)
    /// Where the job's loop and its polls run (the store's event loop, so its round trips
    /// switch no threads); nil: the cooperative pool.
    public var executor: (any TaskExecutor)?
    public init() {}
  }

  let store: any ScheduleStore
  let poller: Poller
  let clock: JobClock<C>
  let configuration: Configuration
  let random: @Sendable () -> Double
  let health: (@Sendable (String, Date) async -> HostHealth)?
  let report: @Sendable (JobEvent) -> Void
  let counters = CounterBox()
  /// The commits the store refused, by target, until one is accepted (`/readyz`, `/v1/status`).
  public let commitHealth = CommitHealth()
  /// Set when this job is one worker of several sharing a `ClusterStore`: `run` then claims
  /// due targets into leases instead of keeping the whole schedule to itself.
  let cluster: ClusterMembership?

  /// - Parameters:
  ///   - health: the breaker state of a host, stored after each poll for `statline status`.
  ///   - report: receives every event; it must return quickly.
  public init(
    store: any ScheduleStore, poller: Poller, clock: JobClock<C>, configuration: Configuration = Configuration(),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    health: (@Sendable (String, Date) async -> HostHealth)? = nil, cluster: ClusterMembership? = nil,
    report: @escaping @Sendable (JobEvent) -> Void = { _ in }
  ) {
    self.cluster = cluster
    self.store = store
    self.poller = poller
    self.clock = clock
    self.configuration = configuration
    self.random = random
    self.health = health
    self.report = report
  }

  /// The counters since this scheduler was made.
  public var totals: JobCounters { counters.value }

  /// Loads the schedule from the store and adds (or retires) the configured targets.
  ///
  /// - Parameter spreadOverdue: stagger the targets that fell due while the job was down (a
  ///   restart of `run`); `once` polls them now instead, or cron's next run would find them all
  ///   pushed past its start and poll nothing, ever.
  public func load(configured: [Target], spreadOverdue: Bool = true) async throws -> ScheduleBook {
    var book = ScheduleBook(
      states: try await store.targets(), policies: configuration.policies,
      defaultPolicy: configuration.defaultPolicy, sports: configuration.sports)
    book.maxTargetsPerPage = configuration.maxTargetsPerPage
    let now = clock.now()
    let seeded = book.seed(configured, now: now)
    let spread = spreadOverdue ? book.spreadOverdue(now: now, window: configuration.restartSpread, unit: random) : []
    let changed = Dictionary((seeded + spread).map { ($0.id, $0) }) { _, last in last }
    if !changed.isEmpty {
      _ = try await store.commit(PollCommit(batch: nil, states: changed.values.sorted { $0.id < $1.id }))
    }
    return book
  }

  /// Polls every due target once (and the game targets they discover), then returns the
  /// reports: `statline once`.
  public func runOnce(configured: [Target]) async throws -> [PollReport] {
    var book = try await load(configured: configured, spreadOverdue: false)
    var reports: [PollReport] = []
    var polled: Set<String> = []
    while true {
      let due = book.due(at: clock.now()).filter { !polled.contains($0.id) }
      if due.isEmpty { break }
      try await withThrowingTaskGroup(of: (TargetState, Poller.Result).self) { group in
        var pending = due[...]
        var inFlight = 0
        while inFlight < configuration.maxConcurrentPolls, let state = pending.popFirst() {
          inFlight += 1
          polled.insert(state.id)
          group.addTask { (state, await poller.poll(state, now: clock.now)) }
        }
        while let (state, result) = try await group.next() {
          reports.append(await settle(result, of: state, in: &book))
          if let next = pending.popFirst() {
            polled.insert(next.id)
            group.addTask { (next, await poller.poll(next, now: clock.now)) }
          }
        }
      }
    }
    return reports
  }

  private enum Event: Sendable {
    case wake
    case summary
    case done(TargetState, Poller.Result)
  }

  /// Runs until cancelled. A cancelled poll stores nothing; a finished one is committed whole.
  public func run(configured: [Target]) async throws {
    try await withTaskExecutorPreference(configuration.executor) { try await runHere(configured: configured) }
  }

  private func runHere(configured: [Target]) async throws {
    if let cluster { return try await runInCluster(configured: configured, cluster) }
    var book = try await load(configured: configured)
    let (events, continuation) = AsyncStream<Event>.makeStream()
    let clock = self.clock
    // Discarding: polls report through the event stream, and a plain group would keep every
    // finished child until the group ends — memory that grows with each poll of a long run.
    await withDiscardingTaskGroup { group in
      group.addTask {
        while !Task.isCancelled {
          do { try await clock.clock.sleep(for: configuration.summaryEvery) } catch { return }
          continuation.yield(.summary)
        }
      }
      var busy: Set<String> = []
      var timer: Task<Void, Never>?
      var timerDue: Date?
      continuation.yield(.wake)
      for await event in events {
        switch event {
        case .wake: timerDue = nil
        case .summary: await reportSummary(book)
        case .done(let state, let result):
          busy.remove(state.id)
          _ = await settle(result, of: state, in: &book)
        }
        if Task.isCancelled { break }
        let now = clock.now()
        for state in book.takeDue(at: now, excluding: busy, limit: configuration.maxConcurrentPolls - busy.count) {
          busy.insert(state.id)
          group.addTask {
            let result = await poller.poll(state, now: clock.now)
            if !Task.isCancelled { continuation.yield(.done(state, result)) }
          }
        }
        if let next = book.nextDue(excluding: busy), next != timerDue {
          timer?.cancel()
          timerDue = next
          timer = Task {
            do { try await clock.sleep(until: next) } catch { return }
            continuation.yield(.wake)
          }
        }
      }
      timer?.cancel()
      continuation.finish()
      group.cancelAll()
    }
  }

  /// Applies a result, commits it and reports it; under a lease, commits through the fence and
  /// gives the lease back.
  func settle(_ result: Poller.Result, of polled: TargetState, in book: inout ScheduleBook, lease: Lease? = nil) async
    -> PollReport
  {
    let now = clock.now()
    let applied = book.apply(result, to: polled.id, now: now, unit: random)
    var (state, discovered) = (applied.state, applied.discovered)
    var commit = applied.commit
    var written = 0
    var events: [ChangeEvent.Kind: Int] = [:]
    var error: String?
    var commitRefused = false
    if case .failed(let failure, _) = result.kind { error = failure.description }
    // A routine unchanged poll (same validators, same outcome, nothing new) writes no state: its
    // state is persisted at most every `persistUnchangedEvery`, so an idle page costs little
    // store work. Only its success and next due time are touched (freshness reads them).
    let routine =
      state.outcome == .unchanged && polled.outcome == .unchanged && polled.etag == state.etag
      && polled.lastModified == state.lastModified && polled.bodyHash == state.bodyHash
      && polled.pollsSinceFinal == state.pollsSinceFinal && state.nextDue != nil
    let persistedRecently =
      book.persisted[state.id].map {
        now.timeIntervalSince($0) < JobClock<C>.seconds(configuration.persistUnchangedEvery)
      } ?? false
    if !(routine && persistedRecently) {
      if let health { commit.hosts = [await health(FetchRequest.host(of: state.target.url), now)] }
      do {
        if let lease, let cluster {
          if let write = try await cluster.store.commit(commit, lease: lease) {
            (written, events) = (write.written, write.events)
            book.persisted[state.id] = now
          } else {
            report(.storeFailed(target: state.id, error: ClusterMembership.leaseLost))
          }
        } else {
          let write = try await store.commit(commit)
          (written, events) = (write.written, write.events)
          book.persisted[state.id] = now
        }
        commitHealth.accepted(state.id)
      } catch let refusal {
        // Nothing of the poll was stored: it failed, in every count, and is fetched again.
        let text = "\(refusal)"
        report(.storeFailed(target: state.id, error: text))
        commitHealth.refused(state.id, error: text, at: now, lastSucceeded: polled.lastSucceeded)
        state = book.commitRefused(polled, error: text, now: now, unit: random)
        (error, discovered, commitRefused) = (text, 0, true)
      }
    } else if let succeeded = state.lastSucceeded {
      do {
        if let lease, let cluster {
          if try await !cluster.store.touch(state.id, succeededAt: succeeded, nextDue: state.nextDue, lease: lease) {
            report(.storeFailed(target: state.id, error: ClusterMembership.leaseLost))
          }
        } else {
          try await store.touch(state.id, succeededAt: succeeded, nextDue: state.nextDue)
        }
        commitHealth.accepted(state.id)
      } catch {
        report(.storeFailed(target: state.id, error: "\(error)"))
        commitHealth.refused(state.id, error: "\(error)", at: now, lastSucceeded: polled.lastSucceeded)
      }
    }
    let lagStart = polled.nextDue ?? now
    let stored = clock.now()
    let pollReport = PollReport(
      target: state.target, outcome: state.outcome, status: result.status, error: error, written: written,
      discovered: discovered, lag: .milliseconds(Int64(max(0, stored.timeIntervalSince(lagStart)) * 1000)),
      capture: result.capture, nextDue: state.nextDue, games: state.games, fetchDuration: result.fetchDuration,
      events: events, partial: commitRefused ? [] : result.partial, commitRefused: commitRefused,
      targetsLeft: commitRefused ? 0 : applied.left)
    counters.count(pollReport)
    report(.polled(pollReport))
    return pollReport
  }

  /// Reports the schedule's counts, the counters and the open breakers.
  func reportSummary(_ book: ScheduleBook) async {
    var summary = book.summary(at: clock.now())
    summary.counters = counters.value
    summary.openBreakers = await openBreakers(book)
    report(.summary(summary))
  }

  func openBreakers(_ book: ScheduleBook) async -> [String] {
    guard let health else { return [] }
    let hosts = Set(book.states.values.filter { !$0.isRetired }.map { FetchRequest.host(of: $0.target.url) })
    var open: [String] = []
    for host in hosts.sorted() where await health(host, clock.now()).breaker != .closed { open.append(host) }
    return open
  }
}

/// The job's counters, shared between the loop and readers.
final class CounterBox: @unchecked Sendable {
  private let lock = NSLock()
  private var counters = JobCounters()

  var value: JobCounters { lock.withLock { counters } }

  func count(_ report: PollReport) { lock.withLock { counters.count(report) } }
}
