import CLibXML2
import Foundation
import StatlineCore

extension Document {
  /// Parses HTML tolerantly (tag soup, malformed attributes, missing end tags), never touching
  /// the network. `encoding` overrides the page's own declaration; without either, libxml2
  /// detects it (UTF-8 and Latin-1 pages both read).
  public static func html(
    _ data: Data, url: String? = nil, encoding: String? = nil, limits: DocumentLimits = .default
  ) throws(StatlineError) -> Document {
    try checkHTMLBytes(data, limits: limits, url: url)
    let pointer = try HTMLDepthGuard.parse(data, url: url, encoding: encoding, maximumDepth: limits.maximumDepth)
    let document = Document(kind: .html, pointer: pointer, limits: limits, url: url)
    guard document.root != nil else { throw noElements(url) }
    return document
  }

  /// Parses XML safely: no network, no DTD loading, no entity substitution. A document that
  /// declares entities (the shape of "billion laughs" and external-entity attacks) is refused.
  public static func xml(
    _ data: Data, url: String? = nil, limits: DocumentLimits = .default
  ) throws(StatlineError) -> Document {
    try checkXMLBytes(data, limits: limits, url: url)
    LibXML.prepareThread()
    var lastError = ""
    let pointer = data.withUnsafeBytes { buffer in
      let document = xmlReadMemory(
        buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), url, nil,
        xmlOptions)
      if document == nil, let error = xmlGetLastError() {
        let message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        lastError = "\(message.trimmingCharacters(in: .whitespacesAndNewlines)) at line \(error.pointee.line)"
      }
      return document
    }
    guard let pointer else { throw xmlFailure(lastError, url: url) }
    let document = Document(kind: .xml, pointer: pointer, limits: limits, url: url)
    if let subset = pointer.pointee.intSubset, subset.pointee.entities != nil || subset.pointee.pentities != nil {
      throw entityRefusal(url)
    }
    guard document.root != nil else {
      throw StatlineError(.wrongPage, "the XML document has no root element", location: url)
    }
    try document.checkDepth(limits: limits, url: url)
    return document
  }

  /// No network, no DTD loading, no entity substitution, nothing printed.
  static let xmlOptions = Int32(
    XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue
      | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue)

  /// The checks before any HTML parse: the size limit, and some markup at all.
  static func checkHTMLBytes(_ data: Data, limits: DocumentLimits, url: String?) throws(StatlineError) {
    try checkSize(data, limits: limits, url: url)
    guard data.contains(UInt8(ascii: "<")) else {
      throw StatlineError(
        .wrongPage, "the page holds no HTML markup (\(data.count) bytes of text or binary data)", location: url,
        hint: "check that the answer is an HTML page")
    }
  }

  /// The error for HTML libxml2 read without finding one element.
  static func noElements(_ url: String?) -> StatlineError {
    StatlineError(
      .wrongPage, "the page holds no HTML elements", location: url,
      hint: "the body is not HTML (binary data, or text without markup)")
  }

  /// The checks before any XML parse: the size limit, and no entity declarations.
  static func checkXMLBytes(_ data: Data, limits: DocumentLimits, url: String?) throws(StatlineError) {
    try checkSize(data, limits: limits, url: url)
    if ByteSearch.contains(data, "<!ENTITY") {
      throw entityRefusal(url)
    }
  }

  /// The error for XML libxml2 refused: cut off (fetch again) or not well-formed.
  static func xmlFailure(_ lastError: String, url: String?) -> StatlineError {
    if lastError.contains("Premature end of data") || lastError.contains("not found") && lastError.contains("EndTag") {
      return StatlineError(
        .truncated, "the XML ends before its elements close: \(lastError)", location: url,
        hint: "the file was cut off in transfer or is still being written; it is fetched again on the next poll")
    }
    return StatlineError(
      .wrongPage, "the XML is not well-formed: \(lastError.isEmpty ? "libxml2 refused it" : lastError)",
      location: url, hint: "the document may be truncated or not XML at all")
  }

  /// True when the bytes end a whole HTML page: `</html>` within the last 4 KiB. Tolerant
  /// parsing would otherwise turn a cut-off page into a shorter, silently incomplete one.
  public static func endsHTMLPage(_ data: Data) -> Bool {
    let tail = String(decoding: data.suffix(4096), as: UTF8.self).lowercased()
    return tail.contains("</html")
  }

  /// Walks the tree without recursion and refuses one nested deeper than the limit.
  func checkDepth(limits: DocumentLimits, url: String?) throws(StatlineError) {
    guard var node = xmlDocGetRootElement(pointer) else { return }
    var depth = 1
    while true {
      if let child = node.pointee.children, child.pointee.type != XML_ENTITY_DECL {
        node = child
        depth += 1
        if depth > limits.maximumDepth {
          throw limits.depthRefusal(url: url)
        }
        continue
      }
      while node.pointee.next == nil {
        guard let parent = node.pointee.parent, depth > 1 else { return }
        node = parent
        depth -= 1
      }
      guard let next = node.pointee.next else { return }
      node = next
    }
  }

  private static func entityRefusal(_ url: String?) -> StatlineError {
    StatlineError(
      .unsafeDocument, "the XML declares entities (<!ENTITY>), which Statline refuses to read",
      location: url,
      hint: "entity declarations enable billion-laughs and external-entity attacks; no stats feed needs them")
  }

  private static func checkSize(_ data: Data, limits: DocumentLimits, url: String?) throws(StatlineError) {
    guard data.count <= limits.maximumBytes else {
      throw StatlineError(
        .unsafeDocument,
        "the document is \(data.count) bytes, over the limit of \(limits.maximumBytes)",
        location: url, hint: "raise the response size limit if the page is genuinely this large")
    }
    guard data.count <= Int(Int32.max) else {
      throw StatlineError(.unsafeDocument, "the document is too large for libxml2", location: url)
    }
  }
}
