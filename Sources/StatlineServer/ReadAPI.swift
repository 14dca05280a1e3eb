import Foundation
import StatlineCanonical
import StatlineCore

/// The read API (architecture.md#read-api) as a function from request to answer, over a `StoreReader`:
/// JSON of the normalized model, strong ETags (a hash of the answer), `If-None-Match` → 304,
/// `Cache-Control` by what the answer holds, `HEAD`, RFC 9457 problems for every error. Nothing
/// a client sends can make it write: it only ever reads.
public struct ReadAPI: Sendable {
  public struct Configuration: Sendable {
    /// The zone whose date `scoreboard` uses when none is given.
    public var timeZone = TimeZone(identifier: "America/New_York")!
    /// Answers holding a live game.
    public var liveCacheControl = "public, max-age=5, stale-while-revalidate=10, stale-if-error=60"
    /// Answers holding no live game (finals, schedules).
    public var settledCacheControl = "public, max-age=60, stale-while-revalidate=300, stale-if-error=86400"
    /// Delta sync and events.
    public var feedCacheControl = "public, max-age=1, stale-while-revalidate=5"
    /// `/readyz` answers 503 when no target has been polled successfully this recently (nil:
    /// the store answering is enough).
    public var readyWithin: Duration? = .seconds(2 * 3600)
    /// How long a read of the store's stamp is trusted: answers may lag the store by this much,
    /// and a busy job (a commit every few milliseconds) costs at most one recomputation of an
    /// answer per interval. Zero reads the stamp on every request.
    public var stampInterval: Duration = .zero
    /// Each sport's primary poll (`Ranking.poll`): a game's team line without a rank of its own
    /// gets the team's rank in that poll's week for the game (`TeamLine.rankSource` says which).
    public var primaryPolls: [Sport: String] = [:]
    /// How seasons are counted for `season=` and "this season" (the plugins' `SiteFacts.seasons`:
    /// stats.ncaa.org's August to July); the calendar year when no plugin says.
    public var seasons = SeasonRule.calendarYear
    /// The job's refused commits, when the job runs in this process (`run --serve`): while any
    /// stands, `/readyz` answers 503 and `/v1/status` lists them as trouble (a store that
    /// refuses writes cannot record that it does).
    public var commitHealth: CommitHealth?
    /// The store's devices and push outbox, for `/v1/status`'s `push` (nil: left out).
    public var push: (any DeviceRegistry & PushOutbox)?
    public var defaultLimit: Int64 = 100
    public var maximumLimit: Int64 = 1_000

    public init() {}

    /// What `statline serve`, `run --serve` and `demo` use: the stamp trusted for 250 ms.
    public static var served: Configuration {
      var configuration = Configuration()
      configuration.stampInterval = .milliseconds(250)
      return configuration
    }

    /// `served`, with each sport's primary poll.
    public static func served(primaryPolls: [Sport: String], seasons: SeasonRule? = nil) -> Configuration {
      var configuration = served
      configuration.primaryPolls = primaryPolls
      configuration.seasons = seasons ?? .calendarYear
      return configuration
    }
  }

  let reader: any StoreReader
  /// The schools the team answers are canonical by (architecture.md#canonical-games).
  let registry: TeamRegistry
  let configuration: Configuration
  let now: @Sendable () -> Date
  /// The monotonic clock the stamp's trust is timed by.
  let monotonic: @Sendable () -> ContinuousClock.Instant
  let cache = ResponseCache()
  /// First-launch bundles, each built once per store version.
  let bundles = BundleCache()
  /// What the cache served, for the event loop to send again while the stamp is trusted.
  let hot = HotAnswers()
  /// Served at `/metrics` (nil: not served), and where the server counts requests.
  public let metrics: ServerMetrics?

  public init(
    reader: any StoreReader, configuration: Configuration = Configuration(), metrics: ServerMetrics? = nil,
    registry: TeamRegistry = CanonicalStep.standard.merger.registry, now: @escaping @Sendable () -> Date = Date.init,
    monotonic: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
  ) {
    self.reader = reader
    self.registry = registry
    self.configuration = configuration
    self.metrics = metrics
    self.now = now
    self.monotonic = monotonic
  }

  public func respond(_ request: APIRequest) async -> APIResponse {
    do {
      return try await answer(request)
    } catch let problem as Problem {
      return problem.response(path: request.path)
    } catch {
      return Problem.storeUnavailable(error).response(path: request.path)
    }
  }

  func answer(_ request: APIRequest) async throws -> APIResponse {
    guard request.method == "GET" || request.method == "HEAD" else {
      return Problem.methodNotAllowed(path: request.path)
    }
    if request.path == "/" || request.path == "/index.html" {
      // For a person, whatever the browser accepts; `?date=` picks the scoreboard's day.
      let query = try APIQuery(request.query, allowed: ["date"])
      if let date = query["date"], !BatchValidator.isDate(date) {
        throw Problem.badParameter("date", date, expected: "a date YYYY-MM-DD")
      }
      return LivePage.response(head: request.method == "HEAD")
    }
    if request.path == "/metrics" {
      guard let metrics else { throw Problem.notFound("metrics are not enabled in this server") }
      let body = try await metrics.scrape(reader)
      return APIResponse(
        status: 200,
        headers: [
          "content-type": "text/plain; version=0.0.4; charset=utf-8", "cache-control": "no-store",
          "content-length": String(body.count),
        ], body: request.method == "HEAD" ? [] : body)
    }
    // An image, whatever the client accepts (an `<img>` asks for `image/*`): before the JSON check.
    let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map {
      String($0).removingPercentEncoding ?? String($0)
    }
    if let team = Self.logoTeam(segments) { return try await teamLogo(id: team, request: request) }
    if let accept = request.headers["accept"], !Self.acceptsJSON(accept) {
      throw Problem(
        title: "Not acceptable", status: 406,
        detail:
          "answers are application/json (errors application/problem+json); the request accepts '\(accept.prefix(80))'")
    }
    if segments == ["healthz"] {
      return Self.json(200, ["status": "ok"], cacheControl: "no-store")
    }
    if segments == ["openapi.json"] {
      return APIResponse(
        status: 200,
        headers: [
          "content-type": "application/json; charset=utf-8", "cache-control": configuration.settledCacheControl,
          "content-length": String(OpenAPIDocument.bytes.count),
        ], body: request.method == "HEAD" ? [] : OpenAPIDocument.bytes)
    }
    if segments == ["readyz"] {
      let version = try await reader.version()
      if let refused = configuration.commitHealth?.failures, !refused.isEmpty {
        let since = refused.values.map(\.since).min() ?? now()
        var problem = Problem(
          title: "Not ready", status: 503,
          detail:
            "the store refused the last commit of \(refused.count) target(s) since \(ISO8601DateFormatter().string(from: since)) (\(StatlineError.kindName(of: refused.values.first?.error ?? ""))): see the job's log and free the store"
        )
        problem.retryAfter = 30
        throw problem
      }
      if let window = configuration.readyWithin {
        let last = try await reader.lastSuccessfulPoll()
        let seconds = Double(window.components.seconds)
        guard let last, now().timeIntervalSince(last) <= seconds else {
          var problem = Problem(
            title: "Not ready", status: 503,
            detail: last.map {
              "the job's last successful poll was at \(ISO8601DateFormatter().string(from: $0)), more than \(Int(seconds)) s ago"
            } ?? "the job has not polled any target successfully yet")
          problem.retryAfter = 30
          throw problem
        }
      }
      return Self.json(200, ["status": "ready", "version": String(version)], cacheControl: "no-store")
    }
    if segments == ["v1", "status"] {
      // The operator's view moves with time (targets fall due): never cached.
      _ = try APIQuery(request.query, allowed: [])
      var answer = try await status()
      if request.method == "HEAD" { answer.body = [] }
      return answer
    }
    guard segments.first == "v1", let route = Route(segments.dropFirst()) else {
      throw Problem.notFound("no such endpoint: \(request.path.prefix(200))")
    }
    let stamp = try await currentStamp()
    let key = request.path + "?" + (request.query ?? "")
    var entry: ResponseCache.Entry
    if let cached = await cache.entry(key, stamp: stamp, now: now()) {
      entry = cached
    } else {
      entry = try await compute(route, query: request.query, stamp: stamp).prepared()
      await cache.store(entry, for: key, stamp: stamp)
    }
    let wantsGzip = Self.acceptsGzip(request.headers["accept-encoding"])
    if wantsGzip, !entry.gzipChecked {
      entry = entry.withGzip(minimumSize: Self.gzipMinimumSize)
      await cache.store(entry, for: key, stamp: stamp)
    }
    // While the stamp is trusted, the event loop answers this again by itself.
    if configuration.stampInterval > .zero, !hot.holds(key, stamp: stamp, gzip: wantsGzip) {
      hot.publish(
        HotAnswers.Answer(entry, route: Route.template(of: request.path), metrics: metrics), for: key, stamp: stamp)
    }
    // Each representation has its own strong ETag; a revalidation with either is answered.
    let gzip = wantsGzip && entry.gzipped != nil
    let plainTag = entry.etag
    let gzipTag = entry.gzipEtag
    let etag = gzip ? gzipTag : plainTag
    var headers = [
      "etag": etag, "cache-control": entry.cacheControl, "vary": "Accept-Encoding",
      "content-type": "application/json; charset=utf-8",
    ]
    if gzip { headers["content-encoding"] = "gzip" }
    if let match = request.headers["if-none-match"],
      Self.matches(match, etag: plainTag) || Self.matches(match, etag: gzipTag)
    {
      headers["content-type"] = nil
      headers["content-encoding"] = nil
      return APIResponse(status: 304, headers: headers)
    }
    let body = gzip ? entry.gzipped ?? entry.body : entry.body
    headers["content-length"] = String(body.count)
    return APIResponse(status: 200, headers: headers, body: request.method == "HEAD" ? [] : body)
  }

  /// The store's stamp, read again when the last read is older than `stampInterval`.
  func currentStamp() async throws -> StoreStamp {
    guard configuration.stampInterval > .zero else { return try await reader.stamp() }
    let instant = monotonic()
    if let recent = await cache.recentStamp(now: instant, within: configuration.stampInterval) { return recent }
    let stamp = try await reader.stamp()
    await cache.note(stamp, at: instant)
    hot.trust(stamp, until: instant + configuration.stampInterval)
    return stamp
  }

  /// Smaller answers go out as they are.
  static let gzipMinimumSize = 512

  /// `Accept-Encoding` lists gzip (or `*`) without `q=0`.
  static func acceptsGzip(_ header: String?) -> Bool {
    guard let header else { return false }
    return header.split(separator: ",").contains { item in
      let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
      guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { return false }
      let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
      return quality > 0
    }
  }

  static func acceptsJSON(_ accept: String) -> Bool {
    accepts(accept, anyOf: ["*/*", "application/*", "application/json", "application/problem+json"])
  }

  /// `Accept` lists one of `types` (parameters such as `q` are not weighed).
  static func accepts(_ accept: String, anyOf types: Set<String>) -> Bool {
    accept.split(separator: ",").contains { item in
      let type = item.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
      return types.contains(type)
    }
  }

  /// `If-None-Match`: `*`, or a list holding the ETag (weak or strong).
  static func matches(_ header: String, etag: String) -> Bool {
    var rest = header.utf8[...]
    while true {
      let end = rest.firstIndex(of: UInt8(ascii: ",")) ?? rest.endIndex
      var tag = rest[..<end]
      while let first = tag.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { tag.removeFirst() }
      while let last = tag.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { tag.removeLast() }
      if tag.elementsEqual("*".utf8) || tag.elementsEqual(etag.utf8)
        || (tag.starts(with: "W/".utf8) && tag.dropFirst(2).elementsEqual(etag.utf8))
      {
        return true
      }
      guard end < rest.endIndex else { return false }
      rest = rest[rest.index(after: end)...]
    }
  }

  static func json(_ status: Int, _ value: some Encodable, cacheControl: String) -> APIResponse {
    let body = Array((try? encoder.encode(value)) ?? Data())
    return APIResponse(
      status: status,
      headers: [
        "content-type": "application/json; charset=utf-8", "cache-control": cacheControl,
        "content-length": String(body.count),
      ], body: body)
  }

  static var encoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
