import Foundation

/// A tiny, deterministic date reader for formats like `MM/dd/yyyy`, `MM-dd-yy`, `M/d/yyyy` and
/// `MMM d, yyyy`. Unlike `DateFormatter` it never consults the clock (two-digit years are
/// 2000–2069 and 1970–1999) or the locale. Any other character must match literally.
public struct DateFormat: Sendable, Equatable, CustomStringConvertible {
  enum Token: Equatable, Sendable {
    case year4, year2, month, monthName, day
    case literal(Character)
  }

  public let pattern: String
  let tokens: [Token]

  public init?(_ pattern: String) {
    var tokens: [Token] = []
    var rest = Substring(pattern)
    while let first = rest.first {
      if rest.hasPrefix("yyyy") {
        tokens.append(.year4)
        rest = rest.dropFirst(4)
      } else if rest.hasPrefix("yy") {
        tokens.append(.year2)
        rest = rest.dropFirst(2)
      } else if rest.hasPrefix("MMM") {
        tokens.append(.monthName)
        rest = rest.dropFirst(3)
      } else if rest.hasPrefix("MM") || rest.hasPrefix("M") {
        tokens.append(.month)
        rest = rest.dropFirst(rest.hasPrefix("MM") ? 2 : 1)
      } else if rest.hasPrefix("dd") || rest.hasPrefix("d") {
        tokens.append(.day)
        rest = rest.dropFirst(rest.hasPrefix("dd") ? 2 : 1)
      } else if first.isLetter {
        return nil
      } else {
        tokens.append(.literal(first))
        rest = rest.dropFirst()
      }
    }
    guard tokens.contains(.day), tokens.contains(where: { $0 == .month || $0 == .monthName }),
      tokens.contains(where: { $0 == .year4 || $0 == .year2 })
    else { return nil }
    self.pattern = pattern
    self.tokens = tokens
  }

  public var description: String { pattern }

  private static let monthNames = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
  ]

  /// Reads `text` (surrounding whitespace ignored) and returns `YYYY-MM-DD`, or nil.
  public func isoDate(from text: String) -> String? {
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    var year = 0
    var month = 0
    var day = 0
    func number(maxDigits: Int) -> Int? {
      let digits = rest.prefix(maxDigits).prefix { $0.isASCII && $0.isNumber }
      guard !digits.isEmpty, let value = Int(digits) else { return nil }
      rest = rest.dropFirst(digits.count)
      return value
    }
    for token in tokens {
      switch token {
      case .year4:
        guard let value = number(maxDigits: 4), value >= 1000 else { return nil }
        year = value
      case .year2:
        guard let value = number(maxDigits: 2) else { return nil }
        year = value < 70 ? 2000 + value : 1900 + value
      case .month:
        guard let value = number(maxDigits: 2) else { return nil }
        month = value
      case .monthName:
        let letters = rest.prefix { $0.isLetter }
        guard letters.count >= 3, let index = Self.monthNames.firstIndex(of: letters.prefix(3).lowercased())
        else { return nil }
        month = index + 1
        rest = rest.dropFirst(letters.count)
      case .day:
        guard let value = number(maxDigits: 2) else { return nil }
        day = value
      case .literal(let character):
        guard rest.first == character else { return nil }
        rest = rest.dropFirst()
      }
    }
    guard rest.isEmpty, (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    return String(format: "%04d-%02d-%02d", year, month, day)
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
