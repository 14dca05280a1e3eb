import Foundation
import StatlineCore

/// ESPN's times are UTC minutes (`2025-11-26T16:00Z`).
enum ESPNTime {
  /// `2025-11-26T16:00Z` → `2025-11-26T16:00:00Z`; nil for anything else.
  static func iso(_ text: String) -> String? {
    guard let date = instant(text) else { return nil }
    return date.formatted(.iso8601)
  }

  /// The US Eastern date of an instant (ESPN's scoreboard day), by the US daylight-saving rule
  /// (second Sunday of March to the first Sunday of November, at 2 a.m.), for boards asked
  /// without a day. A game starting in the hour before midnight elsewhere may be a day off; the
  /// merge of sources allows for a day either side.
  static func easternDate(_ text: String) -> String? {
    guard let date = instant(text) else { return nil }
    var utc = Calendar(identifier: .gregorian)
    utc.timeZone = TimeZone(secondsFromGMT: 0)!
    let year = utc.component(.year, from: date)
    func sunday(month: Int, nth: Int) -> Date? {
      guard let first = utc.date(from: DateComponents(year: year, month: month, day: 1)) else { return nil }
      let weekday = utc.component(.weekday, from: first)
      let day = 1 + (8 - weekday) % 7 + 7 * (nth - 1)
      return utc.date(from: DateComponents(year: year, month: month, day: day, hour: 2))
    }
    // 2 a.m. local: 07:00 UTC when daylight time starts (EST), 06:00 UTC when it ends (EDT).
    guard let start = sunday(month: 3, nth: 2)?.addingTimeInterval(5 * 3600),
      let end = sunday(month: 11, nth: 1)?.addingTimeInterval(4 * 3600)
    else { return nil }
    let offset: TimeInterval = date >= start && date < end ? -4 * 3600 : -5 * 3600
    let local = date.addingTimeInterval(offset)
    let parts = utc.dateComponents([.year, .month, .day], from: local)
    guard let y = parts.year, let m = parts.month, let d = parts.day else { return nil }
    return String(format: "%04d-%02d-%02d", y, m, d)
  }

  static func instant(_ text: String) -> Date? {
    let full = text.count == 17 && text.hasSuffix("Z") ? String(text.dropLast()) + ":00Z" : text
    return try? Date(full, strategy: .iso8601)
  }
}
