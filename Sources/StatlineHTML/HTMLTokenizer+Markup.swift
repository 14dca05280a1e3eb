import CLibXML2
import Foundation
import StatlineCore

/// The markup before and between elements: comments and the doctype, which deliver nothing
/// but a comment event.
extension HTMLTokenizer {
  /// Comments before the content (processing instructions are outside the subset).
  mutating func prolog() throws(Stop) {
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
  mutating func doctype() throws(Stop) {
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

  mutating func literal() throws(Stop) {
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
  mutating func comment() throws(Stop) {
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
}
