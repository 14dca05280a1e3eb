extension FastText {
  /// Whether `text` ends with `suffix` (lower-case ASCII), its ASCII letters in any case: a test
  /// on the bytes, with no lower-cased copy of the text made per play.
  public static func hasSuffix(_ text: String, caseless suffix: StaticString) -> Bool {
    var text = text
    return text.withUTF8 { hasSuffix($0, caseless: suffix) }
  }

  /// Whether `text` starts with `prefix` (lower-case ASCII), its ASCII letters in any case.
  public static func hasPrefix(_ text: String, caseless prefix: StaticString) -> Bool {
    var text = text
    return text.withUTF8 { hasPrefix($0, caseless: prefix) }
  }

  /// Whether `needle` (lower-case ASCII) occurs in `text`, its ASCII letters in any case.
  public static func contains(_ text: String, caseless needle: StaticString) -> Bool {
    var text = text
    return text.withUTF8 { contains($0, caseless: needle) }
  }

  /// The same tests on a text's bytes, for a reader that asks several of one text.
  public static func hasSuffix(_ bytes: UnsafeBufferPointer<UInt8>, caseless suffix: StaticString) -> Bool {
    let count = suffix.utf8CodeUnitCount
    return bytes.count >= count && matches(bytes, at: bytes.count - count, caseless: suffix)
  }

  public static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, caseless prefix: StaticString) -> Bool {
    bytes.count >= prefix.utf8CodeUnitCount && matches(bytes, at: 0, caseless: prefix)
  }

  public static func contains(_ bytes: UnsafeBufferPointer<UInt8>, caseless needle: StaticString) -> Bool {
    let count = needle.utf8CodeUnitCount
    guard bytes.count >= count, count > 0 else { return count == 0 }
    // The needle's bytes reached once, and its first byte compared before the rest (a closure
    // per offset was most of a basketball row's tests).
    return needle.withUTF8Buffer { pin in
      let first = pin[0]
      for start in 0...(bytes.count - count) {
        let byte = bytes[start]
        if (byte &- 0x41 < 26 ? byte | 0x20 : byte) == first && matches(bytes, at: start, pin) { return true }
      }
      return false
    }
  }

  /// Whether `needle` is at `start` (the bytes hold it whole), ASCII letters in any case.
  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, caseless needle: StaticString)
    -> Bool
  {
    needle.withUTF8Buffer { matches(bytes, at: start, $0) }
  }

  private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ pin: UnsafeBufferPointer<UInt8>)
    -> Bool
  {
    for offset in 0..<pin.count {
      let byte = bytes[start + offset]
      if (byte &- 0x41 < 26 ? byte | 0x20 : byte) != pin[offset] { return false }
    }
    return true
  }
}
