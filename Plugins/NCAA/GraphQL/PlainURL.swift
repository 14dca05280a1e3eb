import Foundation

/// A URL read by hand where it is plain: `http` or `https`, a host of letters, digits, dots and
/// dashes with an optional port, a path and a query of RFC 3986's unreserved and sub-delimiter
/// characters, `:`, `@`, `/`, `?` and well-formed `%` escapes (none in the path), and no
/// fragment. Such a URL reads here as `URLComponents` reads it (`PersistedQueryWritingTests`
/// holds the two together); anything else is nil and left to it. A scoreboard's poll reads its
/// own URL twice (its sport code, its origin), and `URLComponents` was an eighth of that poll.
struct PlainURL {
  /// `https://host:port/path`, the path `/` when empty.
  let origin: String
  let query: Substring?

  init?(_ url: String) {
    let scheme: String
    if url.hasPrefix("https://") {
      scheme = "https://"
    } else if url.hasPrefix("http://") {
      scheme = "http://"
    } else {
      return nil
    }
    let rest = url.utf8.dropFirst(scheme.utf8.count)
    guard rest.allSatisfy(Self.allowed) else { return nil }
    let queryStart = rest.firstIndex(of: UInt8(ascii: "?"))
    let beforeQuery = rest[..<(queryStart ?? rest.endIndex)]
    let pathStart = beforeQuery.firstIndex(of: UInt8(ascii: "/")) ?? beforeQuery.endIndex
    let authority = beforeQuery[..<pathStart]
    let path = beforeQuery[pathStart...]
    guard !authority.isEmpty, !path.contains(UInt8(ascii: "%")), Self.isHostAndPort(authority) else { return nil }
    origin =
      scheme + String(decoding: authority, as: UTF8.self) + (path.isEmpty ? "/" : String(decoding: path, as: UTF8.self))
    query = queryStart.map { Substring(url.utf8[url.utf8.index(after: $0)...]) }
  }

  /// The query's names and values, percent-decoded, the last of a name winning; nil when a pair
  /// is empty or a value is not UTF-8 once decoded (left to `URLComponents`).
  var parameters: [String: String]? {
    guard let query else { return [:] }
    var result: [String: String] = [:]
    for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false) {
      guard !pair.isEmpty else { return nil }
      let equals = pair.firstIndex(of: UInt8(ascii: "="))
      guard let name = Self.decoded(pair[..<(equals ?? pair.endIndex)]) else { return nil }
      let value = equals.map { Self.decoded(pair[pair.index(after: $0)...]) } ?? ""
      guard let value else { return nil }
      result[name] = value
    }
    return result
  }

  private static func decoded(_ bytes: Substring.UTF8View.SubSequence) -> String? {
    guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var index = bytes.startIndex
    while index < bytes.endIndex {
      let byte = bytes[index]
      if byte == UInt8(ascii: "%") {
        let first = bytes.index(after: index)
        guard first < bytes.endIndex, bytes.index(after: first) < bytes.endIndex,
          let high = hex(bytes[first]), let low = hex(bytes[bytes.index(after: first)])
        else { return nil }
        out.append(high << 4 | low)
        index = bytes.index(first, offsetBy: 2)
      } else {
        out.append(byte)
        index = bytes.index(after: index)
      }
    }
    return String(bytes: out, encoding: .utf8)
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// Letters, digits, dots and dashes, then an optional `:` and a port of digits without a
  /// leading zero (`URLComponents` would print it back without one).
  private static func isHostAndPort(_ authority: Substring.UTF8View.SubSequence) -> Bool {
    let colon = authority.firstIndex(of: UInt8(ascii: ":"))
    let host = authority[..<(colon ?? authority.endIndex)]
    guard !host.isEmpty,
      host.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") })
    else { return false }
    guard let colon else { return true }
    let port = authority[authority.index(after: colon)...]
    return !port.isEmpty && port.count <= 5 && port.first != UInt8(ascii: "0")
      && port.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
    (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
      || byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// RFC 3986's unreserved and sub-delimiter characters, `:`, `@`, `/`, `?` and `%`.
  private static func allowed(_ byte: UInt8) -> Bool {
    if isLetterOrDigit(byte) { return true }
    switch byte {
    case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "!"),
      UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
      UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
      UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "%"):
      return true
    default:
      return false
    }
  }
}
