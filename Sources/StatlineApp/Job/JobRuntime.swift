import Foundation
import Logging
import StatlineCanonical
import StatlineCommit
import StatlineCore
import StatlineEngine
import StatlineEvents
import StatlinePush

/// Everything the scrape job runs on, built from a configuration: the registry, the store
/// (a SQLite file or PostgreSQL), the HTTP fetcher inside the politeness layer, the scheduler and the event delivery.
/// `run`, `once` and `demo` all build exactly this, with their own clock. A downstream package
/// adds its own sinks (an APNs sender) with `extraSinks`; they are delivered like the configured ones.
public struct JobRuntime<C: Clock>: Sendable where C.Duration == Duration {
  public let config: JobConfig
  public let registry: SourceRegistry
  public let store: any JobStore
  let opened: OpenStore
  public let http: HTTPFetcher
  public let polite: PoliteFetcher<C>
  public let scheduler: Scheduler<C>
  public let targets: [Target]
  public let clock: JobClock<C>
  /// Delivers the store's change events to the configured sinks, beside the scheduler.
  public let delivery: EventDelivery<C>
  /// This worker, when the store is shared (PostgreSQL).
  public let cluster: ClusterMembership?
  /// The push evaluator and senders, when `push:` is configured.
  public let push: JobPush<C>?
  /// The team logos' keeper, when `logos.enabled`.
  public let logos: LogoKeeper<C>?
  let webhooks: HTTPClientHandle?

  public init(
    config: JobConfig, storePath: String? = nil, workerId: String? = nil, clock: C, start: Date = Date(),
    environment: [String: String] = ProcessInfo.processInfo.environment, derivesEvents: Bool = true,
    merges: Bool = true, mergeMeter: CPUMeter? = nil,
    extraSinks: [any EventSink] = [], report: @escaping @Sendable (JobEvent) -> Void,
    pushReport: @escaping @Sendable (PushDispatcher.Report) -> Void = { _ in }
  ) async throws(StatlineError) {
    self.config = config
    registry = try BuiltinPlugins.registry(config.pluginSettings)
    targets = try config.resolvedTargets(registry)
    let location = try StoreLocation(storePath ?? config.store, environment: environment)
    let jobClock = JobClock(clock: clock, start: start)
    self.clock = jobClock
    // Sinks first: a sink that cannot be built (a missing secret) fails start-up before any
    // fetcher exists, and only the webhooks' unused client is left to close.
    let webhooks = config.sinks.contains { $0.kind == .webhook } ? HTTPClientHandle() : nil
    self.webhooks = webhooks
    let sinks: [any EventSink]
    do {
      sinks = try EventSinks.build(
        config.sinks, client: webhooks?.client, environment: environment, userAgent: config.politeness.userAgent,
        now: jobClock.now)
    } catch {
      webhooks?.shutdownNow()
      throw error
    }
    let teams: TeamRegistry
    do {
      teams = try TeamRegistry.seeded(aliases: config.teamAliases, teamIds: registry.facts.teamIds)
      let merger = GameMerger(
        feeds: SourceFeeds(registry: registry), precedence: config.mergePrecedence, registry: teams)
      let canonical = CanonicalStep(merger: merger, merges: merges, meter: mergeMeter)
      opened = try await location.open(
        planner: CommitPlanner(canonical: canonical, derivesEvents: derivesEvents), job: true)
    } catch {
      await webhooks?.shutdown()
      throw error
    }
    let store = opened.store
    self.store = store
    http = HTTPFetcher(configuration: config.http, now: jobClock.now)
    var politeness = PoliteFetcher<C>.Configuration()
    politeness.userAgent = config.politeness.userAgent
    politeness.obeyRobots = config.politeness.obeyRobots
    politeness.retry = config.politeness.retry
    politeness.breaker.threshold = config.politeness.breaker.threshold
    politeness.breaker.cooldown = config.politeness.breaker.cooldown
    politeness.hostLimits = config.politeness.hostLimits
    politeness.hostOverrides = config.politeness.hostOverrides
    politeness.redirects = config.politeness.redirects
    politeness.robotsBound = { bound in report(.robotsBound(bound)) }
    // On a store N workers share, this job is one of them: it claims targets into leases, and
    // its politeness (host slots, breaker, Retry-After, robots.txt) and event delivery (a lease
    // per sink) are the cluster's.
    var cluster: ClusterMembership?
    if let shared = store as? any ClusterStore {
      var membership = ClusterMembership(
        store: shared, worker: WorkerInfo.this(id: workerId ?? config.cluster.workerId, at: jobClock.now()))
      membership.leaseDuration = config.cluster.lease
      membership.claimEvery = config.cluster.claimEvery
      membership.renewEvery = config.cluster.renewEvery
      cluster = membership
    }
    self.cluster = cluster
    let manners = (store as? any HostLedger).flatMap { ledger in
      cluster.map { SharedManners(ledger: ledger, holder: $0.worker.id) }
    }
    let polite = PoliteFetcher(
      wrapping: http, clock: clock, configuration: politeness, now: jobClock.now, shared: manners)
    self.polite = polite
    var schedule = Scheduler<C>.Configuration()
    schedule.maxConcurrentPolls = config.maxConcurrentPolls
    schedule.defaultPolicy = config.policy
    schedule.policies = config.sources.compactMapValues(\.policy)
    schedule.sports = config.sports
    schedule.maxTargetsPerPage = config.maxTargetsPerPage
    schedule.summaryEvery = config.summaryEvery
    schedule.executor = opened.executor
    let poller = Poller(
      fetcher: polite, registry: registry,
      captures: BoundedCaptures(store, maxPageBytes: config.capturesMaxPageBytes),
      headers: config.sources.mapValues(\.headers),
      redirectHosts: config.sources.mapValues(\.redirectHosts))
    // In a cluster the shared breaker writes the hosts table itself; one worker's view must
    // not overwrite it.
    var health: (@Sendable (String, Date) async -> HostHealth)?
    if manners == nil { health = { @Sendable host, date in await polite.health(host, at: date) } }
    scheduler = Scheduler(
      store: store, poller: poller, clock: jobClock, configuration: schedule, health: health, cluster: cluster,
      report: report)
    var sinkLease: EventDelivery<C>.SinkLease?
    if let leases = store as? any SinkLeases, let cluster {
      sinkLease = EventDelivery<C>.SinkLease(leases: leases, holder: cluster.worker.id)
    }
    var deliveryConfiguration = EventDelivery<C>.Configuration()
    for spec in config.sinks {
      deliveryConfiguration.sinkRetry[spec.name] = spec.retry
    }
    delivery = EventDelivery(
      log: store, sinks: sinks + extraSinks, clock: clock, configuration: deliveryConfiguration,
      logger: Logger(label: "statline.events"), now: jobClock.now,
      lease: sinkLease)
    logos = JobLogos.keeper(
      config.logos, store: store, fetcher: polite, registry: teams, clock: clock, now: jobClock.now, cluster: cluster)
    let opened = opened
    push = try await Self.push(
      config.push, location: location, log: store, liveCadence: config.policy.live, clock: clock, now: jobClock.now,
      report: pushReport
    ) {
      await webhooks?.shutdown()
      await opened.close()
    }
  }

  /// The push path when `push:` is configured; `cleanup` runs before a failure is thrown.
  static func push(
    _ settings: PushSettings?, location: StoreLocation, log: any EventLog & StoreReader, liveCadence: Duration,
    clock: C,
    now: @escaping @Sendable () -> Date, report: @escaping @Sendable (PushDispatcher.Report) -> Void,
    cleanup: () async -> Void
  ) async throws(StatlineError) -> JobPush<C>? {
    guard let settings else { return nil }
    do {
      return try await JobPush.build(
        settings, location: location, log: log, liveCadence: liveCadence, clock: clock, now: now, report: report)
    } catch {
      await cleanup()
      throw error
    }
  }

  /// Deletes captures beyond the configured count and age.
  public func pruneCaptures() async throws -> Int {
    let seconds = JobClock<C>.seconds(config.capturesMaxAge)
    return try await store.pruneCaptures(
      keep: config.capturesKeep, olderThan: clock.now().addingTimeInterval(-seconds), maxBytes: config.capturesMaxBytes)
  }

  public func shutdown() async {
    await push?.shutdown()
    try? await http.shutdown()
    await webhooks?.shutdown()
    await opened.close()
  }
}
