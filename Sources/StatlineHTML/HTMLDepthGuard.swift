import CLibXML2
import Foundation
import StatlineCore

/// Parses HTML with the nesting depth watched as the tree is built: libxml2's own tree builder,
/// with its start-tag callback wrapped to stop the parse past the limit. (Walking the finished
/// tree instead cost a pass over every node of every page.)
enum HTMLDepthGuard {
  /// What the wrapped callback reads through the parser context's `_private` pointer.
  private struct Watch {
    var maximumDepth: Int32
    var exceeded = false
  }

  static func parse(
    _ data: Data, url: String?, encoding: String?, maximumDepth: Int
  ) throws(StatlineError) -> xmlDocPtr {
    LibXML.prepareThread()
    guard let context = htmlNewParserCtxt() else {
      throw StatlineError(.io, "libxml2 could not allocate an HTML parser", location: url)
    }
    defer { htmlFreeParserCtxt(context) }
    context.pointee.sax.pointee.startElement = startElement
    var watch = Watch(maximumDepth: Int32(clamping: maximumDepth))
    let pointer = withUnsafeMutablePointer(to: &watch) { watch in
      context.pointee._private = UnsafeMutableRawPointer(watch)
      defer { context.pointee._private = nil }
      return data.withUnsafeBytes { buffer in
        htmlCtxtReadMemory(
          context, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), url, encoding,
          LibXML.htmlOptions)
      }
    }
    if watch.exceeded {
      if let pointer { xmlFreeDoc(pointer) }
      throw DocumentLimits(maximumDepth: maximumDepth).depthRefusal(url: url)
    }
    guard let pointer else {
      throw StatlineError(
        .undecodable, "libxml2 could not read the bytes as HTML", location: url,
        hint: "check that the file is an HTML page")
    }
    return pointer
  }

  /// libxml2's tree-building start tag, then the depth check (`nodeNr`: open elements).
  private static let startElement: startElementSAXFunc = { context, name, attributes in
    xmlSAX2StartElement(context, name, attributes)
    guard let context else { return }
    let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
    guard let watch = parser.pointee._private?.assumingMemoryBound(to: Watch.self),
      parser.pointee.nodeNr > watch.pointee.maximumDepth
    else { return }
    watch.pointee.exceeded = true
    xmlStopParser(parser)
  }
}
