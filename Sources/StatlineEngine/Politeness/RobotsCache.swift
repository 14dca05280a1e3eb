import Foundation
import StatlineCore

/// robots.txt, fetched once per host and obeyed (RFC 9309: a 4xx answer means no rules, a 5xx
/// or unreachable file means stay out until it can be read).
public final class RobotsCache: Sendable {
  public enum Rules: Sendable, Equatable {
    case allowAll
    case disallowAll(reason: String)
    case file(RobotsTxt)
  }

  /// One load per host, shared by every request that asks while it is under way: the actor
  /// suspends during the fetch, so without this concurrent first requests would each fetch it.
  /// Loaded rules are read under the lock without suspending: this sits on every fetch.
  private struct State {
    var loads: [String: Task<Rules, Never>] = [:]
    var loaded: [String: Rules] = [:]
  }

  private let state = Locked(State())

  public init() {}

  /// The rules for `url`'s host, fetching `/robots.txt` with `fetch` the first time.
  public func rules(for url: String, fetch: @escaping @Sendable (FetchRequest) async throws -> Page) async -> Rules {
    let host = FetchRequest.host(of: url)
    let robotsURL = Self.robotsURL(for: url)
    let known = state.withLock { state -> Result<Rules, Never>? in
      if let rules = state.loaded[host] { return .success(rules) }
      return nil
    }
    if case .success(let rules) = known { return rules }
    let load = state.withLock { state -> Task<Rules, Never> in
      if let load = state.loads[host] { return load }
      let load = Task { await Self.load(robotsURL, fetch: fetch) }
      state.loads[host] = load
      return load
    }
    let rules = await load.value
    state.withLock { $0.loaded[host] = rules }
    return rules
  }

  private static func load(_ robotsURL: String, fetch: @Sendable (FetchRequest) async throws -> Page) async -> Rules {
    do {
      let page = try await fetch(FetchRequest(url: robotsURL))
      switch page.status {
      case 200..<300: return .file(RobotsTxt(String(decoding: page.body, as: UTF8.self)))
      case 400..<500: return .allowAll
      default: return .disallowAll(reason: "\(robotsURL) answered HTTP \(page.status)")
      }
    } catch {
      return .disallowAll(reason: "\(robotsURL) could not be fetched: \(error)")
    }
  }

  static func robotsURL(for url: String) -> String {
    guard let scheme = url.range(of: "://") else { return url }
    let rest = url[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    return "\(url[..<scheme.upperBound])\(authority)/robots.txt"
  }

  /// `scheme://authority` of a URL: whose robots.txt applies.
  static func origin(_ url: String) -> String {
    let robots = robotsURL(for: url)
    return robots.hasSuffix("/robots.txt") ? String(robots.dropLast("/robots.txt".count)) : robots
  }

  /// The path and query of a URL, as robots.txt rules see it.
  static func pathAndQuery(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return "/" }
    let rest = url[scheme.upperBound...]
    guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
    let path = String(rest[slash...].prefix { $0 != "#" })
    return path.hasPrefix("/") ? path : "/" + path
  }
}
