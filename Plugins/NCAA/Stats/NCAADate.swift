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
    if let epoch, let seconds = Int(epoch), seconds > 0, seconds < 253_402_300_800 {
      // Whole seconds before the year 10000: by arithmetic, as the format style writes them.
      return CivilDate.instant(seconds: seconds)
    }
    guard let seconds = epoch.flatMap({ TimeInterval($0) }), seconds > 0 else { return nil }
    // The format style, not ISO8601DateFormatter: building that formatter costs ~200 µs (ICU),
    // 60 % of a scoreboard's parse.
    return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
  }
}
