/// A value a parser reads from a `JSONNode`: the tape's counterpart of `Decodable`, without its
/// containers and coding keys. Shapes fail with a `JSONShapeError` that names the path.
///
/// The node is lent (`borrowing`), not handed over: a node made for one element or member then
/// counts no reference to its document (handed over, each was a retain and a release of the
/// document per value read: `bench parser`, the 121 KB play-by-play's records 8,306 → 8,671
/// pages/s, casablanca's 74,321 → 78,237). A reader that keeps the node, or throws with it,
/// copies it (`copy json`).
public protocol JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError)
}

extension JSONNode {
  /// The member `key`, read as `T`; a missing or null member is an error. (Keys are literals: a
  /// `StaticString`'s bytes are compared as they are, with no `String` made per lookup.)
  @inlinable
  public func required<T: JSONReadable>(_ key: StaticString, as type: T.Type = T.self) throws(JSONShapeError) -> T {
    guard let at = memberIndex(key), document.tape[at].kind != .null else {
      guard kind == .object else { throw JSONShapeError(.typeMismatch(expected: "an object"), at: self) }
      throw JSONShapeError(.missingKey(key.description), at: self)
    }
    if let value = plainScalar(at, as: T.self) { return value }
    return try read(at, as: T.self)
  }

  /// The member `key`, read as `T`; nil when it is missing or null, an error when it is there
  /// with another shape.
  @inlinable
  public func optional<T: JSONReadable>(_ key: StaticString, as type: T.Type = T.self) throws(JSONShapeError) -> T? {
    guard let at = memberIndex(key), document.tape[at].kind != .null else {
      guard kind == .object else { throw JSONShapeError(.typeMismatch(expected: "an object"), at: self) }
      return nil
    }
    if let value = plainScalar(at, as: T.self) { return value }
    return try read(at, as: T.self)
  }

  /// The value at tape index `at`, read as `T` through a node of its own. Out of line: inlined,
  /// the compiler counted a reference to the document for that node before the plain readings
  /// were tried, on every field of every play.
  @inlinable @inline(never)
  func read<T: JSONReadable>(_ at: Int, as type: T.Type) throws(JSONShapeError) -> T {
    try T(json: JSONNode(document: document, index: at))
  }

  /// The tape index of the member `key`, or nil: a literal's bytes used where they lie, with no
  /// closure to reach them (a one-letter literal, kept as a scalar, takes the closure).
  @inlinable
  func memberIndex(_ key: StaticString) -> Int? {
    guard key.hasPointerRepresentation else { return key.withUTF8Buffer { memberIndex(named: $0) } }
    return memberIndex(named: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
  }

  /// A `String`, `Int` or `JSONScalar` member read straight off the tape, without a node for it
  /// (a node holds the document, and its reference counting was half of reading a play's
  /// fields); nil for any other `T` (the tests fold away once `T` is known), or a value these
  /// plain readings do not take (the node's reading then answers, or names the problem).
  @inlinable
  func plainScalar<T>(_ at: Int, as type: T.Type) -> T? {
    let entry = document.tape[at]
    if T.self == String.self {
      guard entry.kind == .string, let text = JSONStrings.decode(document.bytes, entry, strict: true) else {
        return nil
      }
      return text as? T
    }
    if T.self == Int.self {
      guard entry.kind == .number, let value = JSONStrings.plainInt(document.bytes, entry) else { return nil }
      return value as? T
    }
    if T.self == JSONScalar.self {
      if entry.kind == .string, let text = JSONStrings.decode(document.bytes, entry, strict: true) {
        return JSONScalar(text: text) as? T
      }
      if entry.kind == .number, let value = JSONStrings.plainInt(document.bytes, entry) {
        return JSONScalar(text: String(value)) as? T
      }
    }
    return nil
  }
}

extension String: JSONReadable {
  @inlinable
  public init(json: borrowing JSONNode) throws(JSONShapeError) {
    guard json.kind == .string else { throw JSONShapeError(.typeMismatch(expected: "a string"), at: copy json) }
    guard let text = json.validString else { throw JSONShapeError(.invalidUTF8, at: copy json) }
    self = text
  }
}

extension Int: JSONReadable {
  @inlinable
  public init(json: borrowing JSONNode) throws(JSONShapeError) {
    guard let value = json.int else { throw JSONShapeError(.typeMismatch(expected: "a whole number"), at: copy json) }
    self = value
  }
}

extension Double: JSONReadable {
  @inlinable
  public init(json: borrowing JSONNode) throws(JSONShapeError) {
    guard let value = json.double else { throw JSONShapeError(.typeMismatch(expected: "a number"), at: copy json) }
    self = value
  }
}

extension Bool: JSONReadable {
  @inlinable
  public init(json: borrowing JSONNode) throws(JSONShapeError) {
    guard let value = json.bool else { throw JSONShapeError(.typeMismatch(expected: "a boolean"), at: copy json) }
    self = value
  }
}

extension Array: JSONReadable where Element: JSONReadable {
  @inlinable
  public init(json: borrowing JSONNode) throws(JSONShapeError) {
    guard json.kind == .array else { throw JSONShapeError(.typeMismatch(expected: "an array"), at: copy json) }
    self = []
    reserveCapacity(json.count)
    // By tape index, each element's node made from the array's own document for the call, and
    // plain scalars read without one: an iterator holds the document and hands each node out
    // owned, a reference counted twice per element (`bench parser`, reading the 121 KB
    // play-by-play's records: 6,400 → 6,750 pages/s).
    let tape = json.document.tape
    var at = json.index + 1
    let end = Int(tape[json.index].end)
    while at < end {
      if let value = json.plainScalar(at, as: Element.self) {
        append(value)
      } else {
        append(try Element(json: JSONNode(document: json.document, index: at)))
      }
      at = tape[at].next(after: at)
    }
  }
}

extension Dictionary: JSONReadable where Key == String, Value: JSONReadable {
  /// An object's members by key (a repeated key: the last one; `subscript(key:)` gives the first).
  @inlinable
  public init(json: borrowing JSONNode) throws(JSONShapeError) {
    guard json.kind == .object else { throw JSONShapeError(.typeMismatch(expected: "an object"), at: copy json) }
    self = [:]
    reserveCapacity(json.count)
    for (key, value) in json.members { self[key] = try Value(json: value) }
  }
}
