import Foundation

/// A fast, stable 64-bit content hash (FNV-1a), for "did this change" decisions: a page body
/// against the last one, a record against its stored version. Not for security.
public enum ContentHash {
  public static func fnv1a<Bytes: Sequence>(_ bytes: Bytes) -> UInt64 where Bytes.Element == UInt8 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash = hash &* 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// The same hash over `Data` without its element-by-element iterator.
  public static func fnv1a(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { raw in fnv1a(raw.bindMemory(to: UInt8.self)) }
  }
}
