import Foundation

/// An http(s) address checked before any HTTP client sees it: scheme `http` or `https`, a host,
/// a port in 1...65535 when one is given, no white space or control characters, and at most
/// `maximumLength` bytes. Credentials (`user:pass@`) are taken out of `url` and kept apart, so a
/// client is never handed them inside the address and no log line prints them.
///
/// Every address that comes from outside (a configured target, a sink, a `Location` header) is
/// made one of these first: a client given `http://h:99999/` traps (async-http-client converts
/// the port to 16 bits), and one answer must never stop the job.
public struct WebAddress: Sendable, Hashable, CustomStringConvertible {
  public static let maximumLength = 8192

  /// `http` or `https`, lower-cased.
  public let scheme: String
  /// Lower-cased; an IPv6 literal without its brackets.
  public let host: String
  /// The port written in the address, if any (1...65535).
  public let port: Int?
  /// The credentials written in the address, if any (percent-decoded).
  public let user: String?
  public let password: String?
  /// The address as written, without credentials: what a client is given and what may be shown.
  public let url: String

  /// - Throws: a `.configuration` error naming what is wrong, quoting at most 200 bytes of
  ///   `text` with any credentials hidden.
  public init(_ text: String) throws(StatlineError) {
    func refuse(_ reason: String) -> StatlineError {
      StatlineError(
        .configuration, "'\(Self.shown(text))' is not a usable address: \(reason)", location: Self.shown(text),
        hint: "write it like https://host/path (http or https, a port from 1 to 65535)")
    }
    guard text.utf8.count <= Self.maximumLength else {
      throw refuse("it is \(text.utf8.count) bytes long (at most \(Self.maximumLength))")
    }
    guard !text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
      throw refuse("it holds white space or a control character")
    }
    guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
      throw refuse("it is not a URL")
    }
    guard scheme == "http" || scheme == "https" else { throw refuse("the scheme is '\(scheme)', not http or https") }
    guard let rawHost = components.host, !rawHost.isEmpty else { throw refuse("it has no host") }
    let authority = Self.authority(of: text)
    let portText = Self.portText(ofAuthority: authority)
    var port: Int?
    if let portText {
      guard let value = Int(portText), (1...65535).contains(value), portText.count <= 5 else {
        throw refuse("the port '\(portText.prefix(20))' is not a number from 1 to 65535")
      }
      port = value
    }
    let host = rawHost.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
    guard Self.hostIsWellFormed(host) else {
      throw refuse("the host '\(host.prefix(80))' is not a host name or address")
    }
    // The text as written, unless credentials must come out of it (re-serializing could change
    // how a URL is encoded, and a site's cache keys on it).
    var url = text
    if components.user != nil || components.password != nil {
      var bare = components
      bare.user = nil
      bare.password = nil
      guard let without = bare.string else { throw refuse("it is not a URL") }
      url = without
    }
    self.scheme = scheme
    self.host = host
    self.port = port
    self.user = components.user
    self.password = components.password
    self.url = url
  }

  public var description: String { url }

  /// `Basic …` for the credentials written in the address (HTTP clients do not send them).
  public var basicAuthorization: String? {
    guard let user else { return nil }
    return "Basic " + Data("\(user):\(password ?? "")".utf8).base64EncodedString()
  }

  /// The port a connection goes to.
  public var effectivePort: Int { port ?? (scheme == "https" ? 443 : 80) }

  /// Whether the host is an IPv4 or IPv6 address as written, not a name.
  public var isLiteral: Bool { host.contains(":") || Self.ipv4(host) != nil }

  /// The address a `Location` header names, resolved against this one (relative and
  /// protocol-relative forms included), and checked as any address is.
  public func resolving(_ location: String) throws(StatlineError) -> WebAddress {
    let trimmed = location.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else {
      throw StatlineError(.network, "the redirect has no Location", location: url)
    }
    guard trimmed.utf8.count <= Self.maximumLength, let base = URL(string: url),
      let resolved = URL(string: trimmed, relativeTo: base)?.absoluteURL.absoluteString
    else {
      throw StatlineError(
        .network, "the redirect's Location '\(Self.shown(trimmed))' is not a URL", location: url)
    }
    do {
      return try WebAddress(resolved)
    } catch {
      throw StatlineError(.network, "the redirect goes nowhere usable: \(error.reason)", location: url)
    }
  }

  /// What kind of machine the host names, as far as the address itself says (a name is
  /// `.public` unless it is `localhost`: names are not resolved here).
  public var reach: Reach { Reach.of(host: host) }

  /// The registrable part of the host (`stats.ncaa.org` → `ncaa.org`; an IP address is its own
  /// site): two addresses of one site may redirect to each other. A short list of second-level
  /// registries (`co.uk`, `com.au` …) stands in for the public-suffix list.
  public var site: String {
    if reach != .public || host.contains(":") || Self.isNumeric(host) { return host }
    let labels = host.split(separator: ".")
    guard labels.count > 2 else { return host }
    let secondLevel = ["ac", "co", "com", "edu", "gov", "net", "org"]
    let take = labels.last!.count == 2 && secondLevel.contains(String(labels[labels.count - 2])) ? 3 : 2
    return labels.suffix(take).joined(separator: ".")
  }

  /// Where a host is, as its address says.
  public enum Reach: String, Sendable, Hashable {
    /// This machine: 127.0.0.0/8, ::1, 0.0.0.0/8, `localhost`.
    case loopback
    /// A private network: 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT), fc00::/7.
    case privateNetwork = "private"
    /// 169.254.0.0/16 and fe80::/10, where cloud metadata services answer.
    case linkLocal = "link-local"
    /// Anything else, and every host name but `localhost`.
    case `public`

    /// The reach of a host as written: an address literal's by its range, `localhost` loopback,
    /// any other name public (it is not resolved here).
    public static func of(host: String) -> Reach {
      if host == "localhost" || host.hasSuffix(".localhost") { return .loopback }
      if let v4 = ipv4(host) { return of(v4: v4) }
      var v6 = in6_addr()
      guard inet_pton(AF_INET6, host, &v6) == 1 else { return .public }
      let bytes = withUnsafeBytes(of: &v6) { Array($0) }
      if bytes[0..<15].allSatisfy({ $0 == 0 }) && (bytes[15] == 1 || bytes[15] == 0) { return .loopback }
      if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
        return of(v4: Array(bytes[12..<16]))
      }
      if bytes[0] & 0xFE == 0xFC { return .privateNetwork }
      if bytes[0] == 0xFE && bytes[1] & 0xC0 == 0x80 { return .linkLocal }
      return .public
    }

    static func of(v4 bytes: [UInt8]) -> Reach {
      switch (bytes[0], bytes[1]) {
      case (127, _), (0, _): .loopback
      case (10, _), (172, 16...31), (192, 168), (100, 64...127): .privateNetwork
      case (169, 254): .linkLocal
      default: .public
      }
    }
  }

  /// `text` as it may appear in a message: credentials hidden, at most `limit` bytes.
  public static func shown(_ text: String, limit: Int = 200) -> String {
    // Hidden before it is cut: a cut inside the credentials would leave them unrecognised.
    let hidden = redacted(text)
    guard hidden.utf8.count > limit else { return hidden }
    return String(decoding: hidden.utf8.prefix(limit), as: UTF8.self) + "… (\(text.utf8.count) bytes)"
  }

  /// Any URL-shaped text with the credentials of its authority (`user:pass@`) and the values of
  /// its secret-named query parameters (`?token=…`, `key`, `secret`, `password`, `signature`, …)
  /// replaced by `***`: works on addresses no URL parser accepts
  /// (`postgres://u:pw@host:notaport/db`).
  public static func redacted(_ text: String) -> String {
    guard let scheme = text.range(of: "://") else { return text }
    let rest = text[scheme.upperBound...]
    let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
    var shown = String(text[..<scheme.upperBound])
    if let at = rest[..<end].lastIndex(of: "@") {
      let credentials = rest[..<at]
      let user = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
      shown += (credentials.contains(":") ? "\(user):***" : "***") + rest[at..<end]
    } else {
      shown += rest[..<end]
    }
    return shown + redactedQuery(rest[end...])
  }

  /// The names of query parameters whose values are secrets (compared without case, `-` and `_`).
  static let secretParameters: Set<String> = [
    "token", "accesstoken", "authtoken", "apikey", "key", "secret", "clientsecret", "password", "pass", "pwd",
    "signature", "sig", "auth", "authorization", "credential", "credentials", "session", "sessionid",
  ]

  /// A path, query and fragment with the values of secret-named query parameters hidden; a query
  /// runs to the end of the text or to the first space (a URL quoted inside a message).
  static func redactedQuery(_ tail: Substring) -> String {
    guard let question = tail.firstIndex(of: "?") else { return String(tail) }
    var queryEnd = tail[question...].firstIndex { $0 == "#" || $0 == " " || $0 == "\n" } ?? tail.endIndex
    // A message's colon after the URL (`POST https://h/x?token=t: HTTP 500`) is not the value's.
    if queryEnd < tail.endIndex, tail[..<queryEnd].last == ":" { queryEnd = tail.index(before: queryEnd) }
    let parameters = tail[tail.index(after: question)..<queryEnd].split(
      separator: "&", omittingEmptySubsequences: false)
    let shown = parameters.map { parameter -> String in
      guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
      let name = parameter[..<equals].lowercased().filter { $0 != "_" && $0 != "-" }
      return secretParameters.contains(name) ? parameter[..<equals] + "=***" : String(parameter)
    }
    return String(tail[...question]) + shown.joined(separator: "&") + tail[queryEnd...]
  }

  /// The authority (between `://` and the path), without credentials.
  public static func authority(of text: String) -> Substring {
    guard let scheme = text.range(of: "://") else { return "" }
    let rest = text[scheme.upperBound...]
    let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard let at = authority.lastIndex(of: "@") else { return authority }
    return authority[authority.index(after: at)...]
  }

  /// The text after the host's `:`, if the authority has one (`[::1]:8080` → `8080`).
  public static func portText(ofAuthority authority: Substring) -> Substring? {
    let afterHost: Substring
    if authority.hasPrefix("[") {
      guard let close = authority.firstIndex(of: "]") else { return nil }
      afterHost = authority[authority.index(after: close)...]
    } else {
      guard let colon = authority.firstIndex(of: ":") else { return nil }
      afterHost = authority[colon...]
    }
    guard afterHost.hasPrefix(":") else { return nil }
    return afterHost.dropFirst()
  }

  /// A name of letters, digits, `-`, `_` and dots, a strict dotted-quad IPv4 address or an IPv6
  /// address. All-numeric forms that resolvers read as addresses (`2130706433`, `127.1`,
  /// `0x7f.1`) are refused: their reach could not be told.
  static func hostIsWellFormed(_ host: String) -> Bool {
    if host.contains(":") {
      var v6 = in6_addr()
      return inet_pton(AF_INET6, host, &v6) == 1
    }
    if ipv4(host) != nil { return true }
    if isNumeric(host) { return false }
    return host.utf8.allSatisfy { byte in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte >= 0x80
    }
  }

  /// The last label is a number (decimal or hex): a resolver takes the whole as an address.
  static func isNumeric(_ host: String) -> Bool {
    guard let last = host.split(separator: ".").last else { return false }
    let digits = last.hasPrefix("0x") ? last.dropFirst(2) : last[...]
    return !digits.isEmpty && digits.allSatisfy(\.isHexDigit) && (last.hasPrefix("0x") || last.allSatisfy(\.isNumber))
  }

  /// The four bytes of a strict dotted-quad IPv4 address.
  static func ipv4(_ host: String) -> [UInt8]? {
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4 else { return nil }
    var bytes: [UInt8] = []
    for part in parts {
      guard (1...3).contains(part.count), part.allSatisfy(\.isASCII), let value = UInt8(part),
        part == "0" || !part.hasPrefix("0")
      else { return nil }
      bytes.append(value)
    }
    return bytes
  }
}
