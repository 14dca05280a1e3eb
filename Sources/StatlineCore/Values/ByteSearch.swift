import Foundation

/// Searching a page's bytes without decoding them (Foundation's string search costs more than
/// the parse on a 150 KB page).
public enum ByteSearch {
  public static func contains(_ bytes: Data, _ needle: String) -> Bool {
    offset(of: Array(needle.utf8), in: bytes) != nil
  }

  /// The offset of `needle` in `bytes`, or nil: `memchr` finds each place of the needle's
  /// rarest byte (see `rarity`), `memcmp` checks the whole needle around it.
  public static func offset(of needle: [UInt8], in bytes: Data) -> Int? {
    bytes.withUnsafeBytes { raw in needle.withUnsafeBytes { offset(of: $0, in: raw) } }
  }

  /// The same on bytes in memory (a play's text, a literal needle).
  public static func offset(of needle: UnsafeRawBufferPointer, in raw: UnsafeRawBufferPointer) -> Int? {
    guard let base = raw.baseAddress, let pinBase = needle.baseAddress, !needle.isEmpty, raw.count >= needle.count
    else { return nil }
    let anchor = needle.indices.max { rarity(needle[$0]) < rarity(needle[$1]) }!
    // Where the anchor byte may sit: the needle must fit around it.
    var index = anchor
    let last = raw.count - needle.count + anchor
    while index <= last {
      guard let hit = memchr(base + index, Int32(needle[anchor]), last + 1 - index) else { return nil }
      let at = base.distance(to: UnsafeRawPointer(hit))
      if memcmp(base + at - anchor, pinBase, needle.count) == 0 { return at - anchor }
      index = at + 1
    }
    return nil
  }

  /// Bytes from common to rare in stats pages: markup, then letters by English frequency,
  /// digits, punctuation.
  private static let commonness = Array(#"<>/"= etaoinsrhldcu0123456789mpfgwybv.-:;k_x,#()'"#.utf8)

  /// How rare a byte is in a stats page (higher is rarer; bytes not listed are the rarest).
  public static func rarity(_ byte: UInt8) -> Int { rarities[Int(byte)] }

  /// `rarity` of every byte, worked out once (a search asks it of each byte of its needle).
  private static let rarities: [Int] = (0...255).map { value in
    let byte = UInt8(value)
    let lowered = byte &- 0x41 < 26 ? byte | 0x20 : byte
    return commonness.firstIndex(of: lowered) ?? commonness.count
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
