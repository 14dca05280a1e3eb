import StatlineCore
import StatlineHTML

/// Reads a contest tab in one pass of libxml2's HTML parser, without a tree of the page: it
/// keeps as fragments only the tables the box score is read from (the centred header tables and
/// the `competitor_…_data_table` stat tables), and notes the team link in each card's header.
/// The fragments hold what the tree would hold, so the parser reads them as it read the tree.
struct ContestBoxReader: HTMLStreamReader {
  struct Table {
    var element: FragmentNode?
    /// Not inside another table.
    var outermost: Bool
    /// The card (`div.card`) holding the table, if any.
    var card: Int?
  }

  /// The centred tables, one of which is the header, in document order.
  private(set) var centredTables: [Table] = []
  /// The stat tables, in document order.
  private(set) var statTables: [Table] = []
  /// The newer summary tab's tables (game leaders, team stats) were seen.
  private(set) var sawSummaryTables = false
  /// Per card, the first `/teams/` link in one of its `div.card-header` children.
  private var cardLinks: [String?] = []

  private struct Frame {
    var table = false
    var card: Int?
    var cardHeader: Int?
  }

  private enum Slot {
    case centred(Int)
    case stat(Int)
  }

  private var frames: [Frame] = []
  private var tableDepth = 0
  private var openCards: [Int] = []
  private var openCardHeaders: [Int] = []
  private var captures = TaggedCaptures<Slot>()

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    var frame = Frame()
    if element == "table" {
      frame.table = true
      if let id = attributes.string("id") {
        if id.hasPrefix("competitor_") && id.hasSuffix("_data_table") {
          statTables.append(Table(outermost: tableDepth == 0, card: openCards.last))
          captures.keep(.stat(statTables.count - 1))
        } else if id == "game_leaders_table" || id == "team_stats_table" {
          sawSummaryTables = true
        }
      }
      if let align = attributes["align"], align == "center" {
        centredTables.append(Table(outermost: tableDepth == 0, card: openCards.last))
        captures.keep(.centred(centredTables.count - 1))
      }
      tableDepth += 1
    } else if element == "div", let value = attributes["class"], value.contains("card") {
      let classes = String(decoding: value.bytes, as: UTF8.self)
      if classes.split(whereSeparator: \.isWhitespace).contains("card") {
        cardLinks.append(nil)
        frame.card = cardLinks.count - 1
        openCards.append(cardLinks.count - 1)
      }
      if let card = frames.last?.card, value.contains("card-header") {
        frame.cardHeader = card
        openCardHeaders.append(card)
      }
    } else if element == "a", !openCardHeaders.isEmpty, let href = attributes.string("href"),
      href.hasPrefix("/teams/")
    {
      for card in openCardHeaders where cardLinks[card] == nil { cardLinks[card] = href }
    }
    frames.append(frame)
    captures.start(element, attributes: attributes)
  }

  mutating func end(_ element: XMLName) {
    captures.end { slot, root in
      switch slot {
      case .centred(let table): centredTables[table].element = root
      case .stat(let table): statTables[table].element = root
      }
    }
    guard let frame = frames.popLast() else { return }
    if frame.table { tableDepth -= 1 }
    if frame.card != nil { openCards.removeLast() }
    if frame.cardHeader != nil { openCardHeaders.removeLast() }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) { captures.text(bytes) }

  mutating func comment() { captures.comment() }

  /// The header table: the first outermost centred table with a score cell, else the first one
  /// anywhere.
  var header: FragmentNode? {
    let found = centredTables.compactMap { table in table.element.map { (table.outermost, $0) } }
      .filter { ContestHeader.isHeader($0.1) }
    return (found.first { $0.0 } ?? found.first)?.1
  }

  /// The stat tables to read with their card's team link: the outermost ones, or when there are
  /// none (stat tables nested in a layout table) all of them.
  var tables: [(table: FragmentNode, teamLink: String?)] {
    let outermost = statTables.contains { $0.outermost }
    return statTables.compactMap { table in
      guard let element = table.element, table.outermost || !outermost else { return nil }
      return (element, table.card.flatMap { cardLinks[$0] })
    }
  }
}
