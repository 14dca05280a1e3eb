import Foundation
import StatlineCore
import StatlineHTML

/// A StatCrew game file, by its sport: lacrosse (`<lcgame>`), basketball (`<bbgame>`,
/// `<wbbgame>`), volleyball (`<vbgame>`), soccer and field hockey (`<sogame>`), football
/// (`<fbgame>`) or baseball and softball (`<bsgame>`). Other roots stay
/// `LCGameReader`'s clear errors.
enum StatCrewGame: Sendable {
  case lacrosse(LCGame)
  case basketball(GroupedGame)
  case volleyball(GroupedGame)
  case soccer(GroupedGame)
  case football(GroupedGame)
  case baseball(GroupedGame)
}

/// Reads a StatCrew game file with the reader of its root element.
struct StatCrewGameParser: PageParser {
  func parse(_ page: Page) throws -> StatCrewGame {
    switch Self.root(of: page.body) {
    case "bbgame", "wbbgame": return .basketball(try GroupedGameParser(layout: .basketball).parse(page))
    case "vbgame": return .volleyball(try GroupedGameParser(layout: .volleyball).parse(page))
    case "sogame": return .soccer(try GroupedGameParser(layout: .soccer).parse(page))
    case "fbgame": return .football(try GroupedGameParser(layout: .football).parse(page))
    case "bsgame": return .baseball(try GroupedGameParser(layout: .baseball).parse(page))
    default: return .lacrosse(try LCGameParser().parse(page))
    }
  }

  /// The root element's name: the first tag after the XML declaration, comments, processing
  /// instructions and a doctype; nil when there is none in the first 64 KB.
  static func root(of body: Data) -> String? {
    let bytes = body.prefix(65_536)
    var index = bytes.startIndex
    while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
      let next = bytes.index(after: open)
      guard next < bytes.endIndex else { return nil }
      let first = bytes[next]
      if first == UInt8(ascii: "?") || first == UInt8(ascii: "!") {
        // A comment ends at `-->`, not at a `>` inside it (a writer's note may quote a tag).
        if bytes[next...].starts(with: Array("!--".utf8)) {
          guard let end = bytes[next...].firstRange(of: Array("-->".utf8)) else { return nil }
          index = end.upperBound
          continue
        }
        guard let close = bytes[next...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
        index = bytes.index(after: close)
        continue
      }
      let name = bytes[next...].prefix { byte in
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
          || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
      }
      return String(decoding: name, as: UTF8.self).lowercased()
    }
    return nil
  }
}

/// Each sport's normalizer for its file.
struct StatCrewGameNormalizer: Normalizer {
  func normalize(_ game: StatCrewGame, page: Page) throws -> Batch {
    switch game {
    case .lacrosse(let xml): try LCGameNormalizer().normalize(xml, page: page)
    case .basketball(let xml): try BasketballGameNormalizer().normalize(xml, page: page)
    case .volleyball(let xml): try VolleyballGameNormalizer().normalize(xml, page: page)
    case .soccer(let xml): try SoccerGameNormalizer().normalize(xml, page: page)
    case .football(let xml): try FootballGameNormalizer().normalize(xml, page: page)
    case .baseball(let xml): try BaseballGameNormalizer().normalize(xml, page: page)
    }
  }
}
