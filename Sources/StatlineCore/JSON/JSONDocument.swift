import Foundation

/// A JSON text read once into a tape (one entry per value, in document order), the JSON
/// counterpart of `StatlineHTML`'s `Document`. Nothing is decoded until a parser asks for it:
/// a string becomes a `String` only when it is read, and an object's keys are compared as bytes.
/// That is what makes it several times faster than `JSONDecoder`, which builds a dictionary for
/// every object and a `String` for every key and value.
///
/// The whole text is checked when the document is made (RFC 8259's grammar, with one comma before
/// a closing bracket let through as Foundation does; no control characters in strings; at most
/// `maximumDepth` levels), so a document always holds valid JSON. Shapes are checked as values
/// are read (`JSONNode.required(_:)`), and every error names the path of the value it is about.
///
/// The bytes and the tape live in buffers of the document's own, freed with it: a node reads
/// them through plain pointers, with no reference counting per access (an array property read
/// through the class retained its buffer on every lookup, 5 % of a play-by-play's reading).
/// `@unchecked Sendable`: both buffers are written once, in `init`, and never after.
public final class JSONDocument: @unchecked Sendable {
  /// Deeper nesting than this is refused: no feed nests half as deep, and the limit keeps a
  /// hostile page from exhausting the stack.
  public static let maximumDepth = 512

  @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
  @usableFromInline let tape: UnsafeBufferPointer<JSONTapeEntry>

  /// Reads `bytes` (UTF-8; a leading byte-order mark is skipped).
  public convenience init(bytes: [UInt8]) throws(JSONSyntaxError) {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    _ = copy.initialize(from: bytes)
    try self.init(owning: copy)
  }

  public convenience init(data: Data) throws(JSONSyntaxError) {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: data.count)
    _ = copy.initialize(from: data)
    try self.init(owning: copy)
  }

  /// Takes `bytes` over (freed with the document, or here when they are not JSON). The scanner
  /// writes the tape straight into a buffer the document then owns (no array copied out of it).
  private init(owning bytes: UnsafeMutableBufferPointer<UInt8>) throws(JSONSyntaxError) {
    var scanner = JSONScanner(UnsafeBufferPointer(bytes))
    do {
      try scanner.scanDocument()
    } catch {
      scanner.tape.release()
      bytes.deallocate()
      throw error
    }
    self.bytes = UnsafeBufferPointer(bytes)
    self.tape = scanner.tape.finished()
  }

  deinit {
    bytes.deallocate()
    tape.deallocate()
  }

  /// The top-level value.
  public var root: JSONNode { JSONNode(document: self, index: 0) }
}

/// What a tape entry holds.
public enum JSONKind: UInt8, Sendable {
  case object, array, string, number, bool, null
}

/// One value of the document. Scalars keep their byte range (a string's without its quotes);
/// containers keep the tape index just past their last descendant, so a reader steps over a
/// whole subtree in one move, and their member count.
@usableFromInline
struct JSONTapeEntry: Sendable {
  @usableFromInline var kind: JSONKind
  /// A string with escapes (decoded when read); a number with a fraction or an exponent; `true`.
  @usableFromInline var flag: Bool
  @usableFromInline var start: UInt32
  /// Scalars: the byte just past the value. Containers: the tape index past their last descendant.
  @usableFromInline var end: UInt32
  /// Containers: members or elements.
  @usableFromInline var count: UInt32

  @inlinable
  init(kind: JSONKind, flag: Bool = false, start: Int, end: Int = 0, count: Int = 0) {
    self.kind = kind
    self.flag = flag
    self.start = UInt32(truncatingIfNeeded: start)
    self.end = UInt32(truncatingIfNeeded: end)
    self.count = UInt32(truncatingIfNeeded: count)
  }

  /// The tape index of the value after this one (its next sibling, or its parent's end).
  @inlinable
  func next(after index: Int) -> Int {
    kind == .object || kind == .array ? Int(end) : index + 1
  }
}

/// The tape as the scanner writes it: a buffer it grows by doubling, handed to the document
/// when the text is read (entries are plain values, so growing is a move of bytes).
struct JSONTapeBuffer {
  private var base: UnsafeMutablePointer<JSONTapeEntry>
  private var capacity: Int
  private(set) var count = 0

  init(capacity: Int) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  @inline(__always)
  mutating func append(_ entry: JSONTapeEntry) {
    if count == capacity { grow() }
    (base + count).initialize(to: entry)
    count += 1
  }

  @inline(never)
  private mutating func grow() {
    let grown = UnsafeMutablePointer<JSONTapeEntry>.allocate(capacity: capacity * 2)
    grown.moveInitialize(from: base, count: count)
    base.deallocate()
    base = grown
    capacity *= 2
  }

  subscript(index: Int) -> JSONTapeEntry {
    get { base[index] }
    nonmutating set { base[index] = newValue }
  }

  /// The entries, owned by the caller from now on.
  func finished() -> UnsafeBufferPointer<JSONTapeEntry> { UnsafeBufferPointer(start: base, count: count) }

  /// Frees the entries (a text that is not JSON).
  func release() { base.deallocate() }
}
