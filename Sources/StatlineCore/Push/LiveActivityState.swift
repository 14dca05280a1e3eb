import Foundation

/// What a Live Activity shows of its game (`aps.content-state`): it must decode into the app's
/// `ContentState` with a default `JSONDecoder`, so its keys are plain and its values strings and
/// integers. Kept in the outbox with the update that carries it (`ActivityUpdate`).
public struct LiveActivityState: Codable, Sendable, Equatable {
  public var gameId: String
  public var awayName: String
  public var homeName: String
  public var awayScore: Int
  public var homeScore: Int
  /// `scheduled`, `live`, `final`, …
  public var status: String
  public var period: String?
  public var clock: String?
  /// The scoreboard line as the app prints it: "Duke 5, North Carolina 4 · 2nd 04:06".
  public var line: String

  public init(game: Game) {
    gameId = game.id
    awayName = game.away.team.name
    homeName = game.home.team.name
    awayScore = game.away.score ?? 0
    homeScore = game.home.score ?? 0
    status = game.status.rawValue
    period = game.periodLabel
    clock = game.clock
    let when =
      game.status == .final ? "Final" : [game.periodLabel, game.clock].compactMap { $0 }.joined(separator: " ")
    line = "\(awayName) \(awayScore), \(homeName) \(homeScore)" + (when.isEmpty ? "" : " · \(when)")
  }

  /// Whether `other` differs from it only in the clock (what a phone may get late: priority 5).
  public func differsOnlyInClock(from other: LiveActivityState) -> Bool {
    var same = other
    same.clock = clock
    same.line = line
    return same == self && other != self
  }
}
