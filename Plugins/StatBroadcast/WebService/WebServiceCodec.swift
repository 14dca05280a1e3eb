import Foundation
import StatlineCore

/// The StatBroadcast web service's wire format (STRUCTURE.md §5a): requests carry a base64
/// `data` parameter, answers are ROT13 over base64 over UTF-8.
public enum WebServiceCodec {
  public static let base = "https://stats.statbroadcast.com/interface/webservice"
  public static let referer = "https://stats.statbroadcast.com/broadcast/"

  /// `event/{id}?data=base64("type=statbroadcast")`: the event's metadata.
  public static func eventURL(_ eventId: String, base: String = base) -> String {
    "\(base)/event/\(eventId)?data=\(encodeParameter("type=statbroadcast"))"
  }

  /// What a `stats` request asks for, in the documented key order.
  public struct StatsRequest: Sendable, Equatable {
    public var event: String
    /// The event's `xmlfile` (`lbst/652739.xml`).
    public var xml: String
    /// The view's XSL (`baseball/sb.bsgame.views.broadcast.xsl`); lacrosse paths are unknown, so
    /// they come from configuration.
    public var xsl: String
    /// JSON such as `{"team":"H"}`, when the view takes it.
    public var params: String?
    /// The event's `sport` (`bsgame`, `lcgame`).
    public var sport: String
    /// The `Filetime` of the last answer; -1 forces a full answer.
    public var filetime: String = "-1"

    public init(event: String, xml: String, xsl: String, params: String? = nil, sport: String, filetime: String = "-1")
    {
      self.event = event
      self.xml = xml
      self.xsl = xsl
      self.params = params
      self.sport = sport
      self.filetime = filetime
    }

    /// `event=…&xml=…&xsl=…[&params=…]&sport=…&filetime=…&type=statbroadcast&start=true`.
    public var query: String {
      var pairs = [("event", event), ("xml", xml), ("xsl", xsl)]
      if let params { pairs.append(("params", params)) }
      pairs += [("sport", sport), ("filetime", filetime), ("type", "statbroadcast"), ("start", "true")]
      return pairs.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
  }

  public static func statsURL(_ request: StatsRequest, base: String = base) -> String {
    "\(base)/stats?data=\(encodeParameter(request.query))"
  }

  /// base64, then percent-encoded for a query value (`+`, `/` and `=` escaped: base64 has no
  /// other character a query value cannot carry).
  public static func encodeParameter(_ text: String) -> String {
    var encoded = ""
    for character in Data(text.utf8).base64EncodedString().utf8 {
      switch character {
      case UInt8(ascii: "+"): encoded += "%2B"
      case UInt8(ascii: "/"): encoded += "%2F"
      case UInt8(ascii: "="): encoded += "%3D"
      default: encoded.unicodeScalars.append(Unicode.Scalar(character))
      }
    }
    return encoded
  }

  /// The `data` parameter of a web-service URL, decoded (`event=…&xml=…`), as key → value.
  public static func parameters(of url: String) -> [String: String] {
    guard let components = URLComponents(string: url),
      let data = components.queryItems?.first(where: { $0.name == "data" })?.value,
      let bytes = Data(base64Encoded: data), let text = String(data: bytes, encoding: .utf8)
    else { return [:] }
    var result: [String: String] = [:]
    for pair in text.split(separator: "&") {
      let parts = pair.split(separator: "=", maxSplits: 1)
      result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
    }
    return result
  }

  /// The stats URL with `filetime` in its data parameter set to `filetime` (the `Filetime`
  /// header of the last answer): the service then answers 204 or 304 while nothing changed.
  /// Without one (first poll), or for a URL that is not a stats request, the URL is unchanged.
  public static func withFiletime(_ url: String, _ filetime: String?) -> String {
    guard let filetime, !filetime.isEmpty, let data = url.range(of: "?data=") else { return url }
    let raw = String(url[data.upperBound...])
    guard let decoded = raw.removingPercentEncoding.flatMap({ Data(base64Encoded: $0) }),
      let query = String(data: decoded, encoding: .utf8), query.contains("filetime=")
    else { return url }
    let pairs = query.split(separator: "&").map { pair -> String in
      pair.hasPrefix("filetime=") ? "filetime=\(filetime)" : String(pair)
    }
    return String(url[..<data.upperBound]) + encodeParameter(pairs.joined(separator: "&"))
  }

  /// ROT13 over the letters, then base64, then UTF-8. A corrupt answer is an error that says
  /// which step failed; an XOR-encrypted answer (`X-SB-Enc: 1`) is blocked, not decoded.
  public static func decode(_ page: Page) throws(StatlineError) -> String {
    String(decoding: try decodeBytes(page), as: UTF8.self)
  }

  /// The decoded answer's bytes (checked to be UTF-8), for a parser to read without a string in
  /// between.
  public static func decodeBytes(_ page: Page) throws(StatlineError) -> Data {
    if page.header("x-sb-enc") == "1" {
      throw StatlineError(
        .blocked, "the answer is encrypted (X-SB-Enc: 1), StatBroadcast's 2026 protection",
        hint: "Statline does not decrypt or get around protections; use the archive XML for finished games")
    }
    if page.body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "<") {
      let head = page.prefix(4096).lowercased()
      if ["statmonitr", "proof-of-work", "proof of work", "pow-challenge"].contains(where: head.contains) {
        throw StatlineError(
          .blocked, "the answer is a proof-of-work page (StatBroadcast's 2026 protection), not data",
          hint: "Statline never solves challenges; the target is backed off and reported")
      }
      throw StatlineError(
        .wrongPage, "the answer is markup, not an encoded web-service answer",
        hint: "check the URL; the web service may have changed")
    }
    guard let base64 = rot13Base64(page.body) else {
      let sample = String(decoding: page.body.prefix(40), as: UTF8.self)
      throw StatlineError(
        .undecodable, "the answer is not ROT13-over-base64 (after ROT13 it is not base64): '\(sample)…'",
        hint: "the encoding may have changed; the page is captured for replay")
    }
    guard String(validating: base64, as: UTF8.self) != nil else {
      throw StatlineError(
        .undecodable, "the decoded answer (\(base64.count) bytes) is not UTF-8",
        hint: "the encoding may have changed; the page is captured for replay")
    }
    return base64
  }

  /// Each byte's meaning in a ROT13-over-base64 answer: its base64 value after ROT13 (0–63),
  /// or one of the marks below.
  private static let sextets: [UInt8] = {
    var table = [UInt8](repeating: invalid, count: 256)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    for (value, character) in alphabet.enumerated() {
      // The answer carries the character ROT13 makes of it (ROT13 is its own inverse).
      let rotated: UInt8 =
        switch character {
        case UInt8(ascii: "a")...UInt8(ascii: "z"): (character - 97 + 13) % 26 + 97
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): (character - 65 + 13) % 26 + 65
        default: character
        }
      table[Int(rotated)] = UInt8(value)
    }
    for space in [0x20, 0x09, 0x0A, 0x0D] { table[space] = skipped }
    table[Int(UInt8(ascii: "="))] = padding
    return table
  }()
  private static let invalid: UInt8 = 0xFF
  private static let skipped: UInt8 = 0xFE
  private static let padding: UInt8 = 0xFD

  /// ROT13, then base64 (padded, whitespace anywhere skipped), in one pass with no string or
  /// buffer in between; nil when the answer is not that. Whole groups of four plain characters
  /// (nearly all of an answer) take the fast path; whitespace and padding go one byte at a time.
  static func rot13Base64(_ body: Data) -> Data? {
    body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data? in
      sextets.withUnsafeBufferPointer { table -> Data? in
        let input = raw.bindMemory(to: UInt8.self)
        var output = Data(count: input.count / 4 * 3 + 3)
        let written = output.withUnsafeMutableBytes { (raw: UnsafeMutableRawBufferPointer) -> Int? in
          let out = raw.bindMemory(to: UInt8.self)
          var count = 0
          /// The first `bytes` of a whole group's three.
          func emit(_ group: UInt32, _ bytes: Int) {
            out[count] = UInt8(truncatingIfNeeded: group >> 16)
            out[count + 1] = UInt8(truncatingIfNeeded: group >> 8)
            out[count + 2] = UInt8(truncatingIfNeeded: group)
            count += bytes
          }
          var group: UInt32 = 0
          var inGroup = 0
          var pads = 0
          var index = 0
          while index < input.count {
            if inGroup == 0, pads == 0, index + 4 <= input.count {
              let (a, b) = (table[Int(input[index])], table[Int(input[index + 1])])
              let (c, d) = (table[Int(input[index + 2])], table[Int(input[index + 3])])
              if (a | b | c | d) < 64 {
                emit(UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d), 3)
                index += 4
                continue
              }
            }
            let value = table[Int(input[index])]
            index += 1
            if value < 64 {
              guard pads == 0 else { return nil }
              group = group << 6 | UInt32(value)
              inGroup += 1
            } else if value == padding {
              // Padding ends the answer: it fills the last group of four, and nothing but more
              // padding (at most two) and whitespace may follow.
              guard inGroup >= 2, inGroup < 4 else { return nil }
              pads += 1
              group <<= 6
              inGroup += 1
            } else if value == skipped {
              continue
            } else {
              return nil
            }
            if inGroup == 4 {
              emit(group, 3 - pads)
              group = 0
              inGroup = 0
            }
          }
          return inGroup == 0 ? count : nil
        }
        guard let written else { return nil }
        output.count = written
        return output
      }
    }
  }
}
