import Foundation
import StatlineCore

/// The Live Activity planner's decision for one stored version of a game and one activity
/// following it (architecture.md#live-activities), pure: the state the activity is to show, an
/// `update` while the game goes on and an `end` once it is over or off, its stale date (a
/// little after the next poll is due), relevance and expiry. Whether the phone would see
/// anything new, and at which priority, is the outbox's (`ActivityUpdate.after`: it knows what
/// the phone was sent last).
public enum LiveActivityPlanner {
  public struct Timing: Sendable, Equatable {
    /// How often a live game is polled (the stale date is this and `grace` after planning).
    public var cadence: TimeInterval = 30
    public var grace: TimeInterval = 15
    /// How long an ended activity stays on the lock screen.
    public var dismissal: TimeInterval = 30 * 60

    public init() {}
  }

  /// Relevance of a close game late, of another game that is on, and of one that is not.
  public static let relevanceCloseLate = 100.0
  public static let relevanceLive = 50.0
  public static let relevanceOther = 10.0

  /// The statuses that end an activity: the game is over or off.
  public static let ending: Set<GameStatus> = [.final, .cancelled, .postponed]

  /// The update `game` (stored at `version`) makes for `device` (an activity, or the game's
  /// broadcast channel), planned at `time`; nil when the device is neither for that game.
  public static func plan(
    _ game: Game, version: Int64, for device: Device, at time: Date, timing: Timing = Timing()
  ) -> PlannedAlert? {
    guard device.kind == .apnsLiveActivity || device.kind == .apnsChannel, device.isLive, let followed = device.gameId,
      followed == game.id || (game.sources ?? []).contains(followed)
    else { return nil }
    let state = LiveActivityState(game: game)
    let ends = ending.contains(game.status)
    let stale = time.addingTimeInterval(timing.cadence + timing.grace)
    let update = ActivityUpdate(
      state: state, ending: ends, priority: ActivityUpdate.urgent, timestamp: time,
      staleDate: ends ? time.addingTimeInterval(timing.dismissal) : stale,
      dismissalDate: ends ? time.addingTimeInterval(timing.dismissal) : nil, relevance: relevance(game))
    let group = AlertPlanner.collapseId(game.id)
    return PlannedAlert(
      deviceId: device.id, eventId: "ver_\(version)", kind: ends ? .final : .score, body: state.line,
      threadId: group, collapseId: group,
      // An update is worth nothing once stale; an end goes as long as a final alert would.
      expiresAt: ends ? time.addingTimeInterval(AlertPlanner.finalLifetime) : stale, silent: false,
      data: ["gameId": game.id, "sport": game.sport.rawValue], plannedAt: time, activity: update)
  }

  static func relevance(_ game: Game) -> Double {
    guard game.status == .live else { return relevanceOther }
    let close = AlertPlanner.isCloseLate(
      sport: game.sport, period: game.period, away: game.away.score, home: game.home.score)
    return close ? relevanceCloseLate : relevanceLive
  }
}
