import Foundation
import StatlineCore

/// One poll of one target: fetch (conditionally), skip an unchanged page, parse → normalize →
/// validate a changed one, and capture a page that fails. Stores nothing itself: the scheduler
/// commits the result together with the target's new state.
public struct Poller: Sendable {
  public let fetcher: any Fetcher
  public let registry: SourceRegistry
  public let captures: (any CaptureLog)?
  /// Extra request headers per source id (`Referer`, for example).
  public let headers: [String: [String: String]]
  /// Hosts beyond a target's own site that its redirects may lead to, per source id.
  public let redirectHosts: [String: Set<String>]

  public init(
    fetcher: any Fetcher, registry: SourceRegistry, captures: (any CaptureLog)?,
    headers: [String: [String: String]] = [:], redirectHosts: [String: Set<String>] = [:]
  ) {
    self.fetcher = fetcher
    self.registry = registry
    self.captures = captures
    self.headers = headers
    self.redirectHosts = redirectHosts
  }

  /// What a poll found, before the schedule is updated.
  public struct Result: Sendable {
    public enum Kind: Sendable {
      case stored(ScreenedBatch, discovered: [DiscoveredTarget])
      case unchanged
      /// The page does not exist yet (an absent status of the parser).
      case absent
      case failed(StatlineError, blocked: Bool)
    }

    public var kind: Kind
    public var status: Int?
    public var etag: String?
    public var lastModified: String?
    public var bodyHash: UInt64?
    public var capture: Int64?
    /// What a delta protocol keeps for the next request.
    public var remembered: [String: String]?
    /// Requests made with what was remembered since the last full one (nil: no delta protocol).
    public var deltaPolls: Int?
    /// The record kinds to store from a stored batch (`ParserEntry.stores`; nil: all).
    public var stores: Set<StoreChange.Kind>?
    /// How long the fetch took (politeness waits included), by the job's clock; nil when no
    /// request was made.
    public var fetchDuration: Duration?
    /// When the site's answer (or the fetch's failure) came, by the job's clock; nil when no
    /// request was made. The next poll counts from here, not from when the result was stored.
    public var answeredAt: Date?
    /// A stored page's refused records and unread plays (its `Screening`): a partial
    /// poll, its page captured.
    public var partial: [String] = []
    /// The games of the page whose records were refused (`Screening.refusedGames`).
    public var refusedGames: [String] = []

    public init(
      kind: Kind, status: Int?, etag: String? = nil, lastModified: String? = nil, bodyHash: UInt64? = nil,
      capture: Int64? = nil, remembered: [String: String]? = nil
    ) {
      self.remembered = remembered
      self.kind = kind
      self.status = status
      self.etag = etag
      self.lastModified = lastModified
      self.bodyHash = bodyHash
      self.capture = capture
    }
  }

  public func poll(_ state: TargetState, now: @Sendable () -> Date) async -> Result {
    var fetched: (duration: Duration, at: Date)?
    var result = await poll(state, now: now, fetched: &fetched)
    result.fetchDuration = fetched?.duration
    result.answeredAt = fetched?.at
    return result
  }

  private func poll(_ state: TargetState, now: @Sendable () -> Date, fetched: inout (duration: Duration, at: Date)?)
    async -> Result
  {
    let target = state.target
    let entry = registry.parser(id: target.parser)
    let delta = entry?.delta
    let full = delta?.isFull(after: state.deltaPolls ?? 0, remembered: state.remembered) ?? true
    let url = delta.map { $0.request(target.url, full ? [:] : state.remembered ?? [:], now()) } ?? target.url
    let deltaPolls = delta == nil ? nil : full ? 0 : (state.deltaPolls ?? 0) + 1
    var request = FetchRequest(
      url: url, headers: headers[target.source] ?? [:], etag: state.etag, lastModified: state.lastModified)
    request.absentStatuses = entry?.absentStatuses ?? []
    request.redirectHosts = redirectHosts[target.source] ?? []
    if let entry, let check = entry.check { request.check = PageCheck(name: entry.id, check: check) }
    var page: Page
    let started = now()
    do {
      page = try await fetcher.fetch(request)
      fetched = Self.since(started, now())
    } catch {
      fetched = Self.since(started, now())
      let failure = StatlineError.wrapping(error, location: target.url)
      return Result(kind: .failed(failure, blocked: failure.kind == .blocked), status: nil)
    }
    if request.absentStatuses.contains(page.status) {
      return Result(kind: .absent, status: page.status)
    }
    let previous = Validators(etag: state.etag, lastModified: state.lastModified, bodyHash: state.bodyHash)
    if delta != nil, page.status == 204 || (page.status == 304 && page.body.isEmpty) {
      // The site's own delta protocol says nothing changed since what we remembered.
      var result = Result(
        kind: .unchanged, status: page.status, etag: state.etag, lastModified: state.lastModified,
        bodyHash: state.bodyHash, remembered: state.remembered)
      result.deltaPolls = deltaPolls
      return result
    }
    if page.status == 304, request.etag == nil, request.lastModified == nil {
      // A 304 answers a conditional request only: to one that named no version it says nothing
      // about the page, and counting it as unchanged would hide a site that never sends one.
      let failure = StatlineError(
        .network,
        "the site answered 304 Not Modified to a request that named no version (no ETag or Last-Modified "
          + "was known), which is a protocol error of the site", source: target.source, parser: target.parser,
        location: target.url, hint: "nothing was stored; the target is asked again with its backoff")
      return Result(kind: .failed(failure, blocked: false), status: page.status)
    }
    if page.status != 304 { BlockDetector.scan(&page) }
    if page.status != 304, let refusal = BlockDetector.check(page, site: entry?.check) {
      let failure = refusal.located(source: target.source, parser: target.parser, location: target.url)
      // A wall, a challenge or a login page is kept as evidence; an error status (a 500) or a
      // rate limit (429) is an answer, not a page.
      let evidence = failure.kind == .blocked && page.status != 429 && !page.isBlank
      let capture = evidence ? try? await captures?.capture(page, error: failure, at: now()) : nil
      return Result(kind: .failed(failure, blocked: failure.kind == .blocked), status: page.status, capture: capture)
    }
    switch ChangeDetector.classify(page, previous: previous) {
    case .unchanged(let validators):
      var result = Result(
        kind: .unchanged, status: page.status, etag: validators.etag, lastModified: validators.lastModified,
        bodyHash: validators.bodyHash)
      result.deltaPolls = deltaPolls
      return result
    case .changed(var page, let validators):
      if page.fetchedAt == nil { page.fetchedAt = now() }
      page.sport = target.sport
      guard let entry = registry.parser(id: target.parser) else {
        let failure = StatlineError(
          .noParser, "no parser \(target.parser) is registered", location: target.url,
          hint: "run `statline sources` for the parser ids of this build, and fix the configuration")
        return Result(kind: .failed(failure, blocked: false), status: page.status)
      }
      do {
        let (screening, discovered) = try PagePipeline.runScreened(page, with: entry)
        let batch = screening.screened.polled(at: target.url)
        var remembered: [String: String]?
        if let delta = entry.delta {
          remembered = Dictionary(delta.remember.compactMap { name in page.header(name).map { (name, $0) } }) { a, _ in
            a
          }
        }
        // Records refused or stored unread: the rest is stored, and the page is captured so that
        // `statline replay capture:ID` shows what was left out.
        let partial = screening.partial
        var capture: Int64?
        if !partial.isEmpty {
          let shown =
            partial.prefix(5).joined(separator: "; ") + (partial.count > 5 ? " (and \(partial.count - 5) more)" : "")
          let note = StatlineError(
            .partial, "\(partial.count) record(s) refused or stored unread: \(shown)", source: entry.source,
            parser: entry.id, location: target.url,
            hint: "replay the capture to see them; the rest of the page was stored")
          capture = try? await captures?.capture(page, error: note, at: now())
        }
        var result = Result(
          kind: .stored(batch, discovered: discovered), status: page.status,
          etag: validators.etag, lastModified: validators.lastModified, bodyHash: validators.bodyHash,
          capture: capture, remembered: remembered)
        result.stores = entry.stores
        result.deltaPolls = deltaPolls
        result.partial = partial
        result.refusedGames = screening.refusedGames
        return result
      } catch {
        // The validators stay as they were, so a fixed parser sees this page again.
        let capture = try? await captures?.capture(page, error: error, at: now())
        return Result(
          kind: .failed(error, blocked: error.kind == .blocked), status: page.status, etag: state.etag,
          lastModified: state.lastModified, bodyHash: state.bodyHash, capture: capture)
      }
    }
  }

  /// The fetch's duration from `started` to `end`, and its end.
  private static func since(_ started: Date, _ end: Date) -> (duration: Duration, at: Date) {
    (.milliseconds(Int64((end.timeIntervalSince(started) * 1000).rounded())), end)
  }
}

extension StatlineError {
  /// Any error as a `StatlineError`, keeping one that already is.
  public static func wrapping(_ error: any Error, location: String) -> StatlineError {
    if let error = error as? StatlineError { return error }
    return StatlineError(.network, "\(error)", location: location)
  }
}
