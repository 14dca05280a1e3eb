import CLibXML2
import Foundation
import StatlineCore

/// Receives the elements of an XML document as libxml2 reads them, without a tree.
///
/// Names and attribute values are views into the parser's buffers: valid only during the call.
public protocol XMLStreamReader {
  /// A start tag and its attributes. Throwing stops the parse; the error is what `read` throws.
  mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError)
  /// An end tag (also for an empty element, right after its start).
  mutating func end(_ element: XMLName)
  /// Character data, text and CDATA alike, entities replaced, in as many pieces as libxml2 hands
  /// on (a run of text may come in several). Called only when `readsText` is true.
  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>)
  /// Whether the reader wants text. A reader that does not (the default) leaves libxml2's text
  /// callbacks unset and pays nothing for the document's text.
  static var readsText: Bool { get }
}

extension XMLStreamReader {
  public mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {}
  public static var readsText: Bool { false }
}

/// Streaming XML: libxml2's SAX2 parser with the safety rules of `Document.xml` (no network, no
/// DTD loading, documents declaring entities refused, a depth limit), for feeds read in one pass
/// where building a tree would cost more than the reading itself.
///
/// A document that is not well-formed is an error even when the reader has seen part of it: a
/// reader must throw away what it built when `read` throws.
public enum XMLStream {
  /// Inlinable, so the reader's calls are specialized (direct, inlinable) in the module that
  /// calls it; the parse itself is `run`.
  @inlinable
  public static func read<Reader: XMLStreamReader>(
    _ data: Data, into reader: inout Reader, url: String? = nil, limits: DocumentLimits = .default
  ) throws(StatlineError) {
    try withUnsafeMutablePointer(to: &reader) { pointer throws(StatlineError) in
      try run(
        data, url: url, limits: limits,
        start: { name, attributes throws(StatlineError) in try pointer.pointee.start(name, attributes: attributes) },
        end: { name in pointer.pointee.end(name) },
        text: Reader.readsText ? { bytes in pointer.pointee.text(bytes) } : nil)
    }
  }

  /// The parse, with the reader's calls as closures (valid only during the call); without
  /// `text`, libxml2's text callbacks stay unset.
  @usableFromInline
  static func run(
    _ data: Data, url: String?, limits: DocumentLimits,
    start: @escaping (XMLName, XMLAttributes) throws(StatlineError) -> Void, end: @escaping (XMLName) -> Void,
    text: ((UnsafeBufferPointer<UInt8>) -> Void)?
  ) throws(StatlineError) {
    try Document.checkXMLBytes(data, limits: limits, url: url)
    LibXML.prepareThread()
    let state = XMLStreamState(maximumDepth: limits.maximumDepth, url: url, start: start, end: end, text: text)
    let failure: StatlineError? = data.withUnsafeBytes { buffer -> StatlineError? in
      guard
        let parser = xmlCreateMemoryParserCtxt(
          buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count))
      else {
        return StatlineError(.io, "libxml2 could not allocate an XML parser", location: url)
      }
      defer { xmlFreeParserCtxt(parser) }
      _ = xmlCtxtUseOptions(parser, Document.xmlOptions)
      let ownHandler = parser.pointee.sax
      parser.pointee.sax = text != nil ? XMLStreamState.textHandler : XMLStreamState.handler
      parser.pointee.userData = Unmanaged.passUnretained(state).toOpaque()
      state.parser = parser
      _ = xmlParseDocument(parser)
      parser.pointee.sax = ownHandler
      if let error = state.error { return error }
      guard parser.pointee.wellFormed != 0 else {
        let error = parser.pointee.lastError
        let message = error.message.map { String(cString: $0) } ?? ""
        return Document.xmlFailure(
          message.isEmpty ? "" : "\(message.trimmingCharacters(in: .whitespacesAndNewlines)) at line \(error.line)",
          url: url)
      }
      return nil
    }
    if let failure { throw failure }
  }
}

/// An element or attribute name, interned by libxml2 for the length of the parse.
public struct XMLName {
  let pointer: UnsafePointer<UInt8>

  /// Byte by byte, stopping at the first difference: the name ends at its NUL, which may be the
  /// last byte of its allocation, so nothing past a shorter name is read (a fuzzed StatCrew
  /// document found the overread this replaced).
  public static func == (name: XMLName, expected: StaticString) -> Bool {
    let count = expected.utf8CodeUnitCount
    let bytes = expected.utf8Start
    for index in 0..<count where name.pointer[index] != bytes[index] { return false }
    return name.pointer[count] == 0
  }

  public var string: String { String(cString: pointer) }
}

/// The attributes of one start tag, in document order.
public struct XMLAttributes: RandomAccessCollection {
  /// libxml2's array: five pointers per attribute (name, prefix, URI, value start, value end).
  let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
  public let count: Int

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  public subscript(position: Int) -> (name: XMLName, value: XMLValue) {
    let entry = base! + 5 * position
    let start = entry[3]!
    return (XMLName(pointer: entry[0]!), XMLValue(bytes: UnsafeBufferPointer(start: start, count: entry[4]! - start)))
  }

  /// The value of the attribute called `name`, if the tag has one.
  public subscript(name: StaticString) -> XMLValue? {
    for index in 0..<count {
      let attribute = self[index]
      if attribute.name == name { return attribute.value }
    }
    return nil
  }

  /// Every attribute as strings (for the few elements a reader keeps whole).
  public var dictionary: [String: String] {
    var result: [String: String] = [:]
    result.reserveCapacity(count)
    // Backwards, each value stored over the next one's: of a name written twice the first is kept.
    for index in indices.reversed() {
      let (name, value) = self[index]
      result[name.string] = value.string
    }
    return result
  }
}

/// An attribute value as libxml2 read it: whitespace normalized, character and entity
/// references replaced (libxml2 hands `&amp;` on as `&#38;`, which `string` turns back into `&`).
public struct XMLValue {
  public let bytes: UnsafeBufferPointer<UInt8>

  public var isEmpty: Bool { bytes.isEmpty }

  public var string: String {
    guard let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), bytes.count) != nil else {
      return String(decoding: bytes, as: UTF8.self)
    }
    return String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "&#38;", with: "&")
  }

  /// The value as a whole number (spaces around it allowed), or nil when it is not one.
  public var int: Int? {
    var index = 0
    let count = bytes.count
    while index < count, bytes[index] == 0x20 { index += 1 }
    var negative = false
    if index < count, bytes[index] == UInt8(ascii: "-") {
      negative = true
      index += 1
    }
    var value = 0
    var digits = 0
    while index < count, bytes[index] &- 0x30 < 10, digits < 18 {
      value = value * 10 + Int(bytes[index] &- 0x30)
      index += 1
      digits += 1
    }
    while index < count, bytes[index] == 0x20 { index += 1 }
    guard digits > 0, index == count else { return nil }
    return negative ? -value : value
  }

  /// Whether the value starts with `prefix` (bytes compared, no String made).
  public func hasPrefix(_ prefix: StaticString) -> Bool {
    let count = prefix.utf8CodeUnitCount
    return bytes.count >= count && (count == 0 || memcmp(bytes.baseAddress!, prefix.utf8Start, count) == 0)
  }

  /// Whether the value contains `needle` (bytes compared, no String made).
  public func contains(_ needle: StaticString) -> Bool {
    let count = needle.utf8CodeUnitCount
    guard count > 0 else { return true }
    guard let base = bytes.baseAddress, bytes.count >= count else { return false }
    let first = Int32(needle.utf8Start[0])
    var offset = 0
    while offset + count <= bytes.count, let hit = memchr(base + offset, first, bytes.count - offset - count + 1) {
      let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
      if memcmp(base + position, needle.utf8Start, count) == 0 { return true }
      offset = position + 1
    }
    return false
  }

  public static func == (value: XMLValue, expected: StaticString) -> Bool {
    value.bytes.count == expected.utf8CodeUnitCount
      && (value.bytes.isEmpty || memcmp(value.bytes.baseAddress!, expected.utf8Start, value.bytes.count) == 0)
  }
}

/// What the C callbacks reach through libxml2's user-data pointer.
final class XMLStreamState {
  let maximumDepth: Int
  let url: String?
  let start: (XMLName, XMLAttributes) throws(StatlineError) -> Void
  let end: (XMLName) -> Void
  let text: ((UnsafeBufferPointer<UInt8>) -> Void)?
  var depth = 0
  var error: StatlineError?
  /// Whether `error` is set (a plain load for the callbacks, as in `HTMLStreamState`).
  var failed = false
  var parser: xmlParserCtxtPtr?

  init(
    maximumDepth: Int, url: String?, start: @escaping (XMLName, XMLAttributes) throws(StatlineError) -> Void,
    end: @escaping (XMLName) -> Void, text: ((UnsafeBufferPointer<UInt8>) -> Void)?
  ) {
    self.maximumDepth = maximumDepth
    self.url = url
    self.start = start
    self.end = end
    self.text = text
  }

  func stop(_ error: StatlineError) {
    if !failed {
      self.error = error
      failed = true
    }
    if let parser { xmlStopParser(parser) }
  }

  /// Runs `body` with the state behind libxml2's user-data pointer, unless the parse already
  /// failed. The parse holds the state, so the callback borrows it without retaining it.
  @inline(__always)
  private static func with(_ context: UnsafeMutableRawPointer?, _ body: (XMLStreamState) -> Void) {
    guard let context else { return }
    Unmanaged<XMLStreamState>.fromOpaque(context)._withUnsafeGuaranteedRef { state in
      if !state.failed { body(state) }
    }
  }

  /// Only element starts and ends: text, comments and processing instructions are skipped, and
  /// with no entity callbacks a DTD declares nothing.
  nonisolated(unsafe) static let handler: UnsafeMutablePointer<xmlSAXHandler> = {
    let handler = UnsafeMutablePointer<xmlSAXHandler>.allocate(capacity: 1)
    handler.initialize(to: xmlSAXHandler())
    handler.pointee.initialized = XML_SAX2_MAGIC
    handler.pointee.startElementNs = { context, name, _, _, _, _, count, _, attributes in
      guard let name else { return }
      XMLStreamState.with(context) { state in
        state.depth += 1
        guard state.depth <= state.maximumDepth else {
          state.stop(DocumentLimits(maximumDepth: state.maximumDepth).depthRefusal(url: state.url))
          return
        }
        do throws(StatlineError) {
          try state.start(XMLName(pointer: name), XMLAttributes(base: attributes, count: Int(count)))
        } catch {
          state.stop(error)
        }
      }
    }
    handler.pointee.endElementNs = { context, name, _, _ in
      guard let name else { return }
      XMLStreamState.with(context) { state in
        state.depth -= 1
        state.end(XMLName(pointer: name))
      }
    }
    return handler
  }()

  /// `handler` with text and CDATA passed on, for readers that want text.
  nonisolated(unsafe) static let textHandler: UnsafeMutablePointer<xmlSAXHandler> = {
    let textHandler = UnsafeMutablePointer<xmlSAXHandler>.allocate(capacity: 1)
    textHandler.initialize(to: handler.pointee)
    let characters: charactersSAXFunc = { context, bytes, count in
      guard let bytes, count > 0 else { return }
      XMLStreamState.with(context) { state in state.text?(UnsafeBufferPointer(start: bytes, count: Int(count))) }
    }
    textHandler.pointee.characters = characters
    textHandler.pointee.ignorableWhitespace = characters
    textHandler.pointee.cdataBlock = characters
    return textHandler
  }()
}
