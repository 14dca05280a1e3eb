import StatlineCore
import StatlineHTML

/// Reads a school's event calendar page in one pass, without a tree: keeps whole only the
/// `table#eventCalendar` tables (not one inside another: the outer one holds its rows).
struct CalendarReader: HTMLStreamReader {
  private(set) var tables: [FragmentNode] = []
  private var captures = FragmentCaptures()

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    if !captures.isCapturing, element == "table", let id = attributes["id"], id == "eventCalendar" {
      captures.begin(0)
    }
    captures.start(element, attributes: attributes)
  }

  mutating func end(_ element: XMLName) { captures.end { _, root in tables.append(root) } }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }

  mutating func comment() { captures.comment() }

  /// Every row with cells (`//table[@id='eventCalendar']//tr[td]`), in document order.
  var rows: [FragmentNode] {
    tables.flatMap { $0.descendants(named: "tr").filter { !$0.children(named: "td").isEmpty } }
  }
}
