import CLibXML2
import Foundation
import StatlineCore

/// The check that keeps a page in the subset's encoding.
extension HTMLTokenizer {
  /// Whether the bytes are well-formed UTF-8 without NUL, control characters (other than tab,
  /// line feed and carriage return) or the non-characters U+FFFE and U+FFFF: what libxml2 reads
  /// as it stands, without switching encodings or dropping characters. Returns where the first
  /// byte above ASCII is (`count` when there is none), nil when they are not.
  static func plainUTF8(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int? {
    var index = 0
    var firstNonASCII = count
    let high: UInt64 = 0x8080_8080_8080_8080
    let spaces: UInt64 = 0x2020_2020_2020_2020
    while index < count {
      if index + 8 <= count {
        let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)
        if word & high == 0 && (word &- spaces) & ~word & high == 0 {
          index += 8
          continue
        }
      }
      let lead = base[index]
      if lead < 0x80 {
        if lead < 0x20 && lead != 0x09 && lead != 0x0A && lead != 0x0D { return nil }
        index += 1
        continue
      }
      if firstNonASCII == count { firstNonASCII = index }
      let length: Int
      var low: UInt8 = 0x80
      var upper: UInt8 = 0xBF
      switch lead {
      case 0xC2...0xDF: length = 2
      case 0xE0:
        length = 3
        low = 0xA0
      case 0xE1...0xEC, 0xEE...0xEF: length = 3
      case 0xED:
        length = 3
        upper = 0x9F
      case 0xF0:
        length = 4
        low = 0x90
      case 0xF1...0xF3: length = 4
      case 0xF4:
        length = 4
        upper = 0x8F
      default: return nil
      }
      guard index + length <= count, base[index + 1] >= low, base[index + 1] <= upper else { return nil }
      for offset in 2..<length where base[index + offset] & 0xC0 != 0x80 { return nil }
      if lead == 0xEF, base[index + 1] == 0xBF, base[index + 2] >= 0xBE { return nil }
      index += length
    }
    return firstNonASCII
  }
}
