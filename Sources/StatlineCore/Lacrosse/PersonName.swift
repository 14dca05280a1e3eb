/// Player names come as "Last, First" and "First Last" in the same file; the model wants
/// "First Last" (DESIGN.md §4).
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
  private static func rewritten(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var words: [UInt8] = []
    words.reserveCapacity(bytes.count)
    var space = false
    for byte in bytes {
      if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        space = !words.isEmpty
        continue
      }
      if space {
        words.append(0x20)
        space = false
      }
      words.append(byte)
    }
    guard let comma = words.firstIndex(of: UInt8(ascii: ",")) else { return String(decoding: words, as: UTF8.self) }
    let last = trimmed(words[..<comma])
    let first = trimmed(words[(comma + 1)...])
    guard !last.isEmpty, !first.isEmpty else {
      return words.split(whereSeparator: { $0 == 0x20 || $0 == UInt8(ascii: ",") })
        .map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }
    // One string written in place (concatenating the slices made two arrays per name).
    return String(unsafeUninitializedCapacity: first.count + 1 + last.count) { out in
      var at = out.initialize(fromContentsOf: first)
      out[at] = 0x20
      at += 1
      at += UnsafeMutableBufferPointer(rebasing: out[at...]).initialize(fromContentsOf: last)
      return at
    }
  }

  private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
    var bytes = bytes
    while bytes.first == 0x20 { bytes = bytes.dropFirst() }
    while bytes.last == 0x20 { bytes = bytes.dropLast() }
    return bytes
  }
}
