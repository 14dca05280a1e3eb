import StatlineCore

/// How far along a game a record is: status (not started, in progress, over), then period, then
/// goals scored, then time run off the clock. A feed that lags another is behind it by this
/// order, and the merge never moves a game backwards for it.
struct GameProgress: Comparable, Sendable {
  var stage: Int
  var period: Int
  var goals: Int
  var elapsed: Int

  init(_ game: Game) {
    switch game.status {
    case .scheduled, .postponed, .cancelled: stage = 0
    case .unknown: stage = game.away.score == nil && game.home.score == nil ? 0 : 1
    case .live, .suspended: stage = 1
    case .final: stage = 2
    }
    period = game.period ?? 0
    goals = (game.away.score ?? 0) + (game.home.score ?? 0)
    // A clock counts down: less time left is further along.
    elapsed = game.clock.flatMap(GameText.seconds).map { -$0 } ?? Int.min
  }

  static func < (lhs: GameProgress, rhs: GameProgress) -> Bool {
    (lhs.stage, lhs.period, lhs.goals, lhs.elapsed) < (rhs.stage, rhs.period, rhs.goals, rhs.elapsed)
  }
}
