extension FastText {
  /// The parts in one string, written once into room of their whole length. A scoreboard makes
  /// three target URLs a game and an id of each; `+=` part by part grew and re-checked the
  /// string at every part, a quarter of making them.
  public static func joined(_ parts: String...) -> String {
    joined(parts)
  }

  /// `joined` of an array of parts.
  public static func joined(_ parts: [String]) -> String {
    var count = 0
    for part in parts { count += part.utf8.count }
    guard count > 0 else { return "" }
    return String(unsafeUninitializedCapacity: count) { buffer in
      var at = 0
      for part in parts {
        // Native strings lend their bytes; a bridged one is copied byte by byte.
        let written = part.utf8.withContiguousStorageIfAvailable { bytes in
          UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[at..<(at + bytes.count)])
            .copyMemory(from: UnsafeRawBufferPointer(bytes))
          return bytes.count
        }
        if let written {
          at += written
        } else {
          for byte in part.utf8 {
            buffer[at] = byte
            at += 1
          }
        }
      }
      return at
    }
  }
}
