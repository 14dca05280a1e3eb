import StatlineCore
import StatlineHTML

/// Reads `/BCSResponse/event` in one pass, without a tree: the first event's attributes and the
/// text of the child elements in `EventRecord.fields`. Other children's text (the answer's large
/// ad-campaign script, say) is passed over, not copied.
struct EventReader: XMLStreamReader {
  static let readsText = true
  /// The children kept as fields, with their text normalized as `Node.text` normalizes it.
  static let keptFields: Set<String> = [
    "title", "venue", "location", "date", "dbdate", "time", "xmlfile", "sport", "sportLong", "gender",
  ]

  private(set) var record: EventRecord?
  private var depth = 0
  private var inEvent = false
  private var done = false
  /// The kept child being read, and its text so far.
  private var field: String?
  private var text: [UInt8] = []

  mutating func start(_ element: XMLName, attributes: XMLAttributes) throws(StatlineError) {
    depth += 1
    guard !done else { return }
    switch depth {
    case 1: done = !(element == "BCSResponse")
    case 2 where element == "event":
      inEvent = true
      record = EventRecord(attributes: attributes.dictionary, fields: [:])
    case 3 where inEvent:
      let name = element.string
      field = Self.keptFields.contains(name) ? name : nil
      text.removeAll(keepingCapacity: true)
    default: break
    }
  }

  mutating func end(_ element: XMLName) {
    defer { depth -= 1 }
    guard inEvent else { return }
    if depth == 3, let name = field {
      record?.fields[name] = text.withUnsafeBufferPointer { Node.normalizeWhitespace($0) }
      field = nil
    } else if depth == 2 {
      inEvent = false
      done = true
    }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
    if field != nil { text.append(contentsOf: bytes) }
  }
}
