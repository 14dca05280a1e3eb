import StatlineCore

/// A season as the sites count it (`SeasonRule`, declared by a plugin: stats.ncaa.org's
/// `academic_year` runs from August to July), named by the year it ends in.
struct Season: Sendable, Equatable {
  var year: Int

  /// The season a `YYYY-MM-DD` date is in (nil for a date that is none).
  init?(date: String, rule: SeasonRule) {
    guard let year = rule.season(of: date) else { return nil }
    self.year = year
  }

  init(year: Int) { self.year = year }

  var text: String { String(year) }

  func contains(_ date: String?, rule: SeasonRule) -> Bool {
    date.flatMap { Season(date: $0, rule: rule) } == self
  }

  /// What season `year` is under a rule, for an error that asks for one: "the season from August
  /// 2025 to July 2026", or "the calendar year 2026".
  static func described(_ year: Int, rule: SeasonRule) -> String {
    guard rule.firstMonth > 1 else { return "the calendar year \(year)" }
    let months = [
      "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
      "December",
    ]
    let first = months[rule.firstMonth - 1]
    let last = months[rule.firstMonth - 2]
    return "the season from \(first) \(year - 1) to \(last) \(year)"
  }
}
