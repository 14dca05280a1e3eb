import CLibXML2
import Foundation
import StatlineCore

/// HTML read in Swift, giving a stream reader exactly the events libxml2 2.9's HTML parser gives
/// it with `Document.html`'s options (tag soup recovered the same way: the same implied end
/// tags, the same dropped end tags, the same decoded text), for pages inside a subset that real
/// pages stay in: UTF-8 without control characters, well-formed tags, comments and references.
/// A page outside it is `unsupported`, possibly after some events, and `HTMLStream` reads it
/// again with libxml2. Differential tests and a fuzz target hold the two to the same events.
///
/// libxml2 spends most of a large page's time in its tokenizer; this one reads text and
/// attribute values in place and knows the element rules by number.
struct HTMLTokenizer {
  enum Stop: Error {
    /// The page leaves the subset: read it with libxml2.
    case unsupported
    case failed(StatlineError)
  }

  struct Open {
    var id: UInt8
    var name: UnsafePointer<UInt8>
    var length: Int
  }

  let rules = HTMLElementRules.shared
  let base: UnsafePointer<UInt8>
  let count: Int
  var position = 0
  let maximumDepth: Int
  let url: String?
  let startHandler: (XMLName, HTMLAttributes) throws(StatlineError) -> Void
  let endHandler: (XMLName) -> Void
  let textHandler: (UnsafeBufferPointer<UInt8>) -> Void
  let commentHandler: () -> Void

  var stack: [Open] = []
  /// Misplaced `html`, `head` and `body` start tags dropped, whose end tags are dropped too.
  var discarded = 0
  var elements = 0
  /// Where the first byte above ASCII is (`count`: none).
  var firstNonASCII = 0
  /// libxml2 reads bytes above ASCII as UTF-8 only once it knows the encoding (from the caller,
  /// a byte-order mark or a `<meta>` before them); otherwise it guesses, and the page leaves
  /// the subset.
  var knowsUTF8: Bool
  var scratch: HTMLTokenizerScratch
  /// Entities met so far (name packed → code point), saving libxml2's linear lookup.
  var entities: [(name: UInt64, value: UInt32)] = []

  init(
    bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, url: String?, declaredUTF8: Bool,
    start: @escaping (XMLName, HTMLAttributes) throws(StatlineError) -> Void, end: @escaping (XMLName) -> Void,
    text: @escaping (UnsafeBufferPointer<UInt8>) -> Void, comment: @escaping () -> Void
  ) {
    self.base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
    self.count = bytes.count
    self.maximumDepth = maximumDepth
    self.url = url
    self.startHandler = start
    self.endHandler = end
    self.textHandler = text
    self.commentHandler = comment
    self.scratch = HTMLTokenizerScratch()
    self.knowsUTF8 = declaredUTF8
  }

  // MARK: - Bytes

  /// The byte at `index`, 0 past the end (the subset has no NUL bytes, so 0 is the end).
  @inline(__always)
  func at(_ index: Int) -> UInt8 { index < count ? base[index] : 0 }

  @inline(__always)
  static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  @inline(__always)
  static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

  @inline(__always)
  static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  /// A byte of an HTML name after its first: letters, digits, `:`, `-`, `_`, `.` (libxml2's
  /// name readers; its look-ahead one leaves out the dot).
  @inline(__always)
  static func isNameByte(_ byte: UInt8) -> Bool {
    isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
      || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
  }

  @inline(__always)
  mutating func skipBlanks() {
    while position < count, Self.isBlank(base[position]) { position += 1 }
  }

  /// Whether the bytes at `index` spell `word` (ASCII upper case), ignoring case.
  func matchesUpper(_ word: StaticString, at index: Int) -> Bool {
    let bytes = word.utf8Start
    for offset in 0..<word.utf8CodeUnitCount where at(index + offset) & 0xDF != bytes[offset] { return false }
    return true
  }

  /// Whether `<!DOCTYPE` (any case) starts at `position`.
  func atDoctype() -> Bool {
    at(position) == UInt8(ascii: "<") && at(position + 1) == UInt8(ascii: "!")
      && matchesUpper("DOCTYPE", at: position + 2)
  }

  // MARK: - The document

  /// Reads the whole page. Throws `.unsupported` when it leaves the subset.
  mutating func read() throws(Stop) {
    defer { scratch.release() }
    guard let firstNonASCII = Self.plainUTF8(base, count) else { throw .unsupported }
    self.firstNonASCII = firstNonASCII
    if count >= 3, base[0] == 0xEF, base[1] == 0xBB, base[2] == 0xBF {
      position = 3
      knowsUTF8 = true
    }
    skipBlanks()
    try prolog()
    if atDoctype() { try doctype() }
    skipBlanks()
    try prolog()
    try content()
    if firstNonASCII < count && !knowsUTF8 { throw .unsupported }
  }

  // MARK: - Content

  /// The content loop, in the order libxml2's `htmlParseContentInternal` tests its cases: its
  /// "current node" decides when script and style text is read raw.
  mutating func content() throws(Stop) {
    var current: Open? = nil
    var mark = 0
    while true {
      var byte = at(position)
      if byte == UInt8(ascii: "<") {
        let next = at(position + 1)
        if next == UInt8(ascii: "/") {
          if try endTag(), current != nil || stack.isEmpty {
            current = stack.last
            mark = stack.count
          }
          continue
        }
        if Self.isLetter(next) || next == UInt8(ascii: "_") || next == UInt8(ascii: ":") {
          // A start tag that ends the innermost element ends it before anything else.
          let id = try peekElement()
          if let top = stack.last, rules.starting(id, closes: top.id) {
            try autoClose(id)
            continue
          }
        }
      }
      if let top = stack.last, mark >= stack.count, !Self.same(current, top) {
        current = top
        mark = stack.count
        continue
      }
      if byte != 0, let node = current, node.id == HTMLElementRules.script || node.id == HTMLElementRules.style {
        try rawText()
        continue
      }
      if atDoctype() {
        // A misplaced doctype: libxml2 reads it and goes on in the same turn of its loop, so
        // what follows skips the tests above (an end tag right after it is text).
        try doctype()
        byte = at(position)
      }
      switch byte {
      case UInt8(ascii: "<"):
        let next = at(position + 1)
        if next == UInt8(ascii: "!") {
          if at(position + 2) == UInt8(ascii: "-") && at(position + 3) == UInt8(ascii: "-") {
            try comment()
          } else {
            throw .unsupported
          }
        } else if next == UInt8(ascii: "?") {
          throw .unsupported
        } else if Self.isLetter(next) {
          try element()
          current = stack.last
          mark = stack.count
        } else {
          // A lone "<" is text, delivered as it is (no paragraph check, as in libxml2).
          emitText(position..<(position + 1))
          position += 1
        }
      case UInt8(ascii: "&"):
        try reference()
      case 0:
        closeAll()
        return
      default:
        try characters()
      }
    }
  }

  static func same(_ current: Open?, _ top: Open) -> Bool {
    guard let current else { return false }
    return sameName(current, top)
  }

  @inline(__always)
  static func sameName(_ a: Open, _ b: Open) -> Bool {
    if a.id != 0 || b.id != 0 { return a.id == b.id }
    return a.length == b.length && memcmp(a.name, b.name, a.length) == 0
  }

  /// The element name at `position + 1` as libxml2's look-ahead reads it (no dots), by id.
  mutating func peekElement() throws(Stop) -> UInt8 {
    var index = position + 1
    while Self.isNameByte(at(index)) && at(index) != UInt8(ascii: ".") { index += 1 }
    // libxml2's two name readers disagree on dots; the subset has none.
    if at(index) == UInt8(ascii: ".") || index - position - 1 >= 100 { throw .unsupported }
    return lowerCaseId(from: position + 1, to: index)
  }

  func lowerCaseId(from start: Int, to end: Int) -> UInt8 {
    let length = end - start
    if length <= 8 {
      var packed: UInt64 = 0
      for offset in 0..<length { packed |= UInt64(Self.lower(base[start + offset])) << (8 * UInt64(offset)) }
      return rules.id(packed: packed)
    }
    return rules.id(of: UnsafeBufferPointer(start: base + start, count: length).map(Self.lower))
  }

  /// Reads an HTML name at `position` (name bytes, the first not a digit or `-`): its range in
  /// the input, as written. Nil when there is none.
  mutating func name() throws(Stop) -> Range<Int>? {
    let first = at(position)
    guard
      Self.isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: ":")
        || first == UInt8(ascii: ".")
    else { return nil }
    let start = position
    while Self.isNameByte(at(position)) { position += 1 }
    // libxml2 cuts names at 100 bytes; the subset's are shorter.
    guard position - start < 100 else { throw .unsupported }
    return start..<position
  }

  /// The id and a NUL-terminated lower-case copy of the name in `range` (kept while it is open).
  mutating func element(named range: Range<Int>) -> Open {
    let id = lowerCaseId(from: range.lowerBound, to: range.upperBound)
    if id != 0 { return Open(id: id, name: rules.cNames[Int(id)], length: range.count) }
    let copy = scratch.keepName(base + range.lowerBound, count: range.count)
    return Open(id: 0, name: copy, length: range.count)
  }

  // MARK: - Helpers

  @inline(__always)
  static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
    guard from < end, let found = memchr(base + from, Int32(byte), end - from) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }
}
