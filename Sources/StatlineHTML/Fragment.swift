import Foundation

/// A piece of an HTML page that a stream reader kept whole: the elements, attributes and text
/// below one element, in the shape libxml2's tree gives them, held in a few flat arrays.
/// Items are stored in document order, so an element's descendants are the items right after
/// it and its text is one run of the text bytes.
public final class Fragment {
  enum Kind: UInt8 { case element, text, comment }

  struct Item {
    var kind: Kind
    var name: String
    var firstChild: Int32 = -1
    var lastChild: Int32 = -1
    var next: Int32 = -1
    /// Past the element's last descendant (set when it ends).
    var subtreeEnd: Int32 = 0
    /// Elements: their attributes; text: its bytes.
    var start: Int32
    var end: Int32
    /// Elements: the text bytes of their subtree.
    var textStart: Int32
    var textEnd: Int32
  }

  struct Attribute {
    var name: Range<Int>
    var value: Range<Int>
  }

  /// The arrays, built as a value (no class access to check while building), then frozen.
  struct Storage {
    var items: [Item] = []
    var attributes: [Attribute] = []
    var attributeBytes: [UInt8] = []
    var textBytes: [UInt8] = []
  }

  let storage: Storage

  init(_ storage: Storage) {
    self.storage = storage
  }

  /// The element the fragment was started at.
  public var root: FragmentNode { FragmentNode(fragment: self, index: 0) }
}

/// Builds a `Fragment` from `HTMLStreamReader` events: a reader passes on every event from the
/// start of the element it wants to keep until that element ends.
public struct FragmentBuilder {
  private var storage = Fragment.Storage()
  /// The open elements, innermost last.
  private var open: [Int32] = []

  public init() {}

  /// Starts a fragment at this element, or adds the element to the one being built.
  public mutating func start(_ element: XMLName, attributes: HTMLAttributes) {
    let first = storage.attributes.count
    for (name, value) in attributes {
      let nameStart = storage.attributeBytes.count
      storage.attributeBytes.append(contentsOf: UnsafeBufferPointer(start: name.pointer, count: strlen(name.pointer)))
      let valueStart = storage.attributeBytes.count
      storage.attributeBytes.append(contentsOf: value.bytes)
      storage.attributes.append(
        Fragment.Attribute(name: nameStart..<valueStart, value: valueStart..<storage.attributeBytes.count))
    }
    let text = Int32(storage.textBytes.count)
    append(
      Fragment.Item(
        kind: .element, name: element.string, start: Int32(first), end: Int32(storage.attributes.count),
        textStart: text, textEnd: text))
    open.append(Int32(storage.items.count - 1))
  }

  /// Ends the innermost open element; returns the fragment's root when it was that element.
  public mutating func end() -> FragmentNode? {
    guard let index = open.popLast() else { return nil }
    storage.items[Int(index)].subtreeEnd = Int32(storage.items.count)
    storage.items[Int(index)].textEnd = Int32(storage.textBytes.count)
    guard open.isEmpty else { return nil }
    defer { storage = Fragment.Storage() }
    return Fragment(storage).root
  }

  /// Text inside the open element; text right after text extends it (one text node, as in a tree).
  public mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let parent = open.last else { return }
    let last = storage.items[Int(parent)].lastChild
    storage.textBytes.append(contentsOf: bytes)
    let end = Int32(storage.textBytes.count)
    if last >= 0, storage.items[Int(last)].kind == .text {
      storage.items[Int(last)].end = end
      return
    }
    let start = end - Int32(bytes.count)
    append(Fragment.Item(kind: .text, name: "", start: start, end: end, textStart: start, textEnd: end))
  }

  /// A comment inside the open element: it keeps the text on either side apart.
  public mutating func comment() {
    guard !open.isEmpty else { return }
    append(Fragment.Item(kind: .comment, name: "", start: 0, end: 0, textStart: 0, textEnd: 0))
  }

  private mutating func append(_ item: Fragment.Item) {
    var item = item
    let index = Int32(storage.items.count)
    item.subtreeEnd = index + 1
    storage.items.append(item)
    guard let parent = open.last else { return }
    let last = storage.items[Int(parent)].lastChild
    if last >= 0 { storage.items[Int(last)].next = index } else { storage.items[Int(parent)].firstChild = index }
    storage.items[Int(parent)].lastChild = index
  }
}

/// An element of a `Fragment`, read the way `Node` reads an element of a tree.
public struct FragmentNode: ElementNode {
  public let fragment: Fragment
  let index: Int

  init(fragment: Fragment, index: Int) {
    self.fragment = fragment
    self.index = index
  }

  private var item: Fragment.Item { fragment.storage.items[index] }

  public var name: String { item.name }

  public var text: String { normalizedText(item.textStart..<item.textEnd) }

  /// Text bytes of the fragment, whitespace-normalized as `Node` normalizes text.
  private func normalizedText(_ range: Range<Int32>) -> String {
    fragment.storage.textBytes.withUnsafeBufferPointer {
      Node.normalizeWhitespace(UnsafeBufferPointer(rebasing: $0[Int(range.lowerBound)..<Int(range.upperBound)]))
    }
  }

  public var words: String {
    var bytes: [UInt8] = []
    for child in fragment.storage.items[(index + 1)..<Int(item.subtreeEnd)] where child.kind == .text {
      if !bytes.isEmpty { bytes.append(0x20) }
      bytes.append(contentsOf: fragment.storage.textBytes[Int(child.start)..<Int(child.end)])
    }
    return bytes.withUnsafeBufferPointer { Node.normalizeWhitespace($0) }
  }

  public var children: [FragmentNode] { children { _ in true } }

  /// A child of an element: another element, or a text node (whitespace-normalized, as `Node`
  /// reads a text node). Comments are left out.
  public enum Child {
    case element(FragmentNode)
    case text(String)
  }

  /// Every element and text child, in document order (XPath's `./node()` without comments).
  public var childNodes: [Child] {
    var result: [Child] = []
    var child = Int(item.firstChild)
    while child >= 0 {
      let current = fragment.storage.items[child]
      switch current.kind {
      case .element: result.append(.element(FragmentNode(fragment: fragment, index: child)))
      case .text: result.append(.text(normalizedText(current.start..<current.end)))
      case .comment: break
      }
      child = Int(current.next)
    }
    return result
  }

  public func children(named name: String) -> [FragmentNode] { children { $0.name == name } }

  private func children(where matches: (Fragment.Item) -> Bool) -> [FragmentNode] {
    var result: [FragmentNode] = []
    var child = Int(item.firstChild)
    while child >= 0 {
      let current = fragment.storage.items[child]
      if current.kind == .element, matches(current) { result.append(FragmentNode(fragment: fragment, index: child)) }
      child = Int(current.next)
    }
    return result
  }

  public func descendants(named name: String) -> [FragmentNode] {
    ((index + 1)..<Int(item.subtreeEnd)).compactMap { position in
      let current = fragment.storage.items[position]
      return current.kind == .element && current.name == name ? FragmentNode(fragment: fragment, index: position) : nil
    }
  }

  public func firstDescendant(named name: String) -> FragmentNode? {
    for position in (index + 1)..<Int(item.subtreeEnd) {
      let current = fragment.storage.items[position]
      if current.kind == .element, current.name == name { return FragmentNode(fragment: fragment, index: position) }
    }
    return nil
  }

  public func firstDescendant(named name: String, where matches: (FragmentNode) -> Bool) -> FragmentNode? {
    for position in (index + 1)..<Int(item.subtreeEnd) {
      let current = fragment.storage.items[position]
      guard current.kind == .element, current.name == name else { continue }
      let node = FragmentNode(fragment: fragment, index: position)
      if matches(node) { return node }
    }
    return nil
  }

  /// Whether the element's class attribute lists `name` (CSS `.name`: words split at XML
  /// whitespace, as the CSS translator's `normalize-space(@class)` splits them).
  public func hasClass(_ name: String) -> Bool {
    guard var classes = attribute("class") else { return false }
    var name = name
    return classes.withUTF8 { classes in name.withUTF8 { ClassList.contains(classes, word: $0) } }
  }

  /// Every descendant element whose class lists `name`, in document order (CSS `.name`).
  public func descendants(withClass name: String) -> [FragmentNode] {
    ((index + 1)..<Int(item.subtreeEnd)).compactMap { position in
      let node = FragmentNode(fragment: fragment, index: position)
      return fragment.storage.items[position].kind == .element && node.hasClass(name) ? node : nil
    }
  }

  public func attribute(_ name: String) -> String? {
    let item = self.item
    guard item.kind == .element else { return nil }
    var name = name
    return name.withUTF8 { wanted in
      for attribute in fragment.storage.attributes[Int(item.start)..<Int(item.end)] {
        let matches = fragment.storage.attributeBytes[attribute.name].elementsEqual(wanted)
        if matches { return String(decoding: fragment.storage.attributeBytes[attribute.value], as: UTF8.self) }
      }
      return nil
    }
  }
}
