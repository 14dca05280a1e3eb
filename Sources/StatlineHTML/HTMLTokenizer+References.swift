import CLibXML2
import Foundation
import StatlineCore

/// Character and entity references, in text and in attribute values.
extension HTMLTokenizer {
  enum Reference {
    /// A decoded character, and where the reference ends.
    case character(UInt32, end: Int)
    /// `&` not followed by a name: the `&` is text.
    case noName
    /// A name that is no entity (or lacks its `;`): `&` and the name are text.
    case unknown(Range<Int>)
  }

  /// Reads the reference at `index` (`&`) as libxml2 does.
  mutating func reference(at index: Int) throws(Stop) -> Reference {
    if at(index + 1) == UInt8(ascii: "#") { return try characterReference(at: index) }
    let first = at(index + 1)
    if first >= 0x80 { throw .unsupported }
    guard Self.isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: ":") else { return .noName }
    var end = index + 2
    while Self.isNameByte(at(end)) { end += 1 }
    // At the end of the input, or before a non-ASCII byte, libxml2 reads the name otherwise.
    if end >= count || base[end] >= 0x80 { throw .unsupported }
    let name = (index + 1)..<end
    if base[end] == UInt8(ascii: ";"), let value = entity(name) { return .character(value, end: end + 1) }
    return .unknown(name)
  }

  mutating func entity(_ name: Range<Int>) -> UInt32? {
    guard name.count <= 8 else { return nil }  // the longest HTML 4 entity name has 8 letters
    let packed = HTMLElementRules.pack(UnsafeBufferPointer(start: base + name.lowerBound, count: name.count))
    for known in entities where known.name == packed { return known.value == 0 ? nil : known.value }
    var cName = [CChar](repeating: 0, count: name.count + 1)
    for offset in 0..<name.count { cName[offset] = CChar(bitPattern: base[name.lowerBound + offset]) }
    let value = cName.withUnsafeBufferPointer { buffer in
      htmlEntityLookup(UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: xmlChar.self))?.pointee.value ?? 0
    }
    entities.append((packed, value))
    return value == 0 ? nil : value
  }

  /// `&#…;` or `&#x…;`; anything else (no digits, no `;`, no character) leaves the subset.
  func characterReference(at index: Int) throws(Stop) -> Reference {
    var cursor = index + 2
    var value: UInt32 = 0
    var digits = 0
    if at(cursor) | 0x20 == UInt8(ascii: "x") {
      cursor += 1
      while true {
        let byte = at(cursor)
        let digit: UInt32
        if Self.isDigit(byte) {
          digit = UInt32(byte - 0x30)
        } else if (byte | 0x20) &- 0x61 < 6 {
          digit = UInt32((byte | 0x20) - 0x61 + 10)
        } else {
          break
        }
        if value < 0x110000 { value = value * 16 + digit }
        digits += 1
        cursor += 1
      }
    } else {
      while Self.isDigit(at(cursor)) {
        if value < 0x110000 { value = value * 10 + UInt32(at(cursor) - 0x30) }
        digits += 1
        cursor += 1
      }
    }
    guard digits > 0, at(cursor) == UInt8(ascii: ";"), Self.isCharacter(value) else { throw .unsupported }
    return .character(value, end: cursor + 1)
  }

  static func isCharacter(_ value: UInt32) -> Bool {
    value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
      || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
  }

  /// A reference in text: its character, or the `&` (and name) as they stand.
  mutating func reference() throws(Stop) {
    switch try reference(at: position) {
    case .character(let value, let end):
      position = end
      try checkParagraph()
      var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
      let length = withUnsafeMutableBytes(of: &bytes) { buffer in Self.encode(value, into: buffer) }
      withUnsafeBytes(of: &bytes) { buffer in
        textHandler(UnsafeBufferPointer(start: buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length))
      }
    case .noName:
      try checkParagraph()
      emitText(position..<(position + 1))
      position += 1
    case .unknown(let name):
      try checkParagraph()
      emitText(position..<(position + 1))
      emitText(name)
      position = name.upperBound
    }
  }

  static func encode(_ value: UInt32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
    switch value {
    case ..<0x80:
      buffer[0] = UInt8(value)
      return 1
    case ..<0x800:
      buffer[0] = UInt8(0xC0 | (value >> 6))
      buffer[1] = UInt8(0x80 | (value & 0x3F))
      return 2
    case ..<0x10000:
      buffer[0] = UInt8(0xE0 | (value >> 12))
      buffer[1] = UInt8(0x80 | ((value >> 6) & 0x3F))
      buffer[2] = UInt8(0x80 | (value & 0x3F))
      return 3
    default:
      buffer[0] = UInt8(0xF0 | (value >> 18))
      buffer[1] = UInt8(0x80 | ((value >> 12) & 0x3F))
      buffer[2] = UInt8(0x80 | ((value >> 6) & 0x3F))
      buffer[3] = UInt8(0x80 | (value & 0x3F))
      return 4
    }
  }
}
