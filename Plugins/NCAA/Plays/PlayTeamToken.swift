import StatlineCore

/// The team a lacrosse play text names and nothing else ("Timeout by COR.", "Clear attempt by
/// JHU good.", "GOAL by AF Meyers, Connor" → `AF`), read from its bytes: `PlayRows.learnTokens`
/// counts them per side to learn each team's abbreviation.
enum PlayTeamToken {
  static func token(in text: String) -> String? {
    var text = text
    return text.withUTF8 { bytes in token(inBytes: bytes).map(string) }
  }

  /// The token's bytes within `bytes` (a text's UTF-8, spaces and tabs around it allowed), or
  /// nil: what `PlayRows.learnTokens` counts without making a string of it.
  static func token(inBytes bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
    var start = 0
    var end = bytes.count
    while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
    while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    return token(UnsafeBufferPointer(rebasing: bytes[start..<end]))
  }

  private static func token(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
    if let rest = rest(text, after: "Clear attempt by ") {
      return before(rest, " good") ?? before(rest, " failed")
    }
    if let rest = rest(text, after: "Timeout by ") { return rest }
    if let at = find(text, " at goalie for ") {
      return withoutPeriod(UnsafeBufferPointer(rebasing: text[(at + 15)...]))
    }
    for prefix: StaticString in ["Ground ball pickup by ", "Turnover by "] {
      if let rest = rest(text, after: prefix), !rest.contains(0x20) { return rest }
    }
    // "GOAL by AF Meyers, Connor": a capitalised word after "by" is the team.
    guard let at = find(text, " by ") else { return nil }
    var start = at + 4
    while start < text.count, text[start] == 0x20 { start += 1 }
    var end = start
    while end < text.count, text[end] != 0x20 { end += 1 }
    let word = UnsafeBufferPointer(rebasing: text[start..<end])
    guard !word.isEmpty, word.allSatisfy({ $0 < 0x80 }) else {
      return word.isEmpty || unicodeWord(string(word)) == nil ? nil : word
    }
    let isUpper = { (byte: UInt8) in byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }
    let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    guard word.count <= 8, word.allSatisfy({ isUpper($0) || isDigit($0) || $0 == UInt8(ascii: "&") }),
      word.contains(where: isUpper)
    else { return nil }
    return word
  }

  /// The same test on a word that is not ASCII, by `Character`.
  private static func unicodeWord(_ word: String) -> String? {
    guard word.count <= 8, word.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "&" }),
      word.contains(where: \.isLetter), !word.hasSuffix(",")
    else { return nil }
    return word
  }

  /// The bytes after `prefix`, without a final period.
  private static func rest(_ text: UnsafeBufferPointer<UInt8>, after prefix: StaticString) -> UnsafeBufferPointer<
    UInt8
  >? {
    let count = prefix.utf8CodeUnitCount
    guard text.count >= count, (0..<count).allSatisfy({ text[$0] == prefix.utf8Start[$0] }) else { return nil }
    return withoutPeriod(UnsafeBufferPointer(rebasing: text[count...]))
  }

  private static func withoutPeriod(_ text: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
    text.last == UInt8(ascii: ".") ? UnsafeBufferPointer(rebasing: text.dropLast()) : text
  }

  private static func before(_ text: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> UnsafeBufferPointer<UInt8>?
  {
    find(text, needle).map { UnsafeBufferPointer(rebasing: text[..<$0]) }
  }

  /// The first offset of `needle`: `ByteSearch` (`memchr` on its rarest byte), which runs over
  /// every play's text for " at goalie for " and " by ".
  private static func find(_ text: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Int? {
    ByteSearch.offset(
      of: UnsafeRawBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount),
      in: UnsafeRawBufferPointer(text))
  }

  private static func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
