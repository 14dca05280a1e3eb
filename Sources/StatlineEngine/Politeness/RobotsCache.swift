import Foundation
import StatlineCore

/// robots.txt, fetched once per host and obeyed (RFC 9309: a 4xx answer means no rules, a 5xx
/// or unreachable file means stay out until it can be read).
public actor RobotsCache {
  public enum Rules: Sendable, Equatable {
    case allowAll
    case disallowAll(reason: String)
    case file(RobotsTxt)
  }

  /// One load per host, shared by every request that asks while it is under way: the actor
  /// suspends during the fetch, so without this concurrent first requests would each fetch it.
  private var loads: [String: Task<Rules, Never>] = [:]

  public init() {}

  /// The rules for `url`'s host, fetching `/robots.txt` with `fetch` the first time.
  public func rules(for url: String, fetch: @escaping @Sendable (FetchRequest) async throws -> Page) async -> Rules {
    let host = FetchRequest.host(of: url)
    if let load = loads[host] { return await load.value }
    let robotsURL = Self.robotsURL(for: url)
    let load = Task { await Self.load(robotsURL, fetch: fetch) }
    loads[host] = load
    return await load.value
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

  /// The path and query of a URL, as robots.txt rules see it.
  static func pathAndQuery(_ url: String) -> String {
    guard let scheme = url.range(of: "://") else { return "/" }
    let rest = url[scheme.upperBound...]
    guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
    let path = String(rest[slash...].prefix { $0 != "#" })
    return path.hasPrefix("/") ? path : "/" + path
  }
}
