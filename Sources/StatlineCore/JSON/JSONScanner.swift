/// A text that is not JSON: what was wrong and where (byte offset, line and column, 1-based).
public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
  public var problem: String
  public var offset: Int
  public var line: Int
  public var column: Int

  public var description: String { "\(problem) at line \(line), column \(column) (byte \(offset))" }
}

/// One pass over the bytes that checks the grammar and writes the tape. Recursive by container,
/// bounded by `JSONDocument.maximumDepth`.
struct JSONScanner {
  private let bytes: UnsafeBufferPointer<UInt8>
  private var at = 0
  private(set) var tape: JSONTapeBuffer

  init(_ bytes: UnsafeBufferPointer<UInt8>) {
    self.bytes = bytes
    // A rough count of values (one per 16 bytes of a typical feed) saves most of the regrowth.
    tape = JSONTapeBuffer(capacity: bytes.count / 16)
  }

  mutating func scanDocument() throws(JSONSyntaxError) {
    guard bytes.count < Int(UInt32.max) else { throw error("the text is over 4 GiB") }
    if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { at = 3 }
    try value(depth: 0)
    skipSpace()
    guard at == bytes.count else { throw error("more text after the JSON value") }
  }

  /// Steps over whitespace; a run of spaces (a pretty-printed answer's indentation, half of its
  /// bytes) eight at a time.
  private mutating func skipSpace() {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return }
    while at < bytes.count {
      switch bytes[at] {
      case 0x20, 0x0A, 0x0D, 0x09:
        at += 1
        while at + 8 <= bytes.count, base.loadUnaligned(fromByteOffset: at, as: UInt64.self) == 0x2020_2020_2020_2020 {
          at += 8
        }
      default: return
      }
    }
  }

  private mutating func value(depth: Int) throws(JSONSyntaxError) {
    skipSpace()
    guard at < bytes.count else { throw error("the text ends where a value was expected") }
    switch bytes[at] {
    case UInt8(ascii: "{"): try container(object: true, depth: depth)
    case UInt8(ascii: "["): try container(object: false, depth: depth)
    case UInt8(ascii: "\""): try string()
    case UInt8(ascii: "t"): try literal("true", kind: .bool, flag: true)
    case UInt8(ascii: "f"): try literal("false", kind: .bool, flag: false)
    case UInt8(ascii: "n"): try literal("null", kind: .null, flag: false)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
    default: throw error("\(shown(bytes[at])) where a value was expected")
    }
  }

  private mutating func container(object: Bool, depth: Int) throws(JSONSyntaxError) {
    guard depth < JSONDocument.maximumDepth else {
      throw error("the values nest deeper than \(JSONDocument.maximumDepth) levels")
    }
    let index = tape.count
    tape.append(JSONTapeEntry(kind: object ? .object : .array, start: at))
    let close = object ? UInt8(ascii: "}") : UInt8(ascii: "]")
    at += 1
    skipSpace()
    var count = 0
    if at < bytes.count, bytes[at] == close {
      at += 1
    } else {
      while true {
        if object {
          skipSpace()
          guard at < bytes.count, bytes[at] == UInt8(ascii: "\"") else {
            throw error(
              at < bytes.count ? "\(shown(bytes[at])) where a key was expected" : "the text ends inside an object")
          }
          try string()
          skipSpace()
          guard at < bytes.count, bytes[at] == UInt8(ascii: ":") else { throw error("a key without ':' after it") }
          at += 1
        }
        try value(depth: depth + 1)
        count += 1
        skipSpace()
        guard at < bytes.count else { throw error("the text ends inside an \(object ? "object" : "array")") }
        if bytes[at] == UInt8(ascii: ",") {
          at += 1
          // A comma before the close is let through, as Foundation's reader lets it through:
          // a feed that read before must not be refused for it now.
          skipSpace()
          if at < bytes.count, bytes[at] == close {
            at += 1
            break
          }
          continue
        }
        guard bytes[at] == close else {
          throw error("\(shown(bytes[at])) where ',' or '\(object ? "}" : "]")' was expected")
        }
        at += 1
        break
      }
    }
    tape[index].end = UInt32(truncatingIfNeeded: tape.count)
    tape[index].count = UInt32(truncatingIfNeeded: count)
  }

  private mutating func string() throws(JSONSyntaxError) {
    at += 1
    let start = at
    var escaped = false
    while true {
      skipPlainBytes()
      guard at < bytes.count else { throw error("a string without its closing quote", at: start - 1) }
      let byte = bytes[at]
      if byte == UInt8(ascii: "\"") { break }
      if byte == UInt8(ascii: "\\") {
        escaped = true
        guard at + 1 < bytes.count else { throw error("a string without its closing quote", at: start - 1) }
        switch bytes[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
          UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
          at += 2
        case UInt8(ascii: "u"):
          guard at + 5 < bytes.count, (2...5).allSatisfy({ JSONScanner.hex(bytes[at + $0]) != nil }) else {
            throw error("'\\u' without four hexadecimal digits")
          }
          at += 6
        default:
          throw error("an unknown escape '\\\(shown(bytes[at + 1], quoted: false))'")
        }
        continue
      }
      guard byte >= 0x20 else { throw error("a control character (\(byte)) inside a string") }
      at += 1
    }
    tape.append(JSONTapeEntry(kind: .string, flag: escaped, start: start, end: at))
    at += 1
  }

  /// Steps over string bytes that need no look (no quote, no backslash, no control character),
  /// eight at a time: most of a feed's bytes are the text of its strings.
  private mutating func skipPlainBytes() {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return }
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    while at + 8 <= bytes.count {
      let word = base.loadUnaligned(fromByteOffset: at, as: UInt64.self)
      // A byte of the word is zero (x - 1 borrows into its high bit); checked for the word
      // itself XOR a quote, XOR a backslash, and for bytes under 0x20.
      func zeroByte(_ x: UInt64) -> UInt64 { (x &- ones) & ~x & highs }
      let special =
        zeroByte(word ^ (ones &* 0x22)) | zeroByte(word ^ (ones &* 0x5C)) | ((word &- ones &* 0x20) & ~word & highs)
      // The lowest flagged byte is exact (a borrow only flags bytes above a real one): step
      // straight to it (the word was loaded little-endian, its first byte lowest).
      if special != 0 {
        at += special.trailingZeroBitCount >> 3
        return
      }
      at += 8
    }
  }

  private mutating func number() throws(JSONSyntaxError) {
    let start = at
    if bytes[at] == UInt8(ascii: "-") { at += 1 }
    guard at < bytes.count, isDigit(bytes[at]) else { throw error("a '-' without digits", at: start) }
    if bytes[at] == UInt8(ascii: "0") {
      at += 1
    } else {
      while at < bytes.count, isDigit(bytes[at]) { at += 1 }
    }
    var fraction = false
    if at < bytes.count, bytes[at] == UInt8(ascii: ".") {
      fraction = true
      at += 1
      guard at < bytes.count, isDigit(bytes[at]) else { throw error("a '.' without digits after it") }
      while at < bytes.count, isDigit(bytes[at]) { at += 1 }
    }
    if at < bytes.count, bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E") {
      fraction = true
      at += 1
      if at < bytes.count, bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
      guard at < bytes.count, isDigit(bytes[at]) else { throw error("an exponent without digits") }
      while at < bytes.count, isDigit(bytes[at]) { at += 1 }
    }
    tape.append(JSONTapeEntry(kind: .number, flag: fraction, start: start, end: at))
  }

  private mutating func literal(_ word: StaticString, kind: JSONKind, flag: Bool) throws(JSONSyntaxError) {
    let count = word.utf8CodeUnitCount
    guard at + count <= bytes.count,
      (0..<count).allSatisfy({ bytes[at + $0] == word.utf8Start[$0] })
    else { throw error("\(shown(bytes[at])) where a value was expected") }
    tape.append(JSONTapeEntry(kind: kind, flag: flag, start: at, end: at + count))
    at += count
  }

  private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  static func hex(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }

  private func shown(_ byte: UInt8, quoted: Bool = true) -> String {
    let text =
      byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "byte 0x\(String(byte, radix: 16, uppercase: true))"
    return quoted && byte >= 0x20 && byte < 0x7F ? "'\(text)'" : text
  }

  private func error(_ problem: String, at offset: Int? = nil) -> JSONSyntaxError {
    let offset = min(offset ?? at, bytes.count)
    var line = 1
    var lineStart = 0
    for index in 0..<offset where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    return JSONSyntaxError(problem: problem, offset: offset, line: line, column: offset - lineStart + 1)
  }
}
