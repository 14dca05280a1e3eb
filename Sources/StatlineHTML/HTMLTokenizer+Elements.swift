import CLibXML2
import Foundation
import StatlineCore

/// The open elements: pushing and popping them with their events, the ends libxml2 implies.
extension HTMLTokenizer {
  mutating func push(_ open: Open, attributes: Bool) throws(Stop) {
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
  mutating func pop() {
    let open = stack.removeLast()
    endHandler(XMLName(pointer: open.name))
  }

  /// Ends the innermost elements as long as a start tag `id` implies their end.
  mutating func autoClose(_ id: UInt8) throws(Stop) {
    while let top = stack.last, rules.starting(id, closes: top.id) { pop() }
  }

  mutating func closeAll() {
    while !stack.isEmpty { pop() }
  }

  /// Text where no element may hold it (none open, or `html` or `head`) opens a paragraph.
  mutating func checkParagraph() throws(Stop) {
    if let top = stack.last, top.id != HTMLElementRules.html && top.id != HTMLElementRules.head { return }
    try autoClose(HTMLElementRules.p)
    let p = HTMLElementRules.p
    try push(Open(id: p, name: rules.cNames[Int(p)], length: 1), attributes: false)
  }
}
