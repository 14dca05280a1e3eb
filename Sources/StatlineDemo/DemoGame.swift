import Foundation
import StatlineCore

/// One scripted game of the demo's game day: who plays, when it starts, and every score.
public struct DemoGame: Sendable {
  /// A goal, a basket or a run-scoring play.
  public struct Goal: Sendable {
    public var period: Int
    /// Time remaining in the period when it happened, in seconds (in baseball, the inning's
    /// demo time: its top half counts down from `Timing.periodSeconds` to half of it).
    public var remaining: Int
    public var home: Bool
    public var scorer: String
    /// Lacrosse: the assist; baseball: a second runner who scored on the play.
    public var assist: String?
    /// Goals count 1; a basket 1, 2 or 3; a run-scoring play its runs.
    public var points: Int = 1
    /// A basketball shot's StatCrew type (`3PTR`, `LAYUP`, `FT`); a baseball play's text.
    public var kind: String? = nil

    public init(
      period: Int, remaining: Int, home: Bool, scorer: String, assist: String? = nil, points: Int = 1,
      kind: String? = nil
    ) {
      self.period = period
      self.remaining = remaining
      self.home = home
      self.scorer = scorer
      self.assist = assist
      self.points = points
      self.kind = kind
    }
  }

  public struct Team: Sendable {
    public var id: String
    /// The name as the school's StatCrew file prints it (`Army`, `UNC`).
    public var name: String
    /// The name and slug as ncaa.com has them (`Army West Point`, `army-west-point`).
    public var ncaaName: String
    public var seoname: String
    /// ncaa.com's team id (default: one made from the slug).
    public var comTeamId: String? = nil
    public var record: String
    /// Field players, then the goalie last (lacrosse); the lineup (other sports).
    public var players: [String]
  }

  /// How the sport's time runs in the demo.
  public struct Timing: Sendable {
    public var periodSeconds: Int
    public var overtimeSeconds: Int
    public var breakSeconds: Int
    public var halftimeSeconds: Int
    /// The period after which the halftime break comes (nil: none).
    public var halftimeAfter: Int?
    /// An overtime period ends with its first score (lacrosse's sudden victory).
    public var suddenVictory: Bool

    public static let lacrosse = Timing(
      periodSeconds: 15 * 60, overtimeSeconds: 4 * 60, breakSeconds: 2 * 60, halftimeSeconds: 5 * 60,
      halftimeAfter: 2, suddenVictory: true)
    public static let basketball = Timing(
      periodSeconds: 20 * 60, overtimeSeconds: 5 * 60, breakSeconds: 60, halftimeSeconds: 5 * 60, halftimeAfter: 1,
      suddenVictory: false)
    /// An inning: three minutes a half, no break between innings.
    public static let baseball = Timing(
      periodSeconds: 6 * 60, overtimeSeconds: 6 * 60, breakSeconds: 0, halftimeSeconds: 0, halftimeAfter: nil,
      suddenVictory: false)
  }

  public var eventId: String
  public var sport: Sport
  public var away: Team
  public var home: Team
  /// Minutes after the demo's start.
  public var startMinute: Int
  public var goals: [Goal]

  public var women: Bool { sport == .lacrosseWomen }
  public var isLacrosse: Bool { sport.isLacrosse }
  public var innings: Bool { sport.profile?.period == .inning }
  public var regulation: Int { sport.regulationPeriods }
  public var timing: Timing { innings ? .baseball : sport.profile?.period == .half ? .basketball : .lacrosse }

  /// Where the game stands `elapsed` seconds after its start.
  public enum Moment: Equatable {
    case notStarted
    case inPeriod(period: Int, remaining: Int)
    /// Between periods: the one that just ended.
    case between(period: Int)
    case final(periods: Int)
  }

  public var periods: Int { max(regulation, goals.map(\.period).max() ?? regulation) }

  /// Whether the home team leads after the top of `inning` (its last half is then not played).
  public func homeLeadsAfterTop(_ inning: Int) -> Bool {
    let before = goals.filter { $0.period < inning || ($0.period == inning && !$0.home) }
    let home = before.filter(\.home).map(\.points).reduce(0, +)
    return home > before.filter { !$0.home }.map(\.points).reduce(0, +)
  }

  public func moment(at elapsed: Int) -> Moment {
    guard elapsed >= 0 else { return .notStarted }
    let timing = timing
    var clock = elapsed
    for period in 1...periods {
      let full = period > regulation ? timing.overtimeSeconds : timing.periodSeconds
      var length = full
      // Sudden victory: an overtime ends with its goal.
      if timing.suddenVictory && period > regulation {
        length = full - (goals.first { $0.period == period }?.remaining ?? 0)
      }
      // The last inning ends after its top half when the home team leads.
      if innings && period >= regulation && period == periods && homeLeadsAfterTop(period) { length = full / 2 }
      if clock < length { return .inPeriod(period: period, remaining: full - clock) }
      clock -= length
      if period >= regulation && period == periods { return .final(periods: period) }
      let pause = period == timing.halftimeAfter ? timing.halftimeSeconds : timing.breakSeconds
      if clock < pause { return .between(period: period) }
      clock -= pause
    }
    return .final(periods: periods)
  }

  /// The scores made by `moment`.
  public func goals(by moment: Moment) -> [Goal] {
    switch moment {
    case .notStarted: return []
    case .final: return goals
    case .between(let period): return goals.filter { $0.period <= period }
    case .inPeriod(let period, let remaining):
      return goals.filter { $0.period < period || ($0.period == period && $0.remaining >= remaining) }
    }
  }

  /// The score by `moment`: (away, home).
  public func score(by moment: Moment) -> (away: Int, home: Int) {
    let made = goals(by: moment)
    let home = made.filter(\.home).map(\.points).reduce(0, +)
    return (made.filter { !$0.home }.map(\.points).reduce(0, +), home)
  }
}
