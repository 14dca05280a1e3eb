import Foundation
import StatlineCore

/// ESPN's times are UTC minutes (`2025-11-26T16:00Z`).
enum ESPNTime {
  /// `2025-11-26T16:00Z` → `2025-11-26T16:00:00Z`; nil for anything else.
  static func iso(_ text: String) -> String? {
    guard let date = instant(text) else { return nil }
    return date.formatted(.iso8601)
  }

  /// The US Eastern date of an instant (ESPN's scoreboard day), for boards asked without a day.
  /// A game starting in the hour before midnight elsewhere may be a day off; the merge of sources
  /// allows for a day either side.
  static func easternDate(_ text: String) -> String? {
    guard let date = instant(text) else { return nil }
    let parts = eastern.dateComponents([.year, .month, .day], from: date)
    guard let y = parts.year, let m = parts.month, let d = parts.day else { return nil }
    return String(format: "%04d-%02d-%02d", y, m, d)
  }

  private static let eastern: Calendar = {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "America/New_York") ?? TimeZone(secondsFromGMT: -5 * 3600)!
    return calendar
  }()

  static func instant(_ text: String) -> Date? {
    let full = text.count == 17 && text.hasSuffix("Z") ? String(text.dropLast()) + ":00Z" : text
    return try? Date(full, strategy: .iso8601)
  }
}
