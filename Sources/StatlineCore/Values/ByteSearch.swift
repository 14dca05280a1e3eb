import Foundation

/// Searching a page's bytes without decoding them (Foundation's string search costs more than
/// the parse on a 150 KB page).
public enum ByteSearch {
  public static func contains(_ bytes: Data, _ needle: String) -> Bool {
    offset(of: Array(needle.utf8), in: bytes) != nil
  }

  /// The offset of `needle` in `bytes`, or nil: `memchr` finds each candidate first byte,
  /// `memcmp` checks the rest.
  public static func offset(of needle: [UInt8], in bytes: Data) -> Int? {
    bytes.withUnsafeBytes { raw -> Int? in
      needle.withUnsafeBytes { pin -> Int? in
        guard let base = raw.baseAddress, let pinBase = pin.baseAddress, !needle.isEmpty else { return nil }
        var index = 0
        while index + pin.count <= raw.count {
          guard let hit = memchr(base + index, Int32(needle[0]), raw.count - pin.count + 1 - index) else { return nil }
          let at = base.distance(to: UnsafeRawPointer(hit))
          if memcmp(base + at, pinBase, pin.count) == 0 { return at }
          index = at + 1
        }
        return nil
      }
    }
  }

  /// The text of the first `<title>` (or `<TITLE>`), trimmed; nil when there is none.
  public static func title(of bytes: Data) -> String? {
    for open in ["<title>", "<TITLE>", "<Title>"] {
      guard let start = offset(of: Array(open.utf8), in: bytes) else { continue }
      let from = bytes.startIndex + start + open.utf8.count
      let end = bytes[from...].firstIndex(of: UInt8(ascii: "<")) ?? bytes.endIndex
      return String(decoding: bytes[from..<end], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
    return nil
  }
}
