import CLibXML2
import Foundation
import StatlineCore

/// Text: runs between tags as libxml2 cuts and checks them, and raw script and style text.
extension HTMLTokenizer {
  @inline(__always)
  func emitText(_ range: Range<Int>) {
    textHandler(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  /// Text up to the next `<`, `&` or the end, in libxml2's runs of 1,000 bytes. A run that is
  /// only blanks before the end, or before a tag where no text belongs, is delivered as it is;
  /// any other run where no text belongs first opens a paragraph.
  mutating func characters() throws(Stop) {
    let start = position
    var index = position
    while index < count {
      let byte = base[index]
      if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "&") { break }
      index += 1
    }
    position = index
    if index - start < 1000 { return try flush(start..<index) }
    var chunk = start
    var cursor = start
    while cursor < index {
      cursor += Self.sequenceLength(base[cursor])
      if cursor - chunk >= 1000 {
        try flush(chunk..<cursor)
        chunk = cursor
      }
    }
    if chunk < index { try flush(chunk..<index) }
  }

  mutating func flush(_ range: Range<Int>) throws(Stop) {
    if let top = stack.last, top.id != HTMLElementRules.html && top.id != HTMLElementRules.head {
      return emitText(range)
    }
    let next = at(range.upperBound)
    if next == 0 || next == UInt8(ascii: "<") {
      var blank = true
      for index in range where !Self.isBlank(base[index]) {
        blank = false
        break
      }
      if blank { return emitText(range) }
    }
    try checkParagraph()
    emitText(range)
  }

  @inline(__always)
  static func sequenceLength(_ lead: UInt8) -> Int {
    lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
  }

  /// Script and style content, raw up to the end tag of the element (`</script`, any case).
  mutating func rawText() throws(Stop) {
    let start = position
    // With no element open (a start tag ended the script), libxml2 stops at any end tag.
    let top = stack.last
    var index = position
    while true {
      guard let less = Self.find(UInt8(ascii: "<"), in: base, from: index, to: count) else {
        index = count
        break
      }
      if at(less + 1) == UInt8(ascii: "/") && (top.map { matchesName($0, at: less + 2) } ?? true) {
        index = less
        break
      }
      index = less + 1
    }
    position = index
    if index > start { emitText(start..<index) }
  }

  func matchesName(_ open: Open, at index: Int) -> Bool {
    guard index + open.length <= count else { return false }
    for offset in 0..<open.length where base[index + offset] | 0x20 != open.name[offset] { return false }
    return true
  }
}
