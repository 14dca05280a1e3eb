import NIOHTTP1

/// The request headers a cached answer depends on, read in one pass over the headers (a
/// header sent more than once is joined with `, `, as the slow path joins it).
struct RequestConditions {
  var accept: String?
  var acceptEncoding: String?
  var ifNoneMatch: String?
  /// `Content-Length` or `Transfer-Encoding` present: the request may have a body.
  var hasBody = false

  init(_ headers: HTTPHeaders) {
    for (name, value) in headers {
      switch name.utf8.count {
      case 6 where Self.named(name, "accept"): accept = Self.joined(accept, value)
      case 15 where Self.named(name, "accept-encoding"): acceptEncoding = Self.joined(acceptEncoding, value)
      case 13 where Self.named(name, "if-none-match"): ifNoneMatch = Self.joined(ifNoneMatch, value)
      case 14 where Self.named(name, "content-length"): hasBody = true
      case 17 where Self.named(name, "transfer-encoding"): hasBody = true
      default: break
      }
    }
  }

  static func joined(_ earlier: String?, _ value: String) -> String {
    earlier.map { $0 + ", " + value } ?? value
  }

  /// `name` is `lowercased` in any case (header names are tokens: letters, digits, `-`).
  static func named(_ name: String, _ lowercased: StaticString) -> Bool {
    let expected = UnsafeBufferPointer(start: lowercased.utf8Start, count: lowercased.utf8CodeUnitCount)
    return name.utf8.elementsEqual(expected) { $0 | 0x20 == $1 }
  }
}
