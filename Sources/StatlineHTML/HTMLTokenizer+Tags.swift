import CLibXML2
import Foundation
import StatlineCore

/// Start and end tags: names, attributes and their values, `<meta>`'s encoding.
extension HTMLTokenizer {
  /// A start tag at `position` (`<` and a letter): implied ends, the attributes, the element.
  mutating func element() throws(Stop) {
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
  mutating func attributes() throws(Stop) {
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
  static func isUpper(_ byte: UInt8) -> Bool { byte &- 0x41 < 26 }

  @inline(__always)
  static func lower(_ byte: UInt8) -> UInt8 { isUpper(byte) ? byte | 0x20 : byte }

  mutating func attributeValue() throws(Stop) {
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
  mutating func attributeReference() throws(Stop) {
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
  func checkMeta() throws(Stop) -> Bool {
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
    guard let found = ByteSearch.offset(of: Array("charset".utf8), in: Data(lower)) else { return declares }
    var index = found + 7
    while index < lower.count, Self.isBlank(lower[index]) { index += 1 }
    guard index < lower.count, lower[index] == UInt8(ascii: "=") else { throw .unsupported }
    index += 1
    guard Self.isUTF8Name(UnsafeBufferPointer(rebasing: content[index...])) else { throw .unsupported }
    return true
  }

  static func isUTF8Name(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
    equalsIgnoringCase(value, "utf-8") || equalsIgnoringCase(value, "utf8")
  }

  static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
    guard bytes.count == word.utf8CodeUnitCount else { return false }
    for index in 0..<bytes.count where bytes[index] | 0x20 != word.utf8Start[index] | 0x20 { return false }
    return true
  }

  /// An end tag at `position` (`</`). True when it closed the innermost element.
  mutating func endTag() throws(Stop) -> Bool {
    position += 2
    guard let range = try name() else { return false }
    skipBlanks()
    guard at(position) == UInt8(ascii: ">") else { throw .unsupported }
    position += 1
    let closing = element(named: range)
    let id = closing.id
    if discarded > 0 && (id == HTMLElementRules.html || id == HTMLElementRules.body || id == HTMLElementRules.head) {
      discarded -= 1
      return false
    }
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
}
