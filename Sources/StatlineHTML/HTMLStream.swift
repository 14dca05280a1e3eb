import CLibXML2
import Foundation
import StatlineCore

/// Receives an HTML page's elements and text as libxml2's HTML parser reads them, without a
/// tree (whichever of `HTMLStream`'s two readers reads the page). The events are the ones libxml2's own tree builder receives (implied end tags are
/// delivered as ends, every element that opens is closed), so a reader sees the structure a
/// `Document` of the same bytes would have.
///
/// Names, attribute values and text are views into the parser's buffers: valid only during the
/// call. A reader is a value: when `HTMLTokenizer` hands a page over to libxml2 part way, the
/// page is read again from the start into a copy of the reader as it was before the first event.
public protocol HTMLStreamReader {
  /// A start tag (name in lower case) and its attributes. Throwing stops the parse; the error is
  /// what `read` throws.
  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError)
  /// An end tag, written or implied.
  mutating func end(_ element: XMLName)
  /// Text (character references decoded, UTF-8). One run of text may arrive in several calls.
  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>)
  /// A comment: nothing of it is delivered, but in a tree it separates the text around it.
  mutating func comment()
}

extension HTMLStreamReader {
  public mutating func comment() {}
}

/// Streaming HTML: the page's elements and text as libxml2's HTML parser reads them (tag soup
/// recovered as in `Document.html`, same options), without a tree, for pages read in one pass.
/// The safety rules are those of `Document.html`: a size limit, no network, a depth limit.
///
/// Two readers give the same events: `HTMLTokenizer` (Swift) for pages in the subset real pages
/// stay in, and libxml2's parser with its tree builder replaced by the reader for any other
/// page. A page the tokenizer finds outside its subset is read again from the start by libxml2,
/// into a copy of the reader as it was: readers are values.
public enum HTMLStream {
  /// Which parser read a page.
  public enum Engine: Sendable {
    /// `HTMLTokenizer`, falling back to libxml2 for pages outside its subset.
    case automatic
    /// libxml2's HTML parser.
    case libxml2
    /// `HTMLTokenizer` read the page.
    case swift
  }

  /// Inlinable, so the reader's calls are specialized (direct, inlinable) in the module that
  /// calls it; the parse itself is `run`. Returns the engine that read the page (`engine`
  /// `.libxml2` forces libxml2, for differential tests).
  @inlinable @discardableResult
  public static func read<Reader: HTMLStreamReader>(
    _ data: Data, into reader: inout Reader, url: String? = nil, encoding: String? = nil,
    limits: DocumentLimits = .default, engine: Engine = .automatic
  ) throws(StatlineError) -> Engine {
    let original = reader
    return try withUnsafeMutablePointer(to: &reader) { pointer throws(StatlineError) in
      try run(
        data, url: url, encoding: encoding, limits: limits, engine: engine,
        start: { name, attributes throws(StatlineError) in try pointer.pointee.start(name, attributes: attributes) },
        end: { name in pointer.pointee.end(name) },
        text: { bytes in pointer.pointee.text(bytes) },
        comment: { pointer.pointee.comment() },
        restart: { pointer.pointee = original })
    }
  }

  /// The parse, with the reader's calls as closures (valid only during the call); `restart`
  /// puts the reader back as it was before the first event.
  @usableFromInline
  static func run(
    _ data: Data, url: String?, encoding: String?, limits: DocumentLimits, engine: Engine,
    start: @escaping (XMLName, HTMLAttributes) throws(StatlineError) -> Void, end: @escaping (XMLName) -> Void,
    text: @escaping (UnsafeBufferPointer<UInt8>) -> Void, comment: @escaping () -> Void, restart: () -> Void
  ) throws(StatlineError) -> Engine {
    try Document.checkHTMLBytes(data, limits: limits, url: url)
    if engine == .automatic, encoding == nil || encoding?.lowercased() == "utf-8" {
      let outcome = data.withUnsafeBytes { raw -> Result<Int, HTMLTokenizer.Stop> in
        var tokenizer = HTMLTokenizer(
          bytes: raw.bindMemory(to: UInt8.self), maximumDepth: limits.maximumDepth, url: url,
          declaredUTF8: encoding != nil, start: start, end: end,
          text: text, comment: comment)
        do throws(HTMLTokenizer.Stop) {
          try tokenizer.read()
          return .success(tokenizer.elements)
        } catch {
          return .failure(error)
        }
      }
      switch outcome {
      case .success(let elements):
        if elements == 0 { throw Document.noElements(url) }
        return .swift
      case .failure(.failed(let error)):
        throw error
      case .failure(.unsupported):
        restart()
      }
    }
    try parseWithLibXML(
      data, url: url, encoding: encoding, limits: limits, start: start, end: end, text: text, comment: comment)
    return .libxml2
  }

  static func parseWithLibXML(
    _ data: Data, url: String?, encoding: String?, limits: DocumentLimits,
    start: @escaping (XMLName, HTMLAttributes) throws(StatlineError) -> Void, end: @escaping (XMLName) -> Void,
    text: @escaping (UnsafeBufferPointer<UInt8>) -> Void, comment: @escaping () -> Void
  ) throws(StatlineError) {
    LibXML.prepareThread()
    guard let context = htmlNewParserCtxt() else {
      throw StatlineError(.io, "libxml2 could not allocate an HTML parser", location: url)
    }
    defer { htmlFreeParserCtxt(context) }
    HTMLStreamState.install(on: context)
    let state = HTMLStreamState(
      maximumDepth: limits.maximumDepth, url: url, parser: context, start: start, end: end, text: text,
      comment: comment)
    context.pointee._private = Unmanaged.passUnretained(state).toOpaque()
    defer { context.pointee._private = nil }
    let document = data.withUnsafeBytes { buffer in
      htmlCtxtReadMemory(
        context, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), url, encoding,
        LibXML.htmlOptions)
    }
    // No start-document callback, so libxml2 builds no document; free one if it ever does.
    if let document { xmlFreeDoc(document) }
    if let error = state.error { throw error }
    if state.elements == 0 { throw Document.noElements(url) }
  }
}

/// The attributes of one HTML start tag, in document order: libxml2's array of name and value
/// pairs (a value is absent for a bare attribute such as `nowrap`).
public struct HTMLAttributes: Sequence {
  let base: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

  /// The value of the attribute called `name` (lower case), nil when the tag has none. A bare
  /// attribute reads as libxml2's tree reads it: a boolean one (`nowrap`) as its name, others as "".
  public subscript(name: StaticString) -> XMLValue? {
    for (attribute, value) in self where attribute == name { return value }
    return nil
  }

  /// The value of the attribute called `name` as a string (HTML values arrive decoded).
  public func string(_ name: StaticString) -> String? {
    self[name].map { String(decoding: $0.bytes, as: UTF8.self) }
  }

  public func makeIterator() -> Iterator { Iterator(entry: base) }

  public struct Iterator: IteratorProtocol {
    var entry: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?

    public mutating func next() -> (name: XMLName, value: XMLValue)? {
      guard let current = entry, let name = current[0] else { return nil }
      entry = current + 2
      // A bare boolean attribute (`nowrap`) reads as its name, any other bare one as "", as in
      // libxml2's tree.
      let value = current[1] ?? (htmlIsBooleanAttr(name) != 0 ? name : nil)
      return (
        XMLName(pointer: name),
        XMLValue(bytes: UnsafeBufferPointer(start: value, count: value.map { strlen($0) } ?? 0))
      )
    }
  }
}

/// What the C callbacks reach through the parser context's `_private` pointer.
final class HTMLStreamState {
  let maximumDepth: Int
  let url: String?
  let parser: htmlParserCtxtPtr
  let start: (XMLName, HTMLAttributes) throws(StatlineError) -> Void
  let end: (XMLName) -> Void
  let text: (UnsafeBufferPointer<UInt8>) -> Void
  let comment: () -> Void
  var depth = 0
  var elements = 0
  var error: StatlineError?
  /// Whether `error` is set: what every callback tests, a plain load where testing the optional
  /// error went through its value witness.
  var failed = false

  init(
    maximumDepth: Int, url: String?, parser: htmlParserCtxtPtr,
    start: @escaping (XMLName, HTMLAttributes) throws(StatlineError) -> Void, end: @escaping (XMLName) -> Void,
    text: @escaping (UnsafeBufferPointer<UInt8>) -> Void, comment: @escaping () -> Void
  ) {
    self.maximumDepth = maximumDepth
    self.url = url
    self.parser = parser
    self.start = start
    self.end = end
    self.text = text
    self.comment = comment
  }

  func stop(_ error: StatlineError) {
    if !failed {
      self.error = error
      failed = true
    }
    xmlStopParser(parser)
  }

  /// Runs `body` with the state of a callback's parser, unless the parse already failed. The
  /// parse holds the state, so the callback borrows it without retaining it.
  @inline(__always)
  private static func with(_ context: UnsafeMutableRawPointer?, _ body: (HTMLStreamState) -> Void) {
    guard let opaque = context?.assumingMemoryBound(to: xmlParserCtxt.self).pointee._private else { return }
    Unmanaged<HTMLStreamState>.fromOpaque(opaque)._withUnsafeGuaranteedRef { state in
      if !state.failed { body(state) }
    }
  }

  /// Replaces the context's tree builder with the stream's callbacks: elements, text (script
  /// and style content included, as the tree keeps it) and comments; nothing else.
  static func install(on context: htmlParserCtxtPtr) {
    guard let sax = context.pointee.sax else { return }
    sax.pointee = htmlSAXHandler()
    sax.pointee.initialized = 1
    sax.pointee.startElement = { context, name, attributes in
      guard let name else { return }
      HTMLStreamState.with(context) { state in
        state.depth += 1
        state.elements += 1
        guard state.depth <= state.maximumDepth else {
          state.stop(DocumentLimits(maximumDepth: state.maximumDepth).depthRefusal(url: state.url))
          return
        }
        do throws(StatlineError) {
          try state.start(XMLName(pointer: name), HTMLAttributes(base: attributes))
        } catch {
          state.stop(error)
        }
      }
    }
    sax.pointee.endElement = { context, name in
      guard let name else { return }
      HTMLStreamState.with(context) { state in
        state.depth -= 1
        state.end(XMLName(pointer: name))
      }
    }
    let characters: charactersSAXFunc = { context, bytes, count in
      guard let bytes, count > 0 else { return }
      HTMLStreamState.with(context) { state in state.text(UnsafeBufferPointer(start: bytes, count: Int(count))) }
    }
    sax.pointee.characters = characters
    sax.pointee.cdataBlock = characters
    sax.pointee.comment = { context, _ in HTMLStreamState.with(context) { $0.comment() } }
  }
}
