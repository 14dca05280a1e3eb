import Foundation

/// One scripted game of the demo's game day: who plays, when it starts, and every goal.
struct DemoGame: Sendable {
  struct Goal: Sendable {
    var period: Int
    /// Time remaining in the period when the goal went in, in seconds.
    var remaining: Int
    var home: Bool
    var scorer: String
    var assist: String?
  }

  struct Team: Sendable {
    var id: String
    /// The name as the school's StatCrew file prints it (`Army`, `UNC`).
    var name: String
    /// The name and slug as ncaa.com has them (`Army West Point`, `army-west-point`).
    var ncaaName: String
    var seoname: String
    /// ncaa.com's team id (default: one made from the slug).
    var comTeamId: String? = nil
    var record: String
    /// Field players, then the goalie last.
    var players: [String]
  }

  var eventId: String
  var women: Bool
  var away: Team
  var home: Team
  /// Minutes after the demo's start.
  var startMinute: Int
  var goals: [Goal]

  static let periodSeconds = 15 * 60
  static let breakSeconds = 2 * 60
  static let halftimeSeconds = 5 * 60
  static let overtimeSeconds = 4 * 60

  /// Where the game stands `elapsed` seconds after its start.
  enum Moment: Equatable {
    case notStarted
    case inPeriod(period: Int, remaining: Int)
    /// Between periods: the one that just ended.
    case between(period: Int)
    case final(periods: Int)
  }

  var periods: Int { max(4, goals.map(\.period).max() ?? 4) }

  func moment(at elapsed: Int) -> Moment {
    guard elapsed >= 0 else { return .notStarted }
    var clock = elapsed
    for period in 1...periods {
      let full = period > 4 ? Self.overtimeSeconds : Self.periodSeconds
      // Sudden victory: an overtime ends with its goal.
      let length = period > 4 ? full - (goals.first { $0.period == period }?.remaining ?? 0) : full
      if clock < length { return .inPeriod(period: period, remaining: full - clock) }
      clock -= length
      if period >= 4 && period == periods { return .final(periods: period) }
      let pause = period == 2 ? Self.halftimeSeconds : Self.breakSeconds
      if clock < pause { return .between(period: period) }
      clock -= pause
    }
    return .final(periods: periods)
  }

  /// The goals scored by `moment`.
  func goals(by moment: Moment) -> [Goal] {
    switch moment {
    case .notStarted: return []
    case .final: return goals
    case .between(let period): return goals.filter { $0.period <= period }
    case .inPeriod(let period, let remaining):
      return goals.filter { $0.period < period || ($0.period == period && $0.remaining >= remaining) }
    }
  }
}
