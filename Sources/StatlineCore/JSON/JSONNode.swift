import Foundation

/// One value of a `JSONDocument`: its kind, its members or elements, its scalar. Reading never
/// copies the document; a string is made only when `string` is asked for.
public struct JSONNode: Sendable {
  public let document: JSONDocument
  @usableFromInline let index: Int

  @inlinable
  init(document: JSONDocument, index: Int) {
    self.document = document
    self.index = index
  }

  @inlinable
  var entry: JSONTapeEntry { document.tape[index] }

  @inlinable
  public var kind: JSONKind { entry.kind }

  @inlinable
  public var isNull: Bool { entry.kind == .null }

  /// The member named `key` of an object (the first, if the object repeats it); nil for a
  /// missing key or a value that is not an object.
  @inlinable
  public subscript(key: String) -> JSONNode? {
    var key = key
    return key.withUTF8 { member(named: $0) }
  }

  @usableFromInline
  func member(named key: UnsafeBufferPointer<UInt8>) -> JSONNode? {
    memberIndex(named: key).map { JSONNode(document: document, index: $0) }
  }

  /// The tape index of the member named `key`, or nil.
  @usableFromInline
  func memberIndex(named key: UnsafeBufferPointer<UInt8>) -> Int? {
    let tape = document.tape
    let bytes = document.bytes
    let entry = tape[index]
    guard entry.kind == .object else { return nil }
    var at = index + 1
    let end = Int(entry.end)
    while at < end {
      let name = tape[at]
      let length = Int(name.end &- name.start)
      if !name.flag {
        if length == key.count
          && (length == 0 || memcmp(bytes.baseAddress! + Int(name.start), key.baseAddress!, length) == 0)
        {
          return at + 1
        }
      } else if JSONStrings.decode(bytes, name).utf8.elementsEqual(key) {
        return at + 1
      }
      at = tape[at + 1].next(after: at + 1)
    }
    return nil
  }

  /// An object's members in order (an empty list for anything else).
  public var members: [(key: String, value: JSONNode)] {
    guard entry.kind == .object else { return [] }
    var result: [(key: String, value: JSONNode)] = []
    result.reserveCapacity(Int(entry.count))
    var at = index + 1
    while at < Int(entry.end) {
      let name = JSONStrings.decode(document.bytes, document.tape[at])
      result.append((name, JSONNode(document: document, index: at + 1)))
      at = document.tape[at + 1].next(after: at + 1)
    }
    return result
  }

  /// An object's keys in order.
  public var keys: [String] { members.map(\.key) }

  /// An array's elements (none for anything else).
  @inlinable
  public var elements: JSONElements { JSONElements(node: self) }

  /// The number of an array's elements or an object's members; 0 for a scalar.
  @inlinable
  public var count: Int { entry.kind == .object || entry.kind == .array ? Int(entry.count) : 0 }

  /// A string's text (escapes decoded; bytes that are not UTF-8 become U+FFFD); nil for any other kind.
  public var string: String? {
    let entry = entry
    guard entry.kind == .string else { return nil }
    return JSONStrings.decode(document.bytes, entry)
  }

  /// A string's text when its bytes are UTF-8; nil for bytes that are not, or any other kind.
  public var validString: String? {
    let entry = entry
    guard entry.kind == .string else { return nil }
    return JSONStrings.decode(document.bytes, entry, strict: true)
  }

  /// A number that is a whole number an `Int` holds (`12`, `12.0`, `1.2e1`); nil otherwise.
  public var int: Int? {
    let entry = entry
    guard entry.kind == .number else { return nil }
    if let plain = JSONStrings.plainInt(document.bytes, entry) { return plain }
    guard let double, double.rounded() == double, double >= -0x1p63, double < 0x1p63 else { return nil }
    return Int(double)
  }

  /// A number as a `Double` (the nearest one); nil for any other kind.
  public var double: Double? {
    guard entry.kind == .number, let text = numberText else { return nil }
    return Double(text)
  }

  /// `true` or `false`; nil for any other kind.
  @inlinable
  public var bool: Bool? {
    let entry = entry
    return entry.kind == .bool ? entry.flag : nil
  }

  /// A number's text as the document writes it (`-1.5e3`).
  public var numberText: String? {
    let entry = entry
    guard entry.kind == .number else { return nil }
    return String(
      decoding: UnsafeBufferPointer(rebasing: document.bytes[Int(entry.start)..<Int(entry.end)]), as: UTF8.self)
  }
}

/// The elements of an array node, in order.
public struct JSONElements: Sequence, Sendable {
  @usableFromInline let node: JSONNode

  @inlinable
  init(node: JSONNode) { self.node = node }

  @inlinable
  public var underestimatedCount: Int { node.count }

  @inlinable
  public func makeIterator() -> Iterator {
    let entry = node.entry
    return entry.kind == .array
      ? Iterator(document: node.document, at: node.index + 1, end: Int(entry.end))
      : Iterator(document: node.document, at: 0, end: 0)
  }

  public struct Iterator: IteratorProtocol {
    @usableFromInline let document: JSONDocument
    @usableFromInline var at: Int
    @usableFromInline let end: Int

    @inlinable
    init(document: JSONDocument, at: Int, end: Int) {
      self.document = document
      self.at = at
      self.end = end
    }

    @inlinable
    public mutating func next() -> JSONNode? {
      guard at < end else { return nil }
      let node = JSONNode(document: document, index: at)
      at = document.tape[at].next(after: at)
      return node
    }
  }
}
