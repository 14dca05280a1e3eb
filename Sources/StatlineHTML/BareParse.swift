import CLibXML2
import Foundation

/// libxml2's HTML parse with nothing on top: the baseline that benchmarks compare the document
/// layer against (same options as `Document.html`).
public enum BareParse {
  /// Parses and frees the document; returns false when libxml2 gave no document.
  public static func html(_ data: Data) -> Bool {
    LibXML.prepareThread()
    let document = data.withUnsafeBytes { buffer in
      htmlReadMemory(
        buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil, nil, LibXML.htmlOptions)
    }
    guard let document else { return false }
    xmlFreeDoc(document)
    return true
  }

  /// The XML parse `Document.xml` does (no network, no entities), with nothing on top.
  public static func xml(_ data: Data) -> Bool {
    LibXML.prepareThread()
    let document = data.withUnsafeBytes { buffer in
      xmlReadMemory(
        buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), nil, nil, Document.xmlOptions)
    }
    guard let document else { return false }
    xmlFreeDoc(document)
    return true
  }
}
