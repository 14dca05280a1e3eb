/// A class attribute's words, as CSS `.name` reads them: split at XML whitespace (the CSS
/// translator's `normalize-space(@class)`), compared byte for byte.
enum ClassList {
  static func contains(_ classes: UnsafeBufferPointer<UInt8>, word: UnsafeBufferPointer<UInt8>) -> Bool {
    var start = 0
    while start < classes.count {
      var end = start
      while end < classes.count, !isSpace(classes[end]) { end += 1 }
      if end - start == word.count, classes[start..<end].elementsEqual(word) { return true }
      start = end + 1
    }
    return false
  }

  private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
}

extension XMLValue {
  /// Whether this class attribute value lists `word` (CSS `.word`).
  public func hasClass(_ word: StaticString) -> Bool {
    ClassList.contains(bytes, word: UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount))
  }
}
