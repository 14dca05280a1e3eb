import Foundation
import StatlineCore
import Testing

/// A poll page is checked daily, and hourly on the day its poll usually appears (issue 32 point 4).
@Suite struct PollSchedulingTests {
  let policy = SchedulingPolicy.default

  /// `text` is New York time (EST, UTC−5, in early March).
  func at(_ text: String) throws -> Date { try Date(text + "-05:00", strategy: .iso8601) }

  func next(at text: String, through: String? = nil, failures: Int = 0) throws -> SchedulingPolicy.Decision {
    policy.next(
      .init(role: .poll, games: [], now: try at(text), consecutiveFailures: failures, pollThrough: through))
  }

  @Test func hourlyOnMondayWhenThePageSaysNothingElse() throws {
    #expect(try next(at: "2026-03-02T09:00:00") == .after(.seconds(3600)), "March 2, 2026 is a Monday")
    #expect(try next(at: "2026-03-02T23:30:00") == .after(.seconds(3600)))
  }

  @Test func dailyOtherwiseButNeverPastTheStartOfThePollsDay() throws {
    #expect(try next(at: "2026-02-26T10:00:00") == .after(.seconds(24 * 3600)), "Thursday: a day later is Friday")
    #expect(try next(at: "2026-03-01T20:00:00") == .after(.seconds(4 * 3600)), "Sunday 20:00: Monday starts in 4 h")
    #expect(try next(at: "2026-03-03T08:00:00") == .after(.seconds(24 * 3600)), "Tuesday, the day after")
  }

  @Test func thePollsDayIsTheDayAfterItsThroughDate() throws {
    // Through Saturday February 28: the poll comes out on Sundays.
    #expect(try next(at: "2026-03-01T09:00:00", through: "2026-02-28") == .after(.seconds(3600)))
    #expect(try next(at: "2026-03-02T09:00:00", through: "2026-02-28") == .after(.seconds(24 * 3600)))
    #expect(try next(at: "2026-02-28T21:00:00", through: "2026-02-28") == .after(.seconds(3 * 3600)))
  }

  @Test func aFailingPollPageBacksOffAsEveryTarget() throws {
    #expect(try next(at: "2026-03-02T09:00:00", failures: 2) == .after(.seconds(60)))
  }
}
