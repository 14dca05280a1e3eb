import Foundation
import StatlineCore

/// Wraps any fetcher in Statline's manners (architecture.md#a-poll): robots.txt, a circuit breaker per
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
    /// Stricter limits for some hosts: the plugins' (`SiteFacts.hostLimits`), with the
    /// configuration's on top (the job sets them).
    public var hostOverrides: [String: HostLimits] = [:]
    /// Which redirects are followed, and how many hops.
    public var redirects = RedirectRules()
    /// Told of each bound a host's robots.txt hits (`RobotsBound`): the job counts them.
    public var robotsBound: @Sendable (RobotsBound) -> Void = { _ in }
    public init() {}
  }

  private let inner: any Fetcher
  let clock: C
  private let configuration: Configuration
  private let random: @Sendable () -> Double
  private let now: @Sendable () -> Date
  public let breaker: CircuitBreaker<C>
  private let gate: HostGate<C>
  private let robots: RobotsCache<C>
  private let flights = SingleFlight<FetchRequest, Page>()
  /// The cluster's politeness, when this job is one worker of several (nil: this process alone).
  private let shared: SharedManners?

  /// - Parameters:
  ///   - random: a number in 0..<1 for jitter (inject a fixed one in tests).
  ///   - now: wall time, only to read `Retry-After` HTTP-dates.
  public init(
    wrapping inner: any Fetcher, clock: C, configuration: Configuration = Configuration(),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    now: @escaping @Sendable () -> Date = { Date() }, shared: SharedManners? = nil
  ) {
    self.shared = shared
    self.inner = inner
    self.clock = clock
    self.configuration = configuration
    self.random = random
    self.now = now
    self.breaker = CircuitBreaker(clock: clock, configuration: configuration.breaker)
    self.robots = RobotsCache(clock: clock, userAgent: configuration.userAgent, onBound: configuration.robotsBound)
    self.gate = HostGate(clock: clock, defaults: configuration.hostLimits, overrides: configuration.hostOverrides)
  }

  public func fetch(_ request: FetchRequest) async throws -> Page {
    var request = request
    request.headers["User-Agent"] = request.headers["User-Agent"] ?? configuration.userAgent
    let identical = request
    return try await flights.run(identical) {
      try await self.followingRedirects(identical) { hop in try await self.fetchPolitely(hop) }
    }
  }

  /// Fetches `request` with `fetch`, then each redirect the rules allow (every hop with its own
  /// host's robots.txt and politeness when `fetch` is `fetchPolitely`). The page keeps the
  /// target's URL, so the parser that was picked for it reads it; where the body came from is in
  /// its `x-statline-redirected-to` header (captures keep it).
  func followingRedirects(_ request: FetchRequest, _ fetch: (FetchRequest) async throws -> Page) async throws -> Page {
    let target = try WebAddress(request.url)
    var hop = request
    var address = target
    var visited = [target.url]
    while true {
      var page = try await fetch(hop)
      guard RedirectRules.statuses.contains(page.status) else {
        if hop.url != request.url {
          page.url = request.url
          page.headers[Self.redirectedHeader] = hop.url
        }
        return page
      }
      address = try configuration.redirects.next(
        after: page, from: address, target: target, allowedHosts: request.redirectHosts, visited: visited)
      visited.append(address.url)
      hop.url = address.url
      hop.headers = Self.headers(request.headers, from: target, to: address)
    }
  }

  /// The headers a request carries to a redirect's address: all of them on the origin (scheme,
  /// host and port) they were set for, and none of its credentials anywhere else, as browsers
  /// and curl do (a redirect to another host, even one of the same site, goes without them).
  static func headers(_ headers: [String: String], from target: WebAddress, to address: WebAddress) -> [String: String]
  {
    guard
      address.scheme != target.scheme || address.host.lowercased() != target.host.lowercased()
        || address.effectivePort != target.effectivePort
    else { return headers }
    return headers.filter { name, _ in !credentialHeaders.contains(name.lowercased()) }
  }

  /// Headers that carry credentials or a session.
  static var credentialHeaders: Set<String> { ["authorization", "proxy-authorization", "cookie"] }

  /// The response header that names the address a redirected page's body came from.
  public static var redirectedHeader: String { "x-statline-redirected-to" }

  private func fetchPolitely(_ request: FetchRequest) async throws -> Page {
    let host = request.host
    if configuration.obeyRobots { try await checkRobots(request) }
    var attempt = 0
    while true {
      switch breaker.permit(host) {
      case .allowed, .probe: break
      case .rejected(let until):
        throw StatlineError(
          .blocked, "\(Self.openCircuit) \(host) is open after repeated failures", location: request.url,
          context: until.map { "retry after \(clock.now.duration(to: $0))" },
          hint: "the host is cooling down; the scheduler backs off")
      }
      var page: Page
      var sharedFailures = 0
      do {
        (page, sharedFailures) = try await gate.withSlot(host) {
          try await sharedSlot(host, url: request.url) { failures in (try await inner.fetch(request), failures) }
        }
      } catch let error as StatlineError where error.kind == .blocked && error.reason.hasPrefix(Self.openCircuit) {
        throw error
      } catch {
        await recordShared(host, success: false, failures: sharedFailures)
        breaker.record(host, success: false)
        attempt += 1
        // A size limit, a corrupt body or an unusable address does not get better on retry.
        let final =
          (error as? StatlineError).map { [.unsafeDocument, .undecodable, .configuration].contains($0.kind) } ?? false
        guard attempt <= configuration.retry.maxRetries, !final else { throw error }
        try await clock.sleep(for: configuration.retry.delay(attempt: attempt, unit: random()))
        continue
      }
      if request.absentStatuses.contains(page.status) {
        await recordShared(host, success: true, failures: sharedFailures)
        breaker.record(host, success: true)
        return page
      }
      if configuration.retry.shouldRetry(status: page.status, attempt: attempt + 1) {
        await recordShared(host, success: false, failures: sharedFailures)
        breaker.record(host, success: false)
        attempt += 1
        let retryAfter = RetryPolicy.retryAfter(page.header("retry-after"), now: now())
        // A `Retry-After` is honoured up to the policy's cap, here and for the cluster alike: a
        // host that asks for ten years is asked again after the cap.
        let wait = configuration.retry.delay(attempt: attempt, unit: random(), retryAfter: retryAfter)
        if retryAfter != nil, let shared {
          // Every worker holds off the host, not only this one.
          try? await shared.ledger.pause(host: host, until: now().addingTimeInterval(JobClock<C>.seconds(wait)))
        }
        try await clock.sleep(for: wait)
        continue
      }
      if page.status != 304 { BlockDetector.scan(&page) }
      if page.status != 304, let refusal = BlockDetector.check(page, site: request.check?.check),
        refusal.kind == .blocked
      {
        // Counted against the host, and handed back so the caller reports it and keeps the
        // page as evidence (a capture); never retried, never parsed.
        await recordShared(host, success: false, failures: sharedFailures)
        breaker.record(host, success: false)
        return page
      }
      // A 404 or a page the parser rejects is not the host failing.
      await recordShared(host, success: page.status < 500, failures: sharedFailures)
      breaker.record(host, success: page.status < 500)
      return page
    }
  }

  private func checkRobots(_ request: FetchRequest) async throws {
    let userAgent = configuration.userAgent
    let (rules, verdict) = await robots.verdict(for: request.url) { robotsRequest in
      var named = robotsRequest
      named.headers["User-Agent"] = userAgent
      // RFC 9309: a robots.txt redirect is followed (by the same rules as a poll's).
      return try await followingRedirects(named) { hop in try await robotsFile(hop) }
    }
    switch (rules, verdict) {
    case (_, .allowed): return
    case (.disallowAll(let reason), _):
      throw StatlineError(
        .blocked, "robots.txt could not be read, so the site is off limits for now", location: request.url,
        context: reason, hint: "Statline retries robots.txt later; set obeyRobots: false only with the site's consent")
    case (_, .tooCostly):
      // The host whose file it is pays for it: its URL is refused, and no one else waits.
      throw StatlineError(
        .blocked,
        "robots.txt is too costly to match against this URL (more than \(RobotsTxt.matchBudget) comparisons), so it is off limits while the file is so",
        location: request.url,
        hint:
          "the file is read again within a day; ask the site to simplify it, or configure obeyRobots: false with its consent"
      )
    default:
      throw StatlineError(
        .blocked, "robots.txt disallows this URL for \(RobotsTxt.productToken(userAgent))", location: request.url,
        hint: "Statline obeys robots.txt; ask the site, or configure obeyRobots: false if you have its consent")
    }
  }

  /// One robots.txt answer, in the host's slot; in a cluster, one worker fetches a host's file
  /// and the others read the answer it kept.
  private func robotsFile(_ signed: FetchRequest) async throws -> Page {
    guard let shared else { return try await gate.withSlot(signed.host) { try await inner.fetch(signed) } }
    let origin = RobotsURL.origin(signed.url)
    let fresh = now().addingTimeInterval(-shared.robotsFreshFor)
    if let kept = try? await shared.ledger.robots(origin: origin, since: fresh) {
      return Page(url: signed.url, status: kept.status, headers: [:], body: kept.body, fetchedAt: kept.fetchedAt)
    }
    let page = try await gate.withSlot(signed.host) {
      try await sharedSlot(signed.host, url: signed.url) { _ in try await inner.fetch(signed) }
    }
    if page.status < 500 {
      try? await shared.ledger.keepRobots(
        SharedRobots(origin: origin, status: page.status, body: page.body, fetchedAt: now()))
    }
    return page
  }
}

extension PoliteFetcher {
  static var openCircuit: String { "the circuit for" }

  /// Runs `body` in one of the cluster's request slots on `host` (at once without `shared`):
  /// waits while the host is at its cluster-wide concurrency, starts no sooner than the slot's
  /// time, refuses while the shared breaker is open. `body` gets the shared failure count.
  func sharedSlot<T: Sendable>(_ host: String, url: String, _ body: (Int) async throws -> T) async throws -> T {
    guard let shared else { return try await body(0) }
    let limits = gate.limits(for: host)
    var slot: HostSlot
    while true {
      let at = now()
      slot = try await shared.ledger.reserve(
        host: host, concurrency: limits.concurrency, spacing: JobClock<C>.seconds(limits.spacing),
        holder: shared.holder, now: at, expiry: at.addingTimeInterval(JobClock<C>.seconds(shared.slotExpiry)))
      if slot.id != nil { break }
      // Full: no slot can start before the host's next start anyway (5 s on stats.ncaa.org).
      let wait = slot.start.timeIntervalSince(now())
      try await clock.sleep(for: max(shared.busyRetry, .milliseconds(Int64((wait * 1000).rounded(.up)))))
    }
    let granted = slot
    do {
      if let health = granted.breaker, health.breaker == .open, let until = health.openUntil, until > now() {
        throw StatlineError(
          .blocked, "\(Self.openCircuit) \(host) is open (shared by the cluster) after repeated failures",
          location: url, context: "retry after \(Int(until.timeIntervalSince(now()).rounded(.up))) s",
          hint: "the host is cooling down; the scheduler backs off")
      }
      let wait = granted.start.timeIntervalSince(now())
      if wait > 0 { try await clock.sleep(for: .milliseconds(Int64((wait * 1000).rounded(.up)))) }
      let result = try await body(granted.breaker?.failures ?? 0)
      try? await shared.ledger.finishLater(granted)
      return result
    } catch {
      try? await shared.ledger.finishLater(granted)
      throw error
    }
  }

  /// Counts an outcome against the cluster's breaker: every failure; a success only when the
  /// shared count was not already clean (so a healthy host costs no write).
  func recordShared(_ host: String, success: Bool, failures: Int) async {
    guard let shared, !success || failures > 0 else { return }
    let cooldown = JobClock<C>.seconds(configuration.breaker.cooldown)
    _ = try? await shared.ledger.recordOutcome(
      host: host, success: success, threshold: configuration.breaker.threshold, cooldown: cooldown, now: now())
  }

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
