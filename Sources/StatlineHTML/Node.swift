import CLibXML2
import Foundation
import StatlineCore

/// An element (or other node) of a `Document`. Holding a node keeps its document alive.
public struct Node {
  public let document: Document
  let pointer: xmlNodePtr

  init(document: Document, pointer: xmlNodePtr) {
    self.document = document
    self.pointer = pointer
  }

  /// The element's name (lower case in HTML documents), or `text`, `comment`, ….
  public var name: String { LibXML.borrow(pointer.pointee.name) ?? "" }

  public var isElement: Bool { pointer.pointee.type == XML_ELEMENT_NODE }

  /// All text below the node with runs of whitespace (non-breaking spaces included) folded
  /// into one space and trimmed.
  public var text: String {
    // Most cells hold one text node: fold its bytes where libxml2 keeps them, without the copy
    // that xmlNodeGetContent makes (this runs for every cell of every table a parser reads).
    if let child = pointer.pointee.children, child.pointee.next == nil, child.pointee.type == XML_TEXT_NODE,
      let content = child.pointee.content
    {
      return Self.normalizeWhitespace(UnsafeBufferPointer(start: content, count: strlen(content)))
    }
    return Self.normalizeWhitespace(rawText)
  }

  /// The text of every text node below the node joined by spaces, whitespace-normalized: a
  /// header split by `<br />` reads "FO Won", not "FOWon".
  public var words: String {
    var bytes: [UInt8] = []
    walk { node in
      if node.pointee.type == XML_TEXT_NODE || node.pointee.type == XML_CDATA_SECTION_NODE,
        let content = node.pointee.content
      {
        if !bytes.isEmpty { bytes.append(0x20) }
        bytes.append(contentsOf: UnsafeBufferPointer(start: content, count: strlen(content)))
      }
      return true
    }
    return bytes.withUnsafeBufferPointer { Self.normalizeWhitespace($0) }
  }

  /// All text below the node, exactly as in the document.
  public var rawText: String { LibXML.consume(xmlNodeGetContent(pointer)) ?? "" }

  /// An attribute's value, or nil when absent.
  public func attribute(_ name: String) -> String? {
    LibXML.consume(xmlGetProp(pointer, name))
  }

  /// Every attribute, in document order.
  public var attributes: [(name: String, value: String)] {
    var result: [(String, String)] = []
    var attribute = pointer.pointee.properties
    while let current = attribute {
      let name = LibXML.borrow(current.pointee.name) ?? ""
      result.append((name, self.attribute(name) ?? ""))
      attribute = current.pointee.next
    }
    return result
  }

  /// Element children, in document order.
  public var children: [Node] {
    var result: [Node] = []
    var child = pointer.pointee.children
    while let current = child {
      if current.pointee.type == XML_ELEMENT_NODE { result.append(Node(document: document, pointer: current)) }
      child = current.pointee.next
    }
    return result
  }

  /// Element children with this (lower-case, in HTML) name, without an XPath query: for the
  /// cells of every row of a large table.
  public func children(named name: String) -> [Node] {
    let name = ElementName(name)
    var result: [Node] = []
    var child = pointer.pointee.children
    while let current = child {
      if name.matches(current) { result.append(Node(document: document, pointer: current)) }
      child = current.pointee.next
    }
    return result
  }

  /// Every descendant element with this name, in document order, without an XPath query.
  public func descendants(named name: String) -> [Node] {
    let name = ElementName(name)
    var result: [Node] = []
    walk { current in
      if name.matches(current) { result.append(Node(document: document, pointer: current)) }
      return true
    }
    return result
  }

  /// The descendant elements with this name that are not inside another one (the page's
  /// tables, not the tables within them), without walking what is inside them.
  public func outermostDescendants(named name: String) -> [Node] {
    let name = ElementName(name)
    var result: [Node] = []
    traverse { current -> Step in
      guard name.matches(current) else { return .descend }
      result.append(Node(document: document, pointer: current))
      return .skipChildren
    }
    return result
  }

  /// The first descendant element with this name, in document order, without an XPath query.
  public func firstDescendant(named name: String) -> Node? {
    let name = ElementName(name)
    var found: Node?
    walk { current in
      guard name.matches(current) else { return true }
      found = Node(document: document, pointer: current)
      return false
    }
    return found
  }

  /// The first descendant element with this name for which `matches` holds, in document order:
  /// the walk stops there (a page's sport selector or its scores table sits near its top, and
  /// every element of that name gathered first was a walk of the whole tree).
  public func firstDescendant(named name: String, where matches: (Node) -> Bool) -> Node? {
    let name = ElementName(name)
    var found: Node?
    walk { current in
      guard name.matches(current) else { return true }
      let node = Node(document: document, pointer: current)
      guard matches(node) else { return true }
      found = node
      return false
    }
    return found
  }

  /// Visits every node below this one in document order, through the tree's own links (no
  /// stack), until `visit` returns false.
  private func walk(_ visit: (xmlNodePtr) -> Bool) {
    traverse { visit($0) ? .descend : .stop }
  }

  private enum Step { case descend, skipChildren, stop }

  /// The walk, where `visit` may also skip a node's children.
  private func traverse(_ visit: (xmlNodePtr) -> Step) {
    var next = pointer.pointee.children
    while let current = next {
      let step = visit(current)
      if step == .stop { return }
      if step == .descend, current.pointee.type == XML_ELEMENT_NODE, let child = current.pointee.children {
        next = child
        continue
      }
      var climb = current
      while climb.pointee.next == nil {
        guard let parent = climb.pointee.parent, parent != pointer else { return }
        climb = parent
      }
      next = climb.pointee.next
    }
  }

  public var parent: Node? {
    guard let parent = pointer.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
    return Node(document: document, pointer: parent)
  }

  /// The node's markup, itself included.
  public var outerHTML: String { serialize(pointer) }

  /// The markup of the node's children.
  public var innerHTML: String {
    var result = ""
    var child = pointer.pointee.children
    while let current = child {
      result += serialize(current)
      child = current.pointee.next
    }
    return result
  }

  // MARK: Queries relative to this node

  /// Nodes matching an XPath expression evaluated with this node as the context node.
  public func select(xpath: String) throws(StatlineError) -> [Node] {
    try document.nodes(xpath, at: pointer)
  }

  /// Descendant elements matching a CSS selector.
  public func select(css: String) throws(StatlineError) -> [Node] {
    try document.nodes(document.xpath(forCSS: css), at: pointer)
  }

  public func first(xpath: String) throws(StatlineError) -> Node? { try select(xpath: xpath).first }

  public func first(css: String) throws(StatlineError) -> Node? { try select(css: css).first }

  /// The string value of an XPath expression evaluated at this node.
  public func string(xpath: String) throws(StatlineError) -> String {
    try document.string(xpath, at: pointer)
  }

  /// The node's markup exactly as parsed, without added indentation or newlines.
  private func serialize(_ node: xmlNodePtr) -> String {
    guard let output = xmlAllocOutputBuffer(nil) else { return "" }
    defer { xmlOutputBufferClose(output) }
    switch document.kind {
    case .html: htmlNodeDumpFormatOutput(output, document.pointer, node, "UTF-8", 0)
    case .xml: xmlNodeDumpOutput(output, document.pointer, node, 0, 0, "UTF-8")
    }
    xmlOutputBufferFlush(output)
    guard let content = xmlOutputBufferGetContent(output) else { return "" }
    let size = Int(xmlOutputBufferGetSize(output))
    return String(decoding: UnsafeBufferPointer(start: content, count: size), as: UTF8.self)
  }

  /// Folds whitespace runs (space, tab, newlines, form feed, no-break space) into single spaces,
  /// trimmed. Works on UTF-8 bytes: this runs for every cell a parser reads.
  public static func normalizeWhitespace(_ text: String) -> String {
    var text = text
    return text.withUTF8 { normalizeWhitespace($0) }
  }

  /// `normalizeWhitespace` on UTF-8 bytes, written straight into the result's storage (also
  /// for text a stream reader collected).
  public static func normalizeWhitespace(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    String(unsafeUninitializedCapacity: bytes.count) { output in
      var written = 0
      var pendingSpace = false
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        var width = 0
        if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
          width = 1
        } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 {
          width = 2
        }
        if width > 0 {
          pendingSpace = written > 0
          index += width
          continue
        }
        if pendingSpace {
          output[written] = 0x20
          written += 1
          pendingSpace = false
        }
        output[written] = byte
        written += 1
        index += 1
      }
      return written
    }
  }

}
