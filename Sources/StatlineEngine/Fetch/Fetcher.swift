import StatlineCore

/// Gets pages. The HTTP fetcher talks to sites; the replay fetcher serves saved pages; the
/// politeness layer wraps either. Errors are `StatlineError`s.
public protocol Fetcher: Sendable {
  func fetch(_ request: FetchRequest) async throws -> Page
}

/// What to fetch, and what the fetcher should send with it.
public struct FetchRequest: Sendable, Hashable {
  public var url: String
  /// Extra request headers (per-source `Referer`, for example).
  public var headers: [String: String]
  /// The last `ETag` seen, sent back as `If-None-Match`.
  public var etag: String?
  /// The last `Last-Modified` seen, sent back as `If-Modified-Since`.
  public var lastModified: String?
  /// Statuses that mean "not there yet" for this page: returned as pages, never counted
  /// against the host (see `ParserEntry.absentStatuses`).
  public var absentStatuses: Set<Int> = []
  /// The parser's own reading of a refusal (a login page served with 200): a page it calls
  /// blocked counts against the host like a wall would.
  public var check: PageCheck?
  /// Hosts (or sites) beyond the target's own site that a redirect may lead to
  /// (`sources.NAME.redirectHosts`; see `RedirectRules`).
  public var redirectHosts: Set<String> = []
  /// A smaller cap on the body than the fetcher's own (a logo's `logos.maxBytes`); nil: the
  /// fetcher's.
  public var maximumBytes: Int?

  public init(url: String, headers: [String: String] = [:], etag: String? = nil, lastModified: String? = nil) {
    self.url = url
    self.headers = headers
    self.etag = etag
    self.lastModified = lastModified
  }

  /// The host part of the URL, lower-cased: the unit of politeness.
  public var host: String { Self.host(of: url) }

  public static func host(of url: String) -> String {
    guard let scheme = url.range(of: "://") else { return "" }
    let rest = url[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    let withoutUser = authority.split(separator: "@").last.map(String.init) ?? String(authority)
    let withoutPort = withoutUser.hasPrefix("[") ? withoutUser : String(withoutUser.prefix { $0 != ":" })
    return withoutPort.lowercased()
  }
}

/// A parser's check for answers that are no content (`ParserEntry.check`), named so that
/// requests stay hashable (single-flight shares identical requests).
public struct PageCheck: Sendable, Hashable {
  public let name: String
  public let check: @Sendable (Page) -> StatlineError?

  public init(name: String, check: @escaping @Sendable (Page) -> StatlineError?) {
    self.name = name
    self.check = check
  }

  public static func == (lhs: PageCheck, rhs: PageCheck) -> Bool { lhs.name == rhs.name }
  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}
