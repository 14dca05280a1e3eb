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
    // On the URL's bytes, by offset: slices of its UTF-8 view were a tenth of a scoreboard's
    // discovery (one URL read per poll).
    var url = url
    let read = url.withUTF8 { bytes -> (origin: String, query: Int?)? in
      let scheme: Int
      if Self.starts(bytes, with: "https://") {
        scheme = 8
      } else if Self.starts(bytes, with: "http://") {
        scheme = 7
      } else {
        return nil
      }
      var queryStart: Int?
      var pathStart: Int?
      var percentInPath = false
      for index in scheme..<bytes.count {
        let byte = bytes[index]
        guard Self.allowed(byte) else { return nil }
        guard queryStart == nil else { continue }
        if byte == UInt8(ascii: "?") {
          queryStart = index
        } else if byte == UInt8(ascii: "/") {
          if pathStart == nil { pathStart = index }
        } else if byte == UInt8(ascii: "%") && pathStart != nil {
          percentInPath = true
        }
      }
      let beforeQuery = queryStart ?? bytes.count
      let path = pathStart ?? beforeQuery
      // A `%` in the authority is no host's: refused there (`isHostAndPort`).
      guard path > scheme, !percentInPath, Self.isHostAndPort(UnsafeBufferPointer(rebasing: bytes[scheme..<path]))
      else { return nil }
      let origin =
        path == beforeQuery
        ? String(decoding: UnsafeBufferPointer(rebasing: bytes[..<path]), as: UTF8.self) + "/"
        : String(decoding: UnsafeBufferPointer(rebasing: bytes[..<beforeQuery]), as: UTF8.self)
      return (origin, queryStart)
    }
    guard let read else { return nil }
    origin = read.origin
    query = read.query.map { Substring(url.utf8[url.utf8.index(url.utf8.startIndex, offsetBy: $0 + 1)...]) }
  }

  private static func starts(_ bytes: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    return bytes.count >= count && memcmp(bytes.baseAddress!, prefix.utf8Start, count) == 0
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
  private static func isHostAndPort(_ authority: UnsafeBufferPointer<UInt8>) -> Bool {
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
