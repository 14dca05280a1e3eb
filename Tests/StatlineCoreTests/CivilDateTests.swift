import Foundation
import StatlineCore
import Testing

struct CivilDateTests {
  /// `days(year:month:day:)` undoes `fields(days:)` on every day from 1600 to 2400, and agrees
  /// with Foundation's Gregorian calendar on known dates.
  @Test func daysFromADateUndoFieldsOfDays() {
    for days in stride(from: -135_000, through: 157_000, by: 1) {
      let (year, month, day) = CivilDate.fields(days: days)
      if CivilDate.days(year: year, month: month, day: day) != days {
        Issue.record("\(days) → \(year)-\(month)-\(day) → \(CivilDate.days(year: year, month: month, day: day))")
        return
      }
    }
    #expect(CivilDate.days(year: 1970, month: 1, day: 1) == 0)
    #expect(CivilDate.days(year: 2026, month: 2, day: 15) == 20_499)
    #expect(CivilDate.days(year: 2000, month: 3, day: 1) == 11_017)
    #expect(CivilDate.days(year: 1969, month: 12, day: 31) == -1)
  }

  /// The strings written digit by digit say what Foundation's ISO 8601 style says, from 1970
  /// to the year 9999, at every hour, minute and second.
  @Test func anInstantReadsAsFoundationWritesIt() {
    var generator = SystemRandomNumberGenerator()
    let samples =
      (0..<20_000).map { _ in Int.random(in: 0..<253_402_300_800, using: &generator) } + [
        0, 59, 86_399, 86_400, 951_782_400, 1_740_718_800, 253_402_300_799,
      ]
    for seconds in samples {
      let expected = Date(timeIntervalSince1970: TimeInterval(seconds)).formatted(.iso8601)
      if CivilDate.instant(seconds: seconds) != expected {
        Issue.record("\(seconds): \(CivilDate.instant(seconds: seconds)) against \(expected)")
        return
      }
      #expect(CivilDate.date(days: seconds / 86_400) == String(expected.prefix(10)))
    }
  }
}
