import StatlineCore
import StatlineHTML

/// Reads a decoded broadcast view in one pass, without a tree: keeps whole only the first
/// element whose class lists `statusbar` (CSS `.statusbar`).
struct BroadcastViewReader: HTMLStreamReader {
  private(set) var statusBar: FragmentNode?
  private var started = false
  private var captures = FragmentCaptures()

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    if !started, let classes = attributes["class"], classes.hasClass("statusbar") {
      started = true
      captures.begin(0)
    }
    captures.start(element, attributes: attributes)
  }

  mutating func end(_ element: XMLName) { captures.end { _, root in statusBar = root } }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }

  mutating func comment() { captures.comment() }
}
