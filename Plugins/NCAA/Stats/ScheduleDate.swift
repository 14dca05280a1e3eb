import StatlineCore

/// A schedule's date cell: `02/14/2026`, or a doubleheader's `02/14/2026(1)` / `02/14/2026 (2)`,
/// the game's number after the date (baseball and softball play them routinely).
enum ScheduleDate {
  /// A scoreboard's date cell, a time after it (`02/14/2026(2) 04:00 PM`): the date and number
  /// its first word gives.
  static func leading(_ text: String) -> (date: String, gameNumber: Int?)? {
    text.split(separator: " ").first.flatMap { read(String($0)) }
  }

  static func read(_ text: String) -> (date: String, gameNumber: Int?)? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let date = GameText.date(trimmed) { return (date, nil) }
    guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "("),
      let number = Int(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]),
      (1...9).contains(number), let date = GameText.date(String(trimmed[..<open]))
    else { return nil }
    return (date, number)
  }
}
