import Foundation
import StatlineCore

/// Reading StatCrew attribute values: numbers, dates, clocks, ids, period names.
enum LCValues {
  static func int(_ text: String?) -> Int? {
    guard let text, !text.isEmpty else { return nil }
    if let value = Int(text) { return value }
    let trimmed = FastText.trimmed(text)
    return trimmed.isEmpty ? nil : Int(trimmed)
  }

  /// `M/D/YYYY` → `YYYY-MM-DD`.
  static func date(_ text: String?) -> String? {
    guard let parts = text?.trimmingCharacters(in: .whitespaces).split(separator: "/"), parts.count == 3,
      let month = Int(parts[0]), let day = Int(parts[1]), var year = Int(parts[2]),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    if year < 100 { year += 2000 }
    return String(format: "%04d-%02d-%02d", year, month, day)
  }

  /// `M:SS` or `MM:SS` → `MM:SS`; anything else nil.
  static func clock(_ text: String?) -> String? {
    guard let parts = text.map(FastText.trimmed)?.split(separator: ":"), parts.count == 2,
      let minutes = Int(parts[0]), let seconds = Int(parts[1]), (0..<60).contains(seconds), minutes >= 0
    else { return nil }
    return FastText.twoDigits(minutes) + ":" + FastText.twoDigits(seconds)
  }

  /// `MM:SS` → seconds.
  static func seconds(_ text: String?) -> Int? {
    guard let clock = clock(text) else { return nil }
    let parts = clock.split(separator: ":").compactMap { Int($0) }
    return parts[0] * 60 + parts[1]
  }

  /// "1st" … "4th", then "OT", "2OT", …
  static func periodLabel(_ period: Int, _ regulation: Int) -> String {
    if period > regulation {
      let overtime = period - regulation
      return overtime == 1 ? "OT" : "\(overtime)OT"
    }
    switch period {
    case 1: return "1st"
    case 2: return "2nd"
    case 3: return "3rd"
    default: return "\(period)th"
    }
  }

  static func venue(_ venue: [String: String]) -> String? {
    let parts = [venue["stadium"], venue["location"]].compactMap { $0?.trimmingCharacters(in: .whitespaces) }
      .filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  /// "NORTH CA" → "north-ca".
  static func slug(_ text: String) -> String {
    text.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: "-")
  }

  /// Team ids are the XML's short codes, which StatCrew truncates ("NORTH CA").
  static func teamId(_ team: LCTeam) -> String {
    "\(StatBroadcastSource.id):team-\(slug(team.attributes["id"] ?? team.attributes["name"] ?? ""))"
  }
}
