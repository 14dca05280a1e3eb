import StatlineCore
import StatlineHTML

/// Reads a team's season page in one pass, without a tree: keeps whole only the card headers,
/// the selected option of the sport list and the schedule rows (`tr.underline_rows` inside a
/// table), and notes which cards hold each row, so the parser finds the "Schedule/Results"
/// card's rows as `//div[contains(@class,'card')][div[contains(@class,'card-header')]
/// [normalize-space(.)='Schedule/Results']]//table//tr[contains(@class,'underline_rows')]` would.
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
  /// The first `option[@selected]` of `select#sport_list`.
  private(set) var selectedSport: FragmentNode?

  private struct Frame {
    var card: Int?
    var table = false
    var sportList = false
  }

  private enum Slot {
    case header(Int)
    case row(Int)
    case sport
  }

  private var frames: [Frame] = []
  private var cards = 0
  private var openCards: [Int] = []
  private var tableDepth = 0
  private var captures: [(slot: Slot, builder: FragmentBuilder)] = []

  mutating func start(_ element: XMLName, attributes: HTMLAttributes) throws(StatlineError) {
    var frame = Frame()
    if element == "div", let classes = attributes["class"], classes.contains("card") {
      if classes.contains("card-header") {
        headers.append((nil, frames.last?.card))
        captures.append((.header(headers.count - 1), FragmentBuilder()))
      }
      frame.card = cards
      openCards.append(cards)
      cards += 1
    } else if element == "table" {
      frame.table = true
      tableDepth += 1
    } else if element == "tr", tableDepth > 0, !openCards.isEmpty,
      let classes = attributes["class"], classes.contains("underline_rows")
    {
      rows.append(Row(cards: openCards))
      captures.append((.row(rows.count - 1), FragmentBuilder()))
    } else if element == "select", let id = attributes["id"], id == "sport_list" {
      frame.sportList = true
    } else if element == "option", selectedSport == nil, frames.last?.sportList == true,
      attributes["selected"] != nil, !captures.contains(where: { if case .sport = $0.slot { true } else { false } })
    {
      captures.append((.sport, FragmentBuilder()))
    }
    frames.append(frame)
    for index in captures.indices { captures[index].builder.start(element, attributes: attributes) }
  }

  mutating func end(_ element: XMLName) {
    for index in captures.indices.reversed() {
      if let root = captures[index].builder.end() {
        switch captures[index].slot {
        case .header(let header): headers[header].element = root
        case .row(let row): rows[row].element = root
        case .sport: selectedSport = root
        }
        captures.remove(at: index)
      }
    }
    guard let frame = frames.popLast() else { return }
    if frame.card != nil { openCards.removeLast() }
    if frame.table { tableDepth -= 1 }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    for index in captures.indices { captures[index].builder.text(bytes) }
  }

  mutating func comment() {
    for index in captures.indices { captures[index].builder.comment() }
  }

  /// The rows of the first card headed "Schedule/Results", or nil when no card is.
  var scheduleRows: [FragmentNode]? {
    let card = headers.filter { $0.card != nil && $0.element?.text == "Schedule/Results" }.compactMap(\.card).min()
    guard let card else { return nil }
    return rows.filter { $0.cards.contains(card) }.compactMap(\.element)
  }

  /// The team's heading: the first card header with a logo image child.
  var heading: FragmentNode? {
    headers.lazy.compactMap(\.element).first { header in
      header.children(named: "img").contains { $0.attribute("class")?.contains("logo_image") == true }
    }
  }
}
