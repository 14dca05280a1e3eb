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
}
