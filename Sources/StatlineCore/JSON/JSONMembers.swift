/// One pass over an object's members, for a record read per play of a large page: each member's
/// key is compared once, by its length first, instead of a search of the whole object for each
/// field the record reads (a record of nine fields, four of them present, looked at 33 members
/// through `required` / `optional`; read in one pass, at 4).
///
/// A repeated key: the first wins, as `JSONNode.subscript(key:)` and `optional` read it (the
/// record keeps a mark of the fields it has seen).
extension JSONNode {
  /// Calls `body` with each member's key and its value, in the object's order. A value that is
  /// not an object throws.
  @inlinable
  public func forEachMember(
    _ body: (_ key: JSONKey, _ value: borrowing JSONNode) throws(JSONShapeError) -> Void
  ) throws(JSONShapeError) {
    let tape = document.tape
    let entry = tape[index]
    guard entry.kind == .object else { throw JSONShapeError(.typeMismatch(expected: "an object"), at: copy self) }
    var at = index + 1
    let end = Int(entry.end)
    while at < end {
      let name = tape[at]
      if name.flag {
        try escapedMember(at, body)
      } else {
        let key = JSONKey(
          bytes: UnsafeBufferPointer(
            start: document.bytes.baseAddress! + Int(name.start), count: Int(name.end &- name.start)))
        try body(key, JSONNode(document: document, index: at + 1))
      }
      at = tape[at + 1].next(after: at + 1)
    }
  }

  /// A member whose key has escapes: decoded first (rare, out of line).
  @usableFromInline
  func escapedMember(
    _ at: Int, _ body: (_ key: JSONKey, _ value: borrowing JSONNode) throws(JSONShapeError) -> Void
  ) throws(JSONShapeError) {
    let decoded = Array(JSONStrings.decode(document.bytes, document.tape[at]).utf8)
    var failure: JSONShapeError?
    decoded.withUnsafeBufferPointer { bytes in
      do throws(JSONShapeError) {
        try body(JSONKey(bytes: bytes), JSONNode(document: document, index: at + 1))
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }

  /// This value read as `T`; nil when it is null, an error when it has another shape (what
  /// `optional(_:)` does with a member it found).
  @inlinable
  public func optionalValue<T: JSONReadable>(as type: T.Type = T.self) throws(JSONShapeError) -> T? {
    guard document.tape[index].kind != .null else { return nil }
    if let value = plainScalar(index, as: T.self) { return value }
    return try T(json: self)
  }
}

/// A member's key as the document writes it (escapes decoded), for `JSONNode.forEachMember`.
public struct JSONKey {
  public let bytes: UnsafeBufferPointer<UInt8>

  @inlinable
  init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// The key's length in bytes: what a reader switches on first.
  @inlinable
  public var count: Int { bytes.count }

  /// Whether the key is `literal`, byte for byte.
  @inlinable
  public func `is`(_ literal: StaticString) -> Bool {
    guard bytes.count == literal.utf8CodeUnitCount else { return false }
    // A one-letter literal is kept as a scalar, with no pointer to its bytes.
    guard literal.hasPointerRepresentation else { return literal.withUTF8Buffer { $0.elementsEqual(bytes) } }
    let pin = literal.utf8Start
    for offset in 0..<bytes.count where bytes[offset] != pin[offset] { return false }
    return true
  }
}
