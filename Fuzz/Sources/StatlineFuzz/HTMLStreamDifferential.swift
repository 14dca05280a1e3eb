import Foundation
import StatlineCore
import StatlineHTML

/// The `html-stream` target: the page read by `HTMLStream` (Swift's tokenizer, libxml2 for pages
/// outside its subset) and by libxml2 alone. When the tokenizer read it, the events and the
/// error must be libxml2's, or the target stops.
enum HTMLStreamDifferential {
  /// Every event, written down.
  struct Log: HTMLStreamReader {
    var bytes: [UInt8] = []

    mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
      bytes.append(1)
      bytes.append(contentsOf: element.string.utf8)
      for (name, value) in attributes {
        bytes.append(2)
        bytes.append(contentsOf: name.string.utf8)
        bytes.append(3)
        bytes.append(contentsOf: value.bytes)
      }
    }

    mutating func end(_ element: XMLName) {
      bytes.append(4)
      bytes.append(contentsOf: element.string.utf8)
    }

    mutating func text(_ text: UnsafeBufferPointer<UInt8>) {
      // Runs of text may be cut anywhere: join them.
      bytes.append(contentsOf: text)
    }

    mutating func comment() { bytes.append(5) }
  }

  static func check(_ data: Data) {
    let limits = DocumentLimits(maximumBytes: 1 << 20, maximumDepth: 256)
    var swift = Log()
    var reference = Log()
    var engine: HTMLStream.Engine?
    var errors: (String?, String?) = (nil, nil)
    do { engine = try HTMLStream.read(data, into: &swift, url: "fuzz.html", limits: limits) } catch {
      errors.0 = error.description
    }
    guard engine == .swift || errors.0 != nil else { return }
    do { try HTMLStream.read(data, into: &reference, url: "fuzz.html", limits: limits, engine: .libxml2) } catch {
      errors.1 = error.description
    }
    if swift.bytes != reference.bytes || errors.0 != errors.1 {
      fatalError(
        "HTMLTokenizer and libxml2 differ on \(String(decoding: data, as: UTF8.self).debugDescription):\n"
          + "swift \(String(decoding: swift.bytes, as: UTF8.self).debugDescription) \(errors.0 ?? "")\n"
          + "libxml2 \(String(decoding: reference.bytes, as: UTF8.self).debugDescription) \(errors.1 ?? "")")
    }
  }
}
