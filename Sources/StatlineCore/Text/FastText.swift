import Foundation

/// Small string helpers for the hot path of reading a game (hundreds of plays and players per
/// page): Foundation's `trimmingCharacters` and `String(format:)` cost more than the parse.
public enum FastText {
  /// Leading and trailing ASCII spaces and tabs removed (returns `text` itself when there are none).
  public static func trimmed(_ text: String) -> String {
    let utf8 = text.utf8
    guard let first = utf8.first, let last = utf8.last else { return text }
    if first != 0x20 && first != 0x09 && last != 0x20 && last != 0x09 { return text }
    let bytes = utf8.drop { $0 == 0x20 || $0 == 0x09 }
    let trimmed = bytes.reversed().drop { $0 == 0x20 || $0 == 0x09 }
    return String(decoding: trimmed.reversed(), as: UTF8.self)
  }

  /// `text.trimmingCharacters(in: .whitespacesAndNewlines)`: ASCII whitespace by bytes, and
  /// Foundation only when an end is still whitespace after that (a no-break or other Unicode
  /// space). On a scoreboard's 300 team cells Foundation's bridging cost more than the cells.
  public static func trimmedWhitespace(_ text: String) -> String { trimmedWhitespace(text[...]) }

  /// `trimmedWhitespace` of a slice.
  public static func trimmedWhitespace(_ text: Substring) -> String {
    func ascii(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
    let utf8 = text.utf8
    let start = utf8.firstIndex { !ascii($0) } ?? utf8.endIndex
    guard start != utf8.endIndex, let last = utf8.lastIndex(where: { !ascii($0) }) else { return "" }
    let inner = text[start..<utf8.index(after: last)]
    if let first = inner.unicodeScalars.first, let end = inner.unicodeScalars.last, first.value < 0x80,
      end.value < 0x80
    {
      return String(inner)
    }
    return inner.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `text.uppercased().trimmingCharacters(in: .whitespaces)`, by bytes when the text is ASCII.
  public static func upperTrimmed(_ text: String) -> String {
    guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.uppercased().trimmingCharacters(in: .whitespaces) }
    let bytes = text.utf8.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed()
    return String(decoding: bytes.map { $0 &- UInt8(ascii: "a") < 26 ? $0 - 0x20 : $0 }, as: UTF8.self)
  }

  /// `text` without the ASCII characters of `set` at either end (`trimmingCharacters(in:)` of
  /// those characters, without building a `CharacterSet`).
  public static func trimmed(_ text: String, of set: StaticString) -> String {
    let trim = UnsafeBufferPointer(start: set.utf8Start, count: set.utf8CodeUnitCount)
    let utf8 = text.utf8
    guard let first = utf8.first, let last = utf8.last, trim.contains(first) || trim.contains(last) else { return text }
    // By index: reversed lazy views cost more than the record cells they trimmed.
    var text = text
    return text.withUTF8 { bytes in
      var start = 0
      var end = bytes.count
      while start < end, trim.contains(bytes[start]) { start += 1 }
      while end > start, trim.contains(bytes[end - 1]) { end -= 1 }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
  }

  /// `n` as two digits at least.
  public static func twoDigits(_ value: Int) -> String { value < 10 && value >= 0 ? "0\(value)" : String(value) }

  /// The byte offset of `needle` in `haystack`, found with the C library's search.
  public static func offset(of needle: String, in haystack: String) -> Int? {
    haystack.withCString { hay in
      needle.withCString { pin in
        guard let found = strstr(hay, pin) else { return nil }
        return hay.distance(to: UnsafePointer(found))
      }
    }
  }

  /// Whether `needle` (which holds no spaces) occurs in `text` once its spaces are ignored:
  /// `font-size: 36px` holds `font-size:36px`.
  public static func contains(_ text: String, ignoringSpaces needle: StaticString) -> Bool {
    let count = needle.utf8CodeUnitCount
    guard count > 0 else { return true }
    let pin = needle.utf8Start
    var text = text
    return text.withUTF8 { bytes in
      for start in bytes.indices where bytes[start] == pin[0] {
        var index = start + 1
        var matched = 1
        while matched < count, index < bytes.count {
          if bytes[index] == 0x20 {
            index += 1
            continue
          }
          guard bytes[index] == pin[matched] else { break }
          matched += 1
          index += 1
        }
        if matched == count { return true }
      }
      return false
    }
  }

  /// `text` split around the first `needle`, or nil when it does not occur.
  public static func split(_ text: String, at needle: String) -> (String, String)? {
    guard let offset = offset(of: needle, in: text) else { return nil }
    let utf8 = text.utf8
    let start = utf8.index(utf8.startIndex, offsetBy: offset)
    let end = utf8.index(start, offsetBy: needle.utf8.count)
    return (String(text[..<start]), String(text[end...]))
  }

  /// Whether `needle` occurs in `text` (the C library's search, not Foundation's).
  public static func contains(_ text: String, _ needle: String) -> Bool { offset(of: needle, in: text) != nil }

  /// `text` cut at every `separator` (as Foundation's `components(separatedBy:)`, without it).
  public static func components(_ text: String, separatedBy separator: String) -> [String] {
    var parts: [String] = []
    var rest = text
    while let (head, tail) = split(rest, at: separator) {
      parts.append(head)
      rest = tail
    }
    parts.append(rest)
    return parts
  }

  /// `text` after `prefix`, without a final period, or nil when it does not start so.
  public static func rest(_ text: String, after prefix: String) -> String? {
    guard text.hasPrefix(prefix) else { return nil }
    var rest = Substring(text.utf8.dropFirst(prefix.utf8.count))
    if rest.hasSuffix(".") { rest = rest.dropLast() }
    return String(rest)
  }
}
