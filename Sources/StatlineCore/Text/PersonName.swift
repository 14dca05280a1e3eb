/// Player names come as "Last, First" and "First Last" in the same file; the model wants
/// "First Last" (architecture.md#the-contract).
public enum PersonName {
  /// "Caldwell II, David" → "David Caldwell II"; "Owen Duffy" stays; extra spaces go.
  public static func normalized(_ raw: String) -> String {
    var raw = raw
    return raw.withUTF8 { needsWork($0) } ? raw.withUTF8 { rewritten($0) } : raw
  }

  /// The same for a name inside a larger text (the grammar's play texts).
  static func normalized(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    needsWork(bytes) ? rewritten(bytes) : String(decoding: bytes, as: UTF8.self)
  }

  /// Most names need nothing: no comma and no stray spaces (checked on the bytes: this runs for
  /// every player and every play of a game).
  private static func needsWork(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var previous: UInt8 = 0x20
    for byte in bytes {
      if byte == UInt8(ascii: ",") || byte == 0x09 || byte == 0x0A || (byte == 0x20 && previous == 0x20) {
        return true
      }
      previous = byte
    }
    return previous == 0x20
  }

  /// Whitespace runs become one space and the ends are trimmed; then "Last, First" turns round.
  /// The words are gathered in a buffer on the stack and the name written once: an array and its
  /// slices per name, for every player of every play, were a fifth of reading a play's text.
  private static func rewritten(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(bytes.count, 1)) { words -> String in
      var count = 0
      var space = false
      for byte in bytes {
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
          space = count > 0
          continue
        }
        if space {
          words[count] = 0x20
          count += 1
          space = false
        }
        words[count] = byte
        count += 1
      }
      let gathered = UnsafeBufferPointer(rebasing: words[..<count])
      guard let comma = gathered.firstIndex(of: UInt8(ascii: ",")) else {
        return String(decoding: gathered, as: UTF8.self)
      }
      let last = trimmed(gathered, 0..<comma)
      let first = trimmed(gathered, (comma + 1)..<count)
      guard !last.isEmpty, !first.isEmpty else {
        return gathered.split(whereSeparator: { $0 == 0x20 || $0 == UInt8(ascii: ",") })
          .map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
      }
      return String(unsafeUninitializedCapacity: first.count + 1 + last.count) { out in
        var at = out.initialize(fromContentsOf: gathered[first])
        out[at] = 0x20
        at += 1
        at += UnsafeMutableBufferPointer(rebasing: out[at...]).initialize(fromContentsOf: gathered[last])
        return at
      }
    }
  }

  /// `range` of `bytes` without spaces at either end.
  private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
    var lower = range.lowerBound
    var upper = range.upperBound
    while lower < upper, bytes[lower] == 0x20 { lower += 1 }
    while upper > lower, bytes[upper - 1] == 0x20 { upper -= 1 }
    return lower..<upper
  }
}
