import Foundation
import StatlineCore

/// The date forms of the NCAA feeds → the model's.
enum NCAADate {
  /// `MM/DD/YYYY`, `MM-DD-YYYY` or `YYYY-MM-DD` → `YYYY-MM-DD`.
  static func iso(_ text: String?) -> String? {
    guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
    if text.count == 10, text.dropFirst(4).first == "-", text.dropFirst(7).first == "-" { return text }
    return GameText.date(text.replacingOccurrences(of: "-", with: "/"))
  }

  /// Seconds since 1970 (as ncaa.com's string epochs) → ISO 8601 in UTC (`2025-02-28T05:00:00Z`).
  static func iso(epoch: String?) -> String? {
    guard let seconds = epoch.flatMap({ TimeInterval($0) }), seconds > 0 else { return nil }
    // The format style, not ISO8601DateFormatter: building that formatter costs ~200 µs (ICU),
    // 60 % of a scoreboard's parse.
    return Date(timeIntervalSince1970: seconds).formatted(.iso8601)
  }
}
