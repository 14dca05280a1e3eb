import Foundation

/// Fast, stable 64-bit content hashes for "did this change" decisions: a page body against the
/// last one (`xxh64`), a record against its stored version (`fnv1a`). Not for security.
public enum ContentHash {
  /// FNV-1a (64-bit): a byte at a time, for the short canonical JSON of a record (what the
  /// stores keep; changing it would make every stored record look changed once).
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

  /// XXH64 (seed 0) of `data`: 32 bytes a step in four independent lanes, where FNV-1a waits on
  /// a multiply per byte (on a live cycle's 92 KB pages, FNV-1a was 2.5 % of the job's CPU).
  public static func xxh64(_ data: Data) -> UInt64 {
    data.withUnsafeBytes { XXH64.hash(UnsafeRawBufferPointer($0)) }
  }
}

/// XXH64, as specified by xxHash (github.com/Cyan4973/xxHash, doc/xxhash_spec.md), seed 0.
enum XXH64 {
  static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
  static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63
  static let prime5: UInt64 = 0x27D4_EB2F_1656_67C5

  @inline(__always) static func rotl(_ value: UInt64, _ bits: UInt64) -> UInt64 {
    (value << bits) | (value >> (64 - bits))
  }

  @inline(__always) static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
    rotl(accumulator &+ input &* prime2, 31) &* prime1
  }

  @inline(__always) static func merge(_ hash: UInt64, _ lane: UInt64) -> UInt64 {
    (hash ^ round(0, lane)) &* prime1 &+ prime4
  }

  @inline(__always) static func word(_ bytes: UnsafeRawBufferPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let count = bytes.count
    var offset = 0
    var hash: UInt64
    if count >= 32 {
      var (v1, v2, v3, v4) = (prime1 &+ prime2, prime2, UInt64(0), 0 &- prime1)
      while offset + 32 <= count {
        v1 = round(v1, word(bytes, offset))
        v2 = round(v2, word(bytes, offset + 8))
        v3 = round(v3, word(bytes, offset + 16))
        v4 = round(v4, word(bytes, offset + 24))
        offset += 32
      }
      hash = rotl(v1, 1) &+ rotl(v2, 7) &+ rotl(v3, 12) &+ rotl(v4, 18)
      hash = merge(merge(merge(merge(hash, v1), v2), v3), v4)
    } else {
      hash = prime5
    }
    hash = hash &+ UInt64(count)
    while offset + 8 <= count {
      hash = rotl(hash ^ round(0, word(bytes, offset)), 27) &* prime1 &+ prime4
      offset += 8
    }
    if offset + 4 <= count {
      let half = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
      hash = rotl(hash ^ (half &* prime1), 23) &* prime2 &+ prime3
      offset += 4
    }
    while offset < count {
      hash = rotl(hash ^ (UInt64(bytes[offset]) &* prime5), 11) &* prime1
      offset += 1
    }
    hash ^= hash >> 33
    hash = hash &* prime2
    hash ^= hash >> 29
    hash = hash &* prime3
    return hash ^ (hash >> 32)
  }
}
