import Foundation
import StatlineCore

/// Wraps any fetcher in Statline's manners (DESIGN.md §3): robots.txt, a circuit breaker per
/// host, per-host concurrency and spacing, retries with backoff that honour `Retry-After`, and
/// single-flight for identical concurrent requests. A wall or challenge is never retried: it
/// counts against the breaker and is returned for the caller to report as blocked (the
/// poller does, and captures it).
public struct PoliteFetcher<C: Clock>: Fetcher where C.Duration == Duration {
  public struct Configuration: Sendable {
    /// Names Statline to the sites (and picks its robots.txt group).
    public var userAgent: String = "Statline/0.1 (+https://github.com/statline/statline; sports stats watcher)"
    public var obeyRobots = true
    public var retry = RetryPolicy.default
    public var breaker = CircuitBreaker<C>.Configuration()
    public var hostLimits = HostLimits()
    /// Stricter limits for some hosts; stats.ncaa.org deny-lists fast clients.
    public var hostOverrides: [String: HostLimits] = [
      "stats.ncaa.org": HostLimits(concurrency: 1, spacing: .seconds(5))
    ]
    public init() {}
  }

  private let inner: any Fetcher
  let clock: C
  private let configuration: Configuration
  private let random: @Sendable () -> Double
  private let now: @Sendable () -> Date
  public let breaker: CircuitBreaker<C>
  private let gate: HostGate<C>
  private let robots = RobotsCache()
  private let flights = SingleFlight<FetchRequest, Page>()

  /// - Parameters:
  ///   - random: a number in 0..<1 for jitter (inject a fixed one in tests).
  ///   - now: wall time, only to read `Retry-After` HTTP-dates.
  public init(
    wrapping inner: any Fetcher, clock: C, configuration: Configuration = Configuration(),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    now: @escaping @Sendable () -> Date = { Date() }
  ) {
    self.inner = inner
    self.clock = clock
    self.configuration = configuration
    self.random = random
    self.now = now
    self.breaker = CircuitBreaker(clock: clock, configuration: configuration.breaker)
    self.gate = HostGate(clock: clock, defaults: configuration.hostLimits, overrides: configuration.hostOverrides)
  }

  public func fetch(_ request: FetchRequest) async throws -> Page {
    var request = request
    request.headers["User-Agent"] = request.headers["User-Agent"] ?? configuration.userAgent
    let identical = request
    return try await flights.run(identical) { try await self.fetchPolitely(identical) }
  }

  private func fetchPolitely(_ request: FetchRequest) async throws -> Page {
    let host = request.host
    if configuration.obeyRobots { try await checkRobots(request) }
    var attempt = 0
    while true {
      switch breaker.permit(host) {
      case .allowed, .probe: break
      case .rejected(let until):
        throw StatlineError(
          .blocked, "the circuit for \(host) is open after repeated failures", location: request.url,
          context: until.map { "retry after \(clock.now.duration(to: $0))" },
          hint: "the host is cooling down; the scheduler backs off")
      }
      let page: Page
      do {
        page = try await gate.withSlot(host) { try await inner.fetch(request) }
      } catch {
        breaker.record(host, success: false)
        attempt += 1
        // A size limit or a corrupt body does not get better on retry.
        let final = (error as? StatlineError).map { [.unsafeDocument, .undecodable].contains($0.kind) } ?? false
        guard attempt <= configuration.retry.maxRetries, !final else { throw error }
        try await clock.sleep(for: configuration.retry.delay(attempt: attempt, unit: random()))
        continue
      }
      if request.absentStatuses.contains(page.status) {
        breaker.record(host, success: true)
        return page
      }
      if configuration.retry.shouldRetry(status: page.status, attempt: attempt + 1) {
        breaker.record(host, success: false)
        attempt += 1
        let retryAfter = RetryPolicy.retryAfter(page.header("retry-after"), now: now())
        try await clock.sleep(for: configuration.retry.delay(attempt: attempt, unit: random(), retryAfter: retryAfter))
        continue
      }
      if page.status != 304, let refusal = BlockDetector.check(page, site: request.check?.check),
        refusal.kind == .blocked
      {
        // Counted against the host, and handed back so the caller reports it and keeps the
        // page as evidence (a capture); never retried, never parsed.
        breaker.record(host, success: false)
        return page
      }
      // A 404 or a page the parser rejects is not the host failing.
      breaker.record(host, success: page.status < 500)
      return page
    }
  }

  private func checkRobots(_ request: FetchRequest) async throws {
    let userAgent = configuration.userAgent
    let rules = await robots.rules(for: request.url) { robotsRequest in
      var named = robotsRequest
      named.headers["User-Agent"] = userAgent
      let signed = named
      return try await gate.withSlot(signed.host) { try await inner.fetch(signed) }
    }
    switch rules {
    case .allowAll: return
    case .disallowAll(let reason):
      throw StatlineError(
        .blocked, "robots.txt could not be read, so the site is off limits for now", location: request.url,
        context: reason, hint: "Statline retries robots.txt later; set obeyRobots: false only with the site's consent")
    case .file(let robots):
      guard robots.isAllowed(RobotsCache.pathAndQuery(request.url), userAgent: userAgent) else {
        throw StatlineError(
          .blocked, "robots.txt disallows this URL for \(RobotsTxt.productToken(userAgent))", location: request.url,
          hint: "Statline obeys robots.txt; ask the site, or configure obeyRobots: false if you have its consent")
      }
    }
  }
}

extension PoliteFetcher {
  /// The breaker state of `host`, with wall times for an open circuit's end.
  public func health(_ host: String, at date: Date) async -> HostHealth {
    let now = clock.now
    switch breaker.state(host) {
    case .closed(let failures):
      return HostHealth(host: host, breaker: .closed, failures: failures, openUntil: nil, updated: date)
    case .halfOpen:
      return HostHealth(host: host, breaker: .halfOpen, failures: 0, openUntil: nil, updated: date)
    case .open(let until):
      let seconds = JobClock<C>.seconds(now.duration(to: until))
      return HostHealth(
        host: host, breaker: .open, failures: 0, openUntil: date.addingTimeInterval(seconds), updated: date)
    }
  }
}
