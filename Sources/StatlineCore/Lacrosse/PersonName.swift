import Foundation

/// Player names come as "Last, First" and "First Last" in the same file; the model wants
/// "First Last" (DESIGN.md §4).
public enum PersonName {
  /// "Caldwell II, David" → "David Caldwell II"; "Owen Duffy" stays; extra spaces go.
  public static func normalized(_ raw: String) -> String {
    // Most names need nothing: no comma and no stray spaces (checked on the bytes: this runs for
    // every player and every play of a game).
    var needsWork = false
    var previous: UInt8 = 0x20
    for byte in raw.utf8 {
      if byte == UInt8(ascii: ",") || byte == 0x09 || byte == 0x0A || (byte == 0x20 && previous == 0x20) {
        needsWork = true
        break
      }
      previous = byte
    }
    if !needsWork && previous != 0x20 { return raw }
    let words = raw.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
    let trimmed = words.map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    guard let comma = trimmed.utf8.firstIndex(of: UInt8(ascii: ",")) else { return trimmed }
    let last = FastText.trimmed(String(trimmed[..<comma]))
    let first = FastText.trimmed(String(trimmed[trimmed.utf8.index(after: comma)...]))
    guard !last.isEmpty, !first.isEmpty else {
      return trimmed.utf8.split(whereSeparator: { $0 == 0x20 || $0 == UInt8(ascii: ",") })
        .map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
    }
    return "\(first) \(last)"
  }
}
