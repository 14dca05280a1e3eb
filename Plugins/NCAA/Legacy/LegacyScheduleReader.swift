import StatlineCore
import StatlineHTML

/// Reads a legacy team page in one pass, without a tree: keeps whole only the `table.mytable`
/// tables (one is the schedule), the organisation heading and the selected sport, and notes the
/// first roster link.
struct LegacyScheduleReader: HTMLStreamReader {
  private enum Slot {
    case table(Int)
    case heading
  }

  /// Tables whose class contains "mytable", in document order.
  private(set) var tables: [FragmentNode?] = []
  /// The first `span` whose class contains "org_heading".
  private(set) var heading: FragmentNode?
  /// The first link to a roster page.
  private(set) var rosterLink: String?
  private(set) var sport = SelectedSportReader()
  private var headingStarted = false
  private var captures = TaggedCaptures<Slot>()

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    if element == "table", let classes = attributes["class"], classes.contains("mytable") {
      tables.append(nil)
      captures.keep(.table(tables.count - 1))
    } else if element == "span", !headingStarted, let classes = attributes["class"], classes.contains("org_heading") {
      headingStarted = true
      captures.keep(.heading)
    } else if element == "a", rosterLink == nil, let href = attributes["href"], href.contains("/roster/") {
      rosterLink = String(decoding: href.bytes, as: UTF8.self)
    }
    captures.start(element, attributes: attributes)
    sport.start(element, attributes: attributes)
  }

  mutating func end(_ element: XMLName) {
    captures.end { slot, root in
      switch slot {
      case .table(let index): tables[index] = root
      case .heading: heading = root
      }
    }
    sport.end()
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    captures.text(bytes)
    sport.text(bytes)
  }

  mutating func comment() { captures.comment() }

  /// The schedule: the first `table.mytable` with a heading row (a `tr` child whose class
  /// contains "heading") mentioning "Schedule/Results".
  var schedule: FragmentNode? {
    tables.lazy.compactMap { $0 }.first { table in
      table.children(named: "tr").contains { row in
        row.attribute("class")?.contains("heading") == true && row.text.contains("Schedule/Results")
      }
    }
  }
}
