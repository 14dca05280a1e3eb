import Foundation
import StatlineCore

/// A bound a host's robots.txt reached.
public enum RobotsBound: Sendable, Equatable {
  /// The file was longer than `maxBytes` (its size): only its head was read.
  case fileCut(origin: String, bytes: Int)
  /// Rules past `RobotsTxt.maxRules` or `maxPattern`, left out.
  case rulesIgnored(origin: String, count: Int)
  /// Matching a URL would cost more than `RobotsTxt.matchBudget`: the URL was refused.
  case tooCostly(origin: String)

  public var name: String {
    switch self {
    case .fileCut: "fileCut"
    case .rulesIgnored: "rulesIgnored"
    case .tooCostly: "tooCostly"
    }
  }

  public var origin: String {
    switch self {
    case .fileCut(let origin, _), .rulesIgnored(let origin, _), .tooCostly(let origin): origin
    }
  }
}

/// robots.txt per origin (scheme, host and port: each has its own file), fetched when first
/// needed and obeyed as RFC 9309 says:
/// - a 2xx file is kept for a day (§2.4: a cached copy is good for at most 24 hours), then read
///   again;
/// - a 4xx answer means no rules, for a day too;
/// - a 5xx answer or an unreachable file means stay out (§2.3.1.3), and it is asked again on a
///   backoff (1 minute, doubling to an hour); a good file read before stays in force meanwhile
///   (§2.4: a cached copy may be used while the file is unreachable).
/// A file is read up to 500 KiB (§2.5), and `RobotsTxt` bounds its rules and what matching a
/// URL may cost; each bound a file hits is told to `onBound` (the job counts them in
/// `/metrics` and logs them, naming the origin).
public final class RobotsCache<C: Clock>: Sendable where C.Duration == Duration {
  public enum Rules: Sendable, Equatable {
    case allowAll
    case disallowAll(reason: String)
    case file(RobotsTxt)
  }

  /// What an origin's last load gave, until when it holds, and the last good file.
  struct Entry: Sendable {
    var rules: Rules
    var until: C.Instant
    var good: RobotsTxt?
    var failures: Int
  }

  /// One load per origin, shared by every request that asks while it is under way: without it
  /// concurrent first requests would each fetch the file. Loaded rules are read under the lock
  /// without suspending: this sits on every fetch.
  private struct State {
    var loads: [String: Task<Rules, Never>] = [:]
    var entries: [String: Entry] = [:]
  }

  private let state = Locked(State())
  private let clock: C
  private let userAgent: String
  private let onBound: @Sendable (RobotsBound) -> Void

  /// How long a file (or a 4xx answer) is trusted.
  public static var freshFor: Duration { .seconds(24 * 3600) }
  /// The first wait after a failed read, doubled after each further failure up to `longestRetry`.
  public static var firstRetry: Duration { .seconds(60) }
  public static var longestRetry: Duration { .seconds(3600) }
  /// How much of a file is read (RFC 9309 §2.5: at least 500 KiB).
  public static var maxBytes: Int { 500 * 1024 }

  /// - Parameters:
  ///   - userAgent: the agent whose rules each file is prepared for (chosen and ordered once)
  ///     and `verdict` judges for (empty: the `*` group's).
  ///   - onBound: told of each bound a file hits.
  public init(clock: C, userAgent: String = "", onBound: @escaping @Sendable (RobotsBound) -> Void = { _ in }) {
    self.clock = clock
    self.userAgent = userAgent
    self.onBound = onBound
  }

  /// What the rules for `url`'s origin say of it for the cache's agent: a `tooCostly` match is
  /// told to `onBound`.
  public func verdict(
    for url: String, fetch: @escaping @Sendable (FetchRequest) async throws -> Page
  )
    async -> (rules: Rules, verdict: RobotsTxt.Verdict)
  {
    let rules = await rules(for: url, fetch: fetch)
    switch rules {
    case .allowAll: return (rules, .allowed)
    case .disallowAll: return (rules, .disallowed)
    case .file(let file):
      let verdict = file.verdict(RobotsURL.pathAndQuery(url), userAgent: userAgent)
      if verdict == .tooCostly { onBound(.tooCostly(origin: RobotsURL.origin(url))) }
      return (rules, verdict)
    }
  }

  /// The rules for `url`'s origin, fetching `/robots.txt` with `fetch` when none are held or
  /// they are due to be read again.
  public func rules(for url: String, fetch: @escaping @Sendable (FetchRequest) async throws -> Page) async -> Rules {
    let origin = RobotsURL.origin(url)
    let now = clock.now
    let held = state.withLock { state -> Rules? in
      guard let entry = state.entries[origin], now < entry.until else { return nil }
      return entry.rules
    }
    if let held { return held }
    let robotsURL = RobotsURL.robotsURL(for: url)
    let task = state.withLock { state -> Task<Rules, Never> in
      if let load = state.loads[origin] { return load }
      let load = Task { await self.load(origin: origin, robotsURL, fetch: fetch) }
      state.loads[origin] = load
      return load
    }
    return await task.value
  }

  private func load(origin: String, _ robotsURL: String, fetch: @Sendable (FetchRequest) async throws -> Page) async
    -> Rules
  {
    let answer = await Self.read(robotsURL, userAgent: userAgent, fetch: fetch)
    if case .success(let read) = answer {
      if let bytes = read.cutFrom { onBound(.fileCut(origin: origin, bytes: bytes)) }
      if case .file(let file) = read.rules, file.ignoredRules > 0 {
        onBound(.rulesIgnored(origin: origin, count: file.ignoredRules))
      }
    }
    let now = clock.now
    return state.withLock { state in
      state.loads[origin] = nil
      let previous = state.entries[origin]
      var entry: Entry
      switch answer {
      case .success(let read):
        let rules = read.rules
        var good: RobotsTxt?
        if case .file(let file) = rules { good = file }
        entry = Entry(rules: rules, until: now.advanced(by: Self.freshFor), good: good, failures: 0)
      case .failure(let reason):
        let failures = (previous?.failures ?? 0) + 1
        let wait = min(Self.firstRetry * (1 << min(failures - 1, 16)), Self.longestRetry)
        let rules: Rules = previous?.good.map(Rules.file) ?? .disallowAll(reason: reason.text)
        entry = Entry(rules: rules, until: now.advanced(by: wait), good: previous?.good, failures: failures)
      }
      state.entries[origin] = entry
      return entry.rules
    }
  }

  struct Unreadable: Error {
    var text: String
  }

  /// A file's rules as read, and its size when it was cut at `maxBytes`.
  struct Read {
    var rules: Rules
    var cutFrom: Int?
  }

  /// The file's rules (prepared for `userAgent`), or why it could not be read (a 5xx or no
  /// answer).
  static func read(_ robotsURL: String, userAgent: String, fetch: @Sendable (FetchRequest) async throws -> Page)
    async -> Result<Read, Unreadable>
  {
    do {
      let page = try await fetch(FetchRequest(url: robotsURL))
      switch page.status {
      case 200..<300:
        let file = RobotsTxt(Self.readable(page.body)).prepared(for: userAgent)
        return .success(Read(rules: .file(file), cutFrom: page.body.count > maxBytes ? page.body.count : nil))
      case 400..<500: return .success(Read(rules: .allowAll))
      default: return .failure(Unreadable(text: "\(robotsURL) answered HTTP \(page.status)"))
      }
    } catch {
      return .failure(Unreadable(text: "\(robotsURL) could not be fetched: \(error)"))
    }
  }

  /// The first `maxBytes` of a file, cut at the last line break before them.
  static func readable(_ body: Data) -> String {
    guard body.count > maxBytes else { return String(decoding: body, as: UTF8.self) }
    let head = body.prefix(maxBytes)
    let end = head.lastIndex(of: UInt8(ascii: "\n")).map { head.index(after: $0) } ?? head.endIndex
    return String(decoding: head[..<end], as: UTF8.self)
  }
}

/// How robots.txt rules see a URL (the same for every clock).
public enum RobotsURL {
  static func robotsURL(for url: String) -> String {
    guard let scheme = url.range(of: "://") else { return url }
    let rest = url[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    return "\(url[..<scheme.upperBound])\(authority)/robots.txt"
  }

  /// `scheme://authority` of a URL, lower case: whose robots.txt applies (a port is its own origin).
  public static func origin(_ url: String) -> String {
    let robots = robotsURL(for: url)
    let origin = robots.hasSuffix("/robots.txt") ? String(robots.dropLast("/robots.txt".count)) : robots
    return origin.lowercased()
  }

  /// The path and query of a URL, as robots.txt rules see it.
  public static func pathAndQuery(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return "/" }
    let rest = url[scheme.upperBound...]
    guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
    let path = String(rest[slash...].prefix { $0 != "#" })
    return path.hasPrefix("/") ? path : "/" + path
  }
}
