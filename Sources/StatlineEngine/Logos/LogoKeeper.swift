import Crypto
import Foundation
import StatlineCore

/// Downloads the team logos the pages show and keeps them in the store (architecture.md#team-logos).
///
/// It runs beside the polls, never in them: a logo that cannot be fetched is recorded with the
/// reason and asked again later (after an hour, doubling up to a day), and nothing it does can
/// fail a poll. Every request goes through the job's fetcher, so robots.txt, the per-host
/// limits, the breaker and the User-Agent are the polls' own; a stored logo is asked again with
/// its validators (a conditional GET) once it is older than `refreshAfter`.
public struct LogoKeeper<C: Clock>: Sendable where C.Duration == Duration {
  public typealias Configuration = LogoKeeperConfiguration

  /// What came of asking for one logo.
  public enum Outcome: Sendable, Equatable {
    /// A new image was stored (its type and size).
    case downloaded(team: String, url: String, contentType: String, bytes: Int)
    /// The server said it had not changed (a 304), or sent the same bytes.
    case unchanged(team: String, url: String)
    /// It could not be fetched or is not a logo Statline serves; asked again at `retryAt`.
    case failed(team: String, url: String, reason: String, retryAt: Date)
  }

  let store: any LogoStore
  let fetcher: any Fetcher
  /// The logo URL of each canonical team the stored pages show one for.
  let wanted: @Sendable () async throws -> [String: String]
  let clock: C
  let now: @Sendable () -> Date
  let configuration: Configuration
  /// Whether this process may run a pass now (in a cluster, the one holding the keeper's lease).
  let mayRun: @Sendable () async throws -> Bool
  let report: @Sendable (Outcome) -> Void

  public init(
    store: any LogoStore, fetcher: any Fetcher, wanted: @escaping @Sendable () async throws -> [String: String],
    clock: C, now: @escaping @Sendable () -> Date, configuration: Configuration = Configuration(),
    mayRun: @escaping @Sendable () async throws -> Bool = { true },
    report: @escaping @Sendable (Outcome) -> Void = { _ in }
  ) {
    self.store = store
    self.fetcher = fetcher
    self.wanted = wanted
    self.clock = clock
    self.now = now
    self.configuration = configuration
    self.mayRun = mayRun
    self.report = report
  }

  /// Passes every `every` until cancelled; a pass that fails (the store away) is reported by
  /// `failure` and the next one tries again.
  public func run(failure: @escaping @Sendable (any Error) -> Void = { _ in }) async throws {
    while !Task.isCancelled {
      do {
        if try await mayRun() { _ = try await pass() }
      } catch is CancellationError {
        return
      } catch {
        failure(error)
      }
      try await clock.sleep(for: configuration.every)
    }
  }

  /// Asks for each logo that is due: new, moved to another URL, failed and due again, or older
  /// than `refreshAfter`. Only the store's errors are thrown; a fetch's are outcomes.
  public func pass() async throws -> [Outcome] {
    let wanted = try await wanted()
    let states = Dictionary(try await store.logoStates().map { ($0.teamId, $0) }) { first, _ in first }
    let time = now()
    let due = wanted.sorted { $0.key < $1.key }.filter { team, url in
      guard let state = states[team] else { return true }
      return state.sourceURL != url || time >= state.nextAttemptAt
    }
    var outcomes: [Outcome] = []
    for (team, url) in due.prefix(configuration.perPass) {
      try Task.checkCancellation()
      let outcome = try await ask(team: team, url: url, state: states[team])
      report(outcome)
      outcomes.append(outcome)
    }
    return outcomes
  }

  private func ask(team: String, url: String, state: LogoState?) async throws -> Outcome {
    var request = FetchRequest(
      url: url, headers: ["Accept": "image/png, image/svg+xml, image/webp, image/jpeg, image/gif;q=0.9, */*;q=0.1"])
    request.maximumBytes = configuration.maximumBytes
    let stored = state.flatMap { $0.sha256 != nil && $0.fetchedFrom == url ? $0 : nil }
    request.etag = stored?.etag
    request.lastModified = stored?.lastModified
    var next = state ?? LogoState(teamId: team, sourceURL: url, checkedAt: now(), nextAttemptAt: now())
    next.sourceURL = url
    let page: Page
    do {
      page = try await fetcher.fetch(request)
    } catch is CancellationError {
      throw CancellationError()
    } catch {
      let reason = (error as? StatlineError)?.reason ?? "\(error)"
      return try await failed(&next, reason: reason)
    }
    next.checkedAt = now()
    if page.status == 304, stored != nil {
      return try await unchanged(&next, page: page)
    }
    guard page.status == 200 else {
      return try await failed(&next, reason: "the server answered HTTP \(page.status)")
    }
    let contentType: String
    do {
      contentType = try LogoImage.contentType(of: page.body, url: url)
    } catch {
      return try await failed(&next, reason: error.reason)
    }
    let hash = SHA256.hash(data: page.body).map { String(format: "%02x", $0) }.joined()
    if hash == next.sha256, next.fetchedFrom == url {
      return try await unchanged(&next, page: page)
    }
    next.sha256 = hash
    next.contentType = contentType
    next.fetchedAt = next.checkedAt
    next.fetchedFrom = url
    validate(&next, page: page)
    try await store.saveLogo(next, image: page.body)
    return .downloaded(team: team, url: url, contentType: contentType, bytes: page.body.count)
  }

  private func unchanged(_ state: inout LogoState, page: Page) async throws -> Outcome {
    validate(&state, page: page)
    try await store.saveLogo(state, image: nil)
    return .unchanged(team: state.teamId, url: state.sourceURL)
  }

  /// Records a success's validators and when to ask again.
  private func validate(_ state: inout LogoState, page: Page) {
    state.etag = page.header("etag") ?? state.etag
    state.lastModified = page.header("last-modified") ?? state.lastModified
    state.failures = 0
    state.lastError = nil
    state.nextAttemptAt = state.checkedAt.addingTimeInterval(configuration.refreshAfter)
  }

  private func failed(_ state: inout LogoState, reason: String) async throws -> Outcome {
    state.checkedAt = now()
    state.failures += 1
    state.lastError = String(reason.prefix(300))
    let wait = min(
      configuration.retryAfter * pow(2, Double(min(state.failures - 1, 20))), configuration.maximumRetryAfter)
    state.nextAttemptAt = state.checkedAt.addingTimeInterval(wait)
    try await store.saveLogo(state, image: nil)
    return .failed(
      team: state.teamId, url: state.sourceURL, reason: state.lastError ?? reason, retryAt: state.nextAttemptAt)
  }
}

/// How the logo keeper works (`logos:` in the configuration).
public struct LogoKeeperConfiguration: Sendable, Equatable {
  /// How often the keeper looks for logos to ask.
  public var every: Duration = .seconds(600)
  /// A stored logo is asked again (conditionally) after this long.
  public var refreshAfter: TimeInterval = 7 * 86_400
  /// A failed download is asked again after this long, doubling with each failure in a row…
  public var retryAfter: TimeInterval = 3_600
  /// …up to this.
  public var maximumRetryAfter: TimeInterval = 86_400
  /// A larger logo is refused.
  public var maximumBytes = 1 << 20
  /// At most this many downloads a pass: a first pass over a new store is spread over passes.
  public var perPass = 50

  public init() {}

  /// A duration in seconds.
  public static func seconds(_ duration: Duration) -> TimeInterval {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
