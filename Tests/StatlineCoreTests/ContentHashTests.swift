import Foundation
import StatlineCore
import Testing

/// The page-body hash is XXH64: checked against the reference implementation's published values
/// at every length class (under 4 bytes, 4–7, 8–31, one 32-byte stripe, beyond), and for the
/// property the poller relies on: any one changed byte of a page changes it.
@Suite struct ContentHashTests {
  @Test(arguments: [
    ("", 0xef46_db37_51d8_e999 as UInt64),
    ("a", 0xd24e_c4f1_a98c_6e5b),
    ("abc", 0x44bc_2cf5_ad77_0999),
    ("1234", 0xd831_6e61_d84f_6ba4),
    ("12345678", 0xd2d0_2f08_cf7c_fd4a),
    ("123456789012345", 0xc377_d78a_de00_1a3c),
    ("1234567890123456", 0xb61c_33dc_6c59_f270),
    ("1234567890123456789012345678901", 0x8f36_7cb8_73a5_376e),
    ("12345678901234567890123456789012", 0x40fd_1aa5_2d98_274c),
    ("The quick brown fox jumps over the lazy dog", 0x0b24_2d36_1fda_71bc),
  ])
  func xxh64MatchesTheReference(text: String, expected: UInt64) {
    #expect(ContentHash.xxh64(Data(text.utf8)) == expected)
  }

  @Test func everyOneByteChangeOfAPageChangesItsHash() {
    let page = Data((0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
    var seen: Set<UInt64> = [ContentHash.xxh64(page)]
    for index in page.indices {
      var changed = page
      changed[index] ^= 0x01
      seen.insert(ContentHash.xxh64(changed))
    }
    #expect(seen.count == page.count + 1)
    #expect(ContentHash.xxh64(page.prefix(999)) != ContentHash.xxh64(page), "a shorter page")
  }

  @Test func aSliceHashesAsItsBytes() {
    let data = Data("xxThe quick brown fox jumps over the lazy dog".utf8).dropFirst(2)
    #expect(ContentHash.xxh64(data) == 0x0b24_2d36_1fda_71bc)
  }

  @Test func fnv1aIsUnchanged() {
    // Stored record hashes are FNV-1a: a different hash would make every stored record look changed.
    #expect(ContentHash.fnv1a(Data("abc".utf8)) == 0xe71f_a219_0541_574b)
    #expect(ContentHash.fnv1a(Data()) == 0xcbf2_9ce4_8422_2325)
  }
}
