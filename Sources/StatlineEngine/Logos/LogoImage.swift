import Foundation
import StatlineCore

/// What a downloaded logo is, read from its bytes, never from the server's `Content-Type`
/// (architecture.md#team-logos): PNG, JPEG, GIF, WebP or SVG, and an SVG only without anything
/// that could run (a script, an event handler, a `javascript:` link, foreign HTML). Anything else
/// is refused with the reason.
public enum LogoImage {
  /// The served type of `bytes`, or an error saying why they are not a logo Statline serves.
  public static func contentType(of bytes: Data, url: String) throws(StatlineError) -> String {
    guard !bytes.isEmpty else { throw refusal("the answer is empty", url) }
    let head = [UInt8](bytes.prefix(16))
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "image/png" }
    if head.starts(with: [0xFF, 0xD8, 0xFF]) { return "image/jpeg" }
    if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) { return "image/gif" }
    if head.count >= 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
      return "image/webp"
    }
    if let svg = svgText(bytes) {
      if let danger = activeContent(in: svg) {
        throw refusal("it is an SVG with active content (\(danger)): an SVG with script is never served", url)
      }
      return "image/svg+xml"
    }
    let shown = String(decoding: bytes.prefix(40), as: UTF8.self).filter { !$0.isNewline }
    throw refusal("it is not a PNG, JPEG, GIF, WebP or SVG image (it starts '\(shown.prefix(40))')", url)
  }

  static func refusal(_ reason: String, _ url: String) -> StatlineError {
    StatlineError(
      .unsafeDocument, "the logo is refused: \(reason)", location: url,
      hint: "the keeper asks again later; a team whose pages show no usable logo has none")
  }

  /// The text of an SVG document: UTF-8 whose first element is `<svg` (after an XML declaration,
  /// comments and a doctype); nil for anything else.
  static func svgText(_ bytes: Data) -> String? {
    guard let text = String(data: bytes, encoding: .utf8) else { return nil }
    var rest = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
    while true {
      if rest.hasPrefix("<?") || rest.hasPrefix("<!") {
        // A doctype with an internal subset (`[<!ENTITY …>]`) ends at `]>`: its entities are then
        // read by `activeContent`, not mistaken for the end of the prologue.
        let subset = rest.prefix(9).uppercased() == "<!DOCTYPE" && rest.prefix { $0 != ">" }.contains("[")
        let close = rest.hasPrefix("<!--") ? "-->" : subset ? "]>" : ">"
        guard let end = rest.range(of: close) else { return nil }
        rest = rest[end.upperBound...].drop { $0.isWhitespace }
        continue
      }
      guard rest.lowercased().hasPrefix("<svg"), let after = rest.dropFirst(4).first,
        after.isWhitespace || after == ">" || after == "/"
      else { return nil }
      return text
    }
  }

  /// What in an SVG could run, if anything: `<script`, an `on…=` event attribute,
  /// `javascript:`, `<foreignObject`, or an entity declaration (`<!ENTITY`, which could pull one in).
  static func activeContent(in svg: String) -> String? {
    let lowered = svg.lowercased()
    for marker in ["<script", "javascript:", "<foreignobject", "<!entity", "<iframe", "<embed", "<object"]
    where lowered.contains(marker) {
      return marker
    }
    // An event handler: `on` + letters + `=` right after white space inside a tag.
    let scalars = Array(lowered.unicodeScalars)
    var inTag = false
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<" { inTag = true } else if scalar == ">" { inTag = false }
      if inTag, scalar == "o", index > 0, Self.isSpace(scalars[index - 1]), index + 1 < scalars.count,
        scalars[index + 1] == "n"
      {
        var end = index + 2
        while end < scalars.count, ("a"..."z").contains(scalars[end]) { end += 1 }
        var equals = end
        while equals < scalars.count, Self.isSpace(scalars[equals]) { equals += 1 }
        if end > index + 2, equals < scalars.count, scalars[equals] == "=" {
          return String(String.UnicodeScalarView(scalars[index..<end])) + "="
        }
      }
      index += 1
    }
    return nil
  }

  static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
    scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "/"
  }
}
