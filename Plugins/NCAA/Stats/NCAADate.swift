import Foundation
import StatlineCore

/// The date forms of the NCAA feeds → the model's.
enum NCAADate {
  /// `MM/DD/YYYY`, `MM-DD-YYYY` or `YYYY-MM-DD` → `YYYY-MM-DD`.
  static func iso(_ text: String?) -> String? {
    guard let text else { return nil }
    // Digits at both ends need no trimming; dashes become slashes byte by byte.
    if let first = text.utf8.first, let last = text.utf8.last, first &- 0x30 < 10, last &- 0x30 < 10,
      text.utf8.allSatisfy({ $0 < 0x80 })
    {
      let utf8 = Array(text.utf8)
      if utf8.count == 10, utf8[4] == UInt8(ascii: "-"), utf8[7] == UInt8(ascii: "-") { return text }
      guard utf8.contains(UInt8(ascii: "-")) else { return GameText.date(text) }
      return GameText.date(
        String(decoding: utf8.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "/") : $0 }, as: UTF8.self))
    }
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { return nil }
    if trimmed.count == 10, trimmed.dropFirst(4).first == "-", trimmed.dropFirst(7).first == "-" { return trimmed }
    return GameText.date(trimmed.replacingOccurrences(of: "-", with: "/"))
  }

  /// Seconds since 1970 (as ncaa.com's string epochs) → ISO 8601 in UTC (`2025-02-28T05:00:00Z`).
  static func iso(epoch: String?) -> String? {
    if let epoch, let seconds = Int(epoch), seconds > 0, seconds < 253_402_300_800 { return utc(seconds) }
    guard let seconds = epoch.flatMap({ TimeInterval($0) }), seconds > 0 else { return nil }
    // The format style, not ISO8601DateFormatter: building that formatter costs ~200 µs (ICU),
    // 60 % of a scoreboard's parse.
    return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
  }

  /// Whole seconds since 1970 (before the year 10000) → `YYYY-MM-DDTHH:MM:SSZ`, as the format
  /// style writes it, by the civil-from-days algorithm (H. Hinnant): a scoreboard reads one per game.
  static func utc(_ seconds: Int) -> String {
    let days = seconds / 86_400
    let time = seconds % 86_400
    let shifted = days + 719_468
    let era = shifted / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    let two = FastText.twoDigits
    let digits = String(year)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-" + two(month) + "-" + two(day) + "T"
      + two(time / 3_600) + ":" + two(time / 60 % 60) + ":" + two(time % 60) + "Z"
  }
}
