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

  /// base64, then percent-encoded for a query value (`+`, `/` and `=` escaped).
  public static func encodeParameter(_ text: String) -> String {
    let encoded = Data(text.utf8).base64EncodedString()
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return encoded.addingPercentEncoding(withAllowedCharacters: allowed) ?? encoded
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
    let rotated = page.body.withUnsafeBytes { (body: UnsafeRawBufferPointer) -> Data in
      var rotated = Data(count: body.count)
      let count = rotated.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) -> Int in
        var count = 0
        for byte in body {
          switch byte {
          case UInt8(ascii: "a")...UInt8(ascii: "z"): out[count] = (byte - 97 + 13) % 26 + 97
          case UInt8(ascii: "A")...UInt8(ascii: "Z"): out[count] = (byte - 65 + 13) % 26 + 65
          case 0x20, 0x09, 0x0A, 0x0D: continue
          default: out[count] = byte
          }
          count += 1
        }
        return count
      }
      rotated.count = count
      return rotated
    }
    guard let base64 = Data(base64Encoded: rotated) else {
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
}
