import StatlineCore
import StatlineHTML

/// Reads a team's season page in one pass, without a tree: keeps whole only the card headers,
/// the selected option of the sport list and the rows of tables inside cards (whatever their
/// class: the header row too, and a game row without `underline_rows` is still a game), and
/// notes which cards hold each row, so the parser finds the "Schedule/Results" card's rows as
/// `//div[contains(@class,'card')][div[contains(@class,'card-header')]
/// [normalize-space(.)='Schedule/Results']]//table//tr` would.
struct TeamScheduleReader: HTMLStreamReader {
  struct Row {
    var element: FragmentNode?
    /// Every card (div whose class contains "card") the row is inside.
    var cards: [Int]
  }

  /// The card headers (div whose class contains "card-header"), in document order, with the
  /// card they head when their parent is one.
  private(set) var headers: [(element: FragmentNode?, card: Int?)] = []
  private(set) var rows: [Row] = []
  private(set) var sport = SelectedSportReader()

  private struct Frame {
    var card: Int?
    var table = false
  }

  private enum Slot {
    case header(Int)
    case row(Int)
  }

  private var frames: [Frame] = []
  private var cards = 0
  private var openCards: [Int] = []
  private var tableDepth = 0
  private var captures = TaggedCaptures<Slot>()

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    var frame = Frame()
    if element == "div", let classes = attributes["class"], classes.contains("card") {
      if classes.contains("card-header") {
        headers.append((nil, frames.last?.card))
        captures.keep(.header(headers.count - 1))
      }
      frame.card = cards
      openCards.append(cards)
      cards += 1
    } else if element == "table" {
      frame.table = true
      tableDepth += 1
    } else if element == "tr", tableDepth > 0, !openCards.isEmpty {
      rows.append(Row(cards: openCards))
      captures.keep(.row(rows.count - 1))
    }
    sport.start(element, attributes: attributes)
    frames.append(frame)
    captures.start(element, attributes: attributes)
  }

  mutating func end(_ element: XMLName) {
    captures.end { slot, root in
      switch slot {
      case .header(let header): headers[header].element = root
      case .row(let row): rows[row].element = root
      }
    }
    sport.end()
    guard let frame = frames.popLast() else { return }
    if frame.card != nil { openCards.removeLast() }
    if frame.table { tableDepth -= 1 }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    captures.text(bytes)
    sport.text(bytes)
  }

  mutating func comment() { captures.comment() }

  /// The rows of the first card headed "Schedule/Results", or nil when no card is.
  var scheduleRows: [FragmentNode]? {
    let card = headers.filter { $0.card != nil && $0.element?.text == "Schedule/Results" }.compactMap(\.card).min()
    guard let card else { return nil }
    return rows.filter { $0.cards.contains(card) }.compactMap(\.element)
  }

  /// The team's heading, found by what it holds rather than by a class: the first card header
  /// with a logo image that names the team (`alt`) or with the athletics link. Early-season
  /// pages print the logo without the `logo_image` class.
  var heading: FragmentNode? {
    headers.lazy.compactMap(\.element).first { header in
      header.children(named: "img").contains { !($0.attribute("alt") ?? "").isEmpty }
        || header.children(named: "a").contains { $0.attribute("target") == "ATHLETICS_URL" }
    }
  }
}
