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

  private let rules = HTMLElementRules.shared
  private let base: UnsafePointer<UInt8>
  private let count: Int
  private var position = 0
  private let maximumDepth: Int
  private let url: String?
  private let startHandler: (XMLName, HTMLAttributes) throws(StatlineError) -> Void
  private let endHandler: (XMLName) -> Void
  private let textHandler: (UnsafeBufferPointer<UInt8>) -> Void
  private let commentHandler: () -> Void

  private var stack: [Open] = []
  /// Misplaced `html`, `head` and `body` start tags dropped, whose end tags are dropped too.
  private var discarded = 0
  private(set) var elements = 0
  /// Where the first byte above ASCII is (`count`: none).
  private var firstNonASCII = 0
  /// libxml2 reads bytes above ASCII as UTF-8 only once it knows the encoding (from the caller,
  /// a byte-order mark or a `<meta>` before them); otherwise it guesses, and the page leaves
  /// the subset.
  private var knowsUTF8: Bool
  private var scratch: HTMLTokenizerScratch
  /// Entities met so far (name packed → code point), saving libxml2's linear lookup.
  private var entities: [(name: UInt64, value: UInt32)] = []

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
  private func at(_ index: Int) -> UInt8 { index < count ? base[index] : 0 }

  @inline(__always)
  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
  }

  @inline(__always)
  private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- 0x61 < 26 }

  @inline(__always)
  private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }

  @inline(__always)
  private mutating func skipBlanks() {
    while position < count, Self.isBlank(base[position]) { position += 1 }
  }

  /// Whether the bytes at `index` spell `word` (ASCII upper case), ignoring case.
  private func matchesUpper(_ word: StaticString, at index: Int) -> Bool {
    let bytes = word.utf8Start
    for offset in 0..<word.utf8CodeUnitCount where at(index + offset) & 0xDF != bytes[offset] { return false }
    return true
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
    if at(position) == UInt8(ascii: "<"), at(position + 1) == UInt8(ascii: "!"),
      matchesUpper("DOCTYPE", at: position + 2)
    {
      try doctype()
    }
    skipBlanks()
    try prolog()
    try content()
    if firstNonASCII < count && !knowsUTF8 { throw .unsupported }
  }

  /// Comments before the content (processing instructions are outside the subset).
  private mutating func prolog() throws(Stop) {
    while at(position) == UInt8(ascii: "<") {
      let next = at(position + 1)
      if next == UInt8(ascii: "?") { throw .unsupported }
      guard next == UInt8(ascii: "!"), at(position + 2) == UInt8(ascii: "-"), at(position + 3) == UInt8(ascii: "-")
      else { return }
      try comment()
      skipBlanks()
    }
  }

  /// `<!DOCTYPE name>`, optionally with a PUBLIC or SYSTEM identifier; nothing is delivered.
  private mutating func doctype() throws(Stop) {
    position += 9
    skipBlanks()
    guard Self.isLetter(at(position)) else { throw .unsupported }
    while Self.isLetter(at(position)) { position += 1 }
    skipBlanks()
    if matchesUpper("PUBLIC", at: position) {
      position += 6
      skipBlanks()
      try literal()
      skipBlanks()
      if at(position) == UInt8(ascii: "\"") || at(position) == UInt8(ascii: "'") { try literal() }
    } else if matchesUpper("SYSTEM", at: position) {
      position += 6
      skipBlanks()
      try literal()
    }
    skipBlanks()
    guard at(position) == UInt8(ascii: ">") else { throw .unsupported }
    position += 1
  }

  private mutating func literal() throws(Stop) {
    let quote = at(position)
    guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw .unsupported }
    position += 1
    while position < count, base[position] != quote {
      let byte = base[position]
      guard byte != UInt8(ascii: ">"), byte != UInt8(ascii: "<") else { throw .unsupported }
      position += 1
    }
    guard position < count else { throw .unsupported }
    position += 1
  }

  /// `<!-- … -->`: the reader hears that there was one.
  private mutating func comment() throws(Stop) {
    let body = position + 4
    // "<!-->" and "<!--->" end early in newer libxml2 only.
    if at(body) == UInt8(ascii: ">") || (at(body) == UInt8(ascii: "-") && at(body + 1) == UInt8(ascii: ">")) {
      throw .unsupported
    }
    var index = body
    while true {
      guard let dash = Self.find(UInt8(ascii: "-"), in: base, from: index, to: count) else { throw .unsupported }
      if at(dash + 1) == UInt8(ascii: "-") {
        if at(dash + 2) == UInt8(ascii: ">") {
          position = dash + 3
          commentHandler()
          return
        }
        if at(dash + 2) == UInt8(ascii: "!") && at(dash + 3) == UInt8(ascii: ">") { throw .unsupported }
      }
      index = dash + 1
    }
  }

  // MARK: - Content

  /// The content loop, in the order libxml2's `htmlParseContentInternal` tests its cases: its
  /// "current node" decides when script and style text is read raw.
  private mutating func content() throws(Stop) {
    var current: Open? = nil
    var mark = 0
    while true {
      let byte = at(position)
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
      switch byte {
      case UInt8(ascii: "<"):
        let next = at(position + 1)
        if next == UInt8(ascii: "!") {
          if matchesUpper("DOCTYPE", at: position + 2) {
            try doctype()
          } else if at(position + 2) == UInt8(ascii: "-") && at(position + 3) == UInt8(ascii: "-") {
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

  private static func same(_ current: Open?, _ top: Open) -> Bool {
    guard let current else { return false }
    return sameName(current, top)
  }

  @inline(__always)
  private static func sameName(_ a: Open, _ b: Open) -> Bool {
    if a.id != 0 || b.id != 0 { return a.id == b.id }
    return a.length == b.length && memcmp(a.name, b.name, a.length) == 0
  }

  /// The element name at `position + 1` as libxml2's look-ahead reads it (no dots), by id.
  private mutating func peekElement() throws(Stop) -> UInt8 {
    var index = position + 1
    while true {
      let byte = at(index)
      guard
        Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
          || byte == UInt8(ascii: "_")
      else { break }
      index += 1
    }
    // libxml2's two name readers disagree on dots; the subset has none.
    if at(index) == UInt8(ascii: ".") || index - position - 1 >= 100 { throw .unsupported }
    return lowerCaseId(from: position + 1, to: index)
  }

  private func lowerCaseId(from start: Int, to end: Int) -> UInt8 {
    let length = end - start
    if length <= 8 {
      var packed: UInt64 = 0
      for offset in 0..<length { packed |= UInt64(Self.lower(base[start + offset])) << (8 * UInt64(offset)) }
      return rules.id(packed: packed)
    }
    return rules.id(of: UnsafeBufferPointer(start: base + start, count: length).map(Self.lower))
  }

  /// Reads an HTML name at `position` (letters, digits, `:`, `-`, `_`, `.`; the first not a
  /// digit or `-`), lower-cased into the scratch name buffer. Nil when there is none.
  private mutating func name() throws(Stop) -> Range<Int>? {
    let first = at(position)
    guard
      Self.isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: ":")
        || first == UInt8(ascii: ".")
    else { return nil }
    let start = position
    while true {
      let byte = at(position)
      guard
        Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "-")
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
      else { break }
      position += 1
    }
    // libxml2 cuts names at 100 bytes; the subset's are shorter.
    guard position - start < 100 else { throw .unsupported }
    return start..<position
  }

  /// The id and a NUL-terminated lower-case copy of the name in `range` (kept while it is open).
  private mutating func element(named range: Range<Int>) -> Open {
    let id = lowerCaseId(from: range.lowerBound, to: range.upperBound)
    if id != 0 { return Open(id: id, name: rules.cNames[Int(id)], length: range.count) }
    let copy = scratch.keepName(base + range.lowerBound, count: range.count)
    return Open(id: 0, name: copy, length: range.count)
  }

  // MARK: - Tags

  /// A start tag at `position` (`<` and a letter): implied ends, the attributes, the element.
  private mutating func element() throws(Stop) {
    position += 1
    guard let range = try name() else { throw .unsupported }
    let open = element(named: range)
    try autoClose(open.id)
    var discard = false
    if open.id == HTMLElementRules.html && !stack.isEmpty
      || open.id == HTMLElementRules.head && stack.count != 1
    {
      discard = true
      discarded += 1
    }
    if open.id == HTMLElementRules.body {
      for entry in stack where entry.id == HTMLElementRules.body {
        discard = true
        discarded += 1
      }
    }
    try attributes()
    if open.id == HTMLElementRules.meta, scratch.attributeCount > 0, try checkMeta(), firstNonASCII >= position {
      knowsUTF8 = true
    }
    if discard {
      // libxml2 goes on with the innermost open element as the tag's element.
      guard let top = stack.last else {
        if at(position) == UInt8(ascii: ">") { position += 1 }
        return
      }
      if at(position) == UInt8(ascii: "/") {
        position += 2
        endHandler(XMLName(pointer: top.name))
        stack.removeLast()
      } else {
        position += 1
      }
      return
    }
    try push(open, attributes: true)
    if at(position) == UInt8(ascii: "/") {
      position += 2
      pop()
    } else {
      position += 1
      if rules.isEmpty(open.id) { pop() }
    }
  }

  /// The attributes up to `>` or `/>` (left at `position`), into the scratch buffers.
  private mutating func attributes() throws(Stop) {
    scratch.resetAttributes()
    skipBlanks()
    while true {
      let byte = at(position)
      if byte == 0 { throw .unsupported }
      if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") && at(position + 1) == UInt8(ascii: ">") { return }
      guard let range = try name() else { throw .unsupported }
      let nameStart = scratch.bytesCount
      for index in range { scratch.append(Self.lower(base[index])) }
      scratch.append(0)
      skipBlanks()
      var valueStart: Int? = nil
      if at(position) == UInt8(ascii: "=") {
        position += 1
        skipBlanks()
        valueStart = scratch.bytesCount
        try attributeValue()
        scratch.append(0)
      }
      if scratch.hasAttribute(named: nameStart, length: range.count) {
        scratch.truncate(to: nameStart)  // libxml2 keeps the first of a repeated attribute
      } else {
        scratch.addAttribute(name: nameStart, value: valueStart)
      }
      skipBlanks()
    }
  }

  @inline(__always)
  private static func isUpper(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }

  @inline(__always)
  private static func lower(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }

  private mutating func attributeValue() throws(Stop) {
    let quote = at(position)
    if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
      position += 1
      while true {
        let byte = at(position)
        if byte == 0 { throw .unsupported }
        if byte == quote { break }
        if byte == UInt8(ascii: "&") {
          try attributeReference()
        } else {
          scratch.append(byte)
          position += 1
        }
      }
      position += 1
      return
    }
    while true {
      let byte = at(position)
      if byte == 0 { throw .unsupported }
      if byte == UInt8(ascii: ">") || Self.isBlank(byte) { return }
      if byte == UInt8(ascii: "&") {
        try attributeReference()
      } else {
        scratch.append(byte)
        position += 1
      }
    }
  }

  /// A reference inside an attribute value, decoded as libxml2 decodes it.
  private mutating func attributeReference() throws(Stop) {
    switch try reference(at: position) {
    case .character(let value, let end):
      position = end
      scratch.appendUTF8(value)
    case .noName:
      position += 1
      scratch.append(UInt8(ascii: "&"))
    case .unknown(let name):
      position = name.upperBound
      scratch.append(UInt8(ascii: "&"))
      for index in name { scratch.append(base[index]) }
    }
  }

  /// `<meta>` may switch libxml2 to another encoding: only UTF-8 stays in the subset. True when
  /// it declares UTF-8.
  private func checkMeta() throws(Stop) -> Bool {
    var declares = false
    var httpEquiv = false
    var content: UnsafeBufferPointer<UInt8>?
    for index in 0..<scratch.attributeCount {
      let (name, value) = scratch.attribute(index)
      guard let value else { continue }
      if Self.equalsIgnoringCase(name, "http-equiv") {
        if Self.equalsIgnoringCase(value, "content-type") { httpEquiv = true }
      } else if Self.equalsIgnoringCase(name, "charset") {
        guard Self.isUTF8Name(value) else { throw .unsupported }
        declares = true
      } else if Self.equalsIgnoringCase(name, "content") {
        content = value
      }
    }
    guard httpEquiv, let content else { return declares }
    let lower = content.map(Self.lower)
    guard let found = Self.find(Array("charset".utf8), in: lower) else { return declares }
    var index = found + 7
    while index < lower.count, Self.isBlank(lower[index]) { index += 1 }
    guard index < lower.count, lower[index] == UInt8(ascii: "=") else { throw .unsupported }
    index += 1
    guard Self.isUTF8Name(UnsafeBufferPointer(rebasing: content[index...])) else { throw .unsupported }
    return true
  }

  private static func isUTF8Name(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
    equalsIgnoringCase(value, "utf-8") || equalsIgnoringCase(value, "utf8")
  }

  private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    for index in 0..<bytes.count where bytes[index] | 0x20 != word.utf8Start[index] | 0x20 { return false }
    return true
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where haystack[start..<(start + needle.count)].elementsEqual(needle) {
      return start
    }
    return nil
  }

  /// An end tag at `position` (`</`). True when it closed the innermost element.
  private mutating func endTag() throws(Stop) -> Bool {
    position += 2
    guard let range = try name() else { return false }
    skipBlanks()
    guard at(position) == UInt8(ascii: ">") else { throw .unsupported }
    position += 1
    let id = lowerCaseId(from: range.lowerBound, to: range.upperBound)
    if discarded > 0 && (id == HTMLElementRules.html || id == HTMLElementRules.body || id == HTMLElementRules.head) {
      discarded -= 1
      return false
    }
    let closing = id != 0 ? Open(id: id, name: rules.cNames[Int(id)], length: range.count) : lowerCopy(range)
    // Only an open element may be closed, and not past one that ranks higher.
    let priority = rules.priority(id)
    var index = stack.count - 1
    while index >= 0 {
      if Self.sameName(stack[index], closing) { break }
      if rules.priority(stack[index].id) > priority { return false }
      index -= 1
    }
    guard index >= 0 else { return false }
    while stack.count > index + 1 { pop() }
    pop()
    return true
  }

  private mutating func lowerCopy(_ range: Range<Int>) -> Open {
    let copy = scratch.keepName(base + range.lowerBound, count: range.count)
    return Open(id: 0, name: copy, length: range.count)
  }

  // MARK: - Elements

  private mutating func push(_ open: Open, attributes: Bool) throws(Stop) {
    stack.append(open)
    elements += 1
    guard stack.count <= maximumDepth else {
      throw .failed(DocumentLimits(maximumDepth: maximumDepth).depthRefusal(url: url))
    }
    let list = attributes && scratch.attributeCount > 0 ? scratch.pointers() : nil
    do throws(StatlineError) {
      try startHandler(XMLName(pointer: open.name), HTMLAttributes(base: list))
    } catch {
      throw .failed(error)
    }
  }

  @inline(__always)
  private mutating func pop() {
    let open = stack.removeLast()
    endHandler(XMLName(pointer: open.name))
  }

  /// Ends the innermost elements as long as a start tag `id` implies their end.
  private mutating func autoClose(_ id: UInt8) throws(Stop) {
    while let top = stack.last, rules.starting(id, closes: top.id) { pop() }
  }

  private mutating func closeAll() {
    while !stack.isEmpty { pop() }
  }

  /// Text where no element may hold it (none open, or `html` or `head`) opens a paragraph.
  private mutating func checkParagraph() throws(Stop) {
    if let top = stack.last, top.id != HTMLElementRules.html && top.id != HTMLElementRules.head { return }
    try autoClose(HTMLElementRules.p)
    scratch.resetAttributes()
    let p = HTMLElementRules.p
    try push(Open(id: p, name: rules.cNames[Int(p)], length: 1), attributes: false)
  }

  // MARK: - Text

  @inline(__always)
  private func emitText(_ range: Range<Int>) {
    textHandler(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  /// Text up to the next `<`, `&` or the end, in libxml2's runs of 1,000 bytes. A run that is
  /// only blanks before the end, or before a tag where no text belongs, is delivered as it is;
  /// any other run where no text belongs first opens a paragraph.
  private mutating func characters() throws(Stop) {
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

  private mutating func flush(_ range: Range<Int>) throws(Stop) {
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
  private static func sequenceLength(_ lead: UInt8) -> Int {
    lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
  }

  /// Script and style content, raw up to the end tag of the element (`</script`, any case).
  private mutating func rawText() throws(Stop) {
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

  private func matchesName(_ open: Open, at index: Int) -> Bool {
    guard index + open.length <= count else { return false }
    for offset in 0..<open.length where base[index + offset] | 0x20 != open.name[offset] { return false }
    return true
  }

  // MARK: - References

  enum Reference {
    /// A decoded character, and where the reference ends.
    case character(UInt32, end: Int)
    /// `&` not followed by a name: the `&` is text.
    case noName
    /// A name that is no entity (or lacks its `;`): `&` and the name are text.
    case unknown(Range<Int>)
  }

  /// Reads the reference at `index` (`&`) as libxml2 does.
  private mutating func reference(at index: Int) throws(Stop) -> Reference {
    if at(index + 1) == UInt8(ascii: "#") { return try characterReference(at: index) }
    let first = at(index + 1)
    if first >= 0x80 { throw .unsupported }
    guard Self.isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: ":") else { return .noName }
    var end = index + 2
    while true {
      let byte = at(end)
      guard
        Self.isLetter(byte) || Self.isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
          || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
      else { break }
      end += 1
    }
    // At the end of the input, or before a non-ASCII byte, libxml2 reads the name otherwise.
    if end >= count || base[end] >= 0x80 { throw .unsupported }
    let name = (index + 1)..<end
    if base[end] == UInt8(ascii: ";"), let value = entity(name) { return .character(value, end: end + 1) }
    return .unknown(name)
  }

  private mutating func entity(_ name: Range<Int>) -> UInt32? {
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
  private func characterReference(at index: Int) throws(Stop) -> Reference {
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

  private static func isCharacter(_ value: UInt32) -> Bool {
    value == 0x9 || value == 0xA || value == 0xD || (0x20...0xD7FF).contains(value)
      || (0xE000...0xFFFD).contains(value) || (0x10000...0x10FFFF).contains(value)
  }

  /// A reference in text: its character, or the `&` (and name) as they stand.
  private mutating func reference() throws(Stop) {
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

  // MARK: - Helpers

  @inline(__always)
  static func find(_ byte: UInt8, in base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int? {
    guard from < end, let found = memchr(base + from, Int32(byte), end - from) else { return nil }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
  }

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
      for offset in 2..<(length < 2 ? 2 : length) where base[index + offset] & 0xC0 != 0x80 { return nil }
      if lead == 0xEF, base[index + 1] == 0xBF, base[index + 2] >= 0xBE { return nil }
      index += length
    }
    return firstNonASCII
  }
}
