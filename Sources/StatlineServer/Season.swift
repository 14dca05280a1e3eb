/// A season as stats.ncaa.org counts it (`academic_year`): season `2026` runs from August 2025
/// to July 2026, so it is spring 2026 lacrosse and baseball, the 2025-26 basketball and hockey
/// season, and fall 2025 football, soccer, volleyball and field hockey. One rule for every sport:
/// a season never splits a basketball season at New Year.
struct Season: Sendable, Equatable {
  var year: Int

  /// The season a `YYYY-MM-DD` date is in (nil for a date that is none).
  init?(date: String) {
    let parts = date.split(separator: "-")
    guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else {
      return nil
    }
    self.year = month >= 8 ? year + 1 : year
  }

  init(year: Int) { self.year = year }

  var text: String { String(year) }

  func contains(_ date: String?) -> Bool { date.flatMap(Season.init(date:)) == self }
}
