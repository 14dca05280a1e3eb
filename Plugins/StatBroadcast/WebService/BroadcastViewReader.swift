import StatlineCore
import StatlineHTML

/// Reads a decoded broadcast view in one pass, without a tree: keeps whole the first element
/// whose class lists `statusbar` (CSS `.statusbar`), and every table (the line score is the one
/// whose header names a run or score column beside numbered periods).
struct BroadcastViewReader: HTMLStreamReader {
  private(set) var statusBar: FragmentNode?
  private(set) var tables: [FragmentNode] = []
  private var started = false
  private var captures = FragmentCaptures()

  private static let statusTag = 0
  private static let tableTag = 1

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    if !started, let classes = attributes["class"], classes.hasClass("statusbar") {
      started = true
      captures.begin(Self.statusTag)
    }
    if element == "table" { captures.begin(Self.tableTag) }
    captures.start(element, attributes: attributes)
  }

  mutating func end(_ element: XMLName) {
    captures.end { tag, root in
      if tag == Self.statusTag { statusBar = root } else { tables.append(root) }
    }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }

  mutating func comment() { captures.comment() }
}
