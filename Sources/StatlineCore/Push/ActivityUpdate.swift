import Foundation

/// A Live Activity push the outbox keeps (architecture.md#live-activities): the state the
/// activity is to show, whether it ends, and what APNs is told about it. Planned by
/// `LiveActivityPlanner` (`StatlinePush`) from each stored version of the activity's game, carried
/// by a `PlannedAlert` so it takes the device's slot for the game like any alert.
public struct ActivityUpdate: Codable, Sendable, Equatable {
  public var state: LiveActivityState
  /// `end` (the game is over or off) instead of `update`.
  public var ending: Bool
  /// 10 (a score, period or status changed: sent at once, counted in Apple's budget) or 5 (only
  /// the clock moved: sent when the phone is awake).
  public var priority: Int
  /// `aps.timestamp`: the phone keeps the newest.
  public var timestamp: Date
  /// When the shown state is old: a little after the next poll is due.
  public var staleDate: Date
  /// For `end`: when the phone takes the activity off the lock screen.
  public var dismissalDate: Date?
  /// `relevance-score`: higher for a close game late (the phone shows the most relevant first).
  public var relevance: Double

  public init(
    state: LiveActivityState, ending: Bool, priority: Int, timestamp: Date, staleDate: Date,
    dismissalDate: Date? = nil, relevance: Double
  ) {
    self.state = state
    self.ending = ending
    self.priority = priority
    self.timestamp = timestamp
    self.staleDate = staleDate
    self.dismissalDate = dismissalDate
    self.relevance = relevance
  }

  /// Priority for a change a phone should see at once, and for a clock that only ticked.
  public static let urgent = 10
  public static let opportunistic = 5

  /// The update as it goes after `previous` (the slot's alert: the one waiting, or the last
  /// sent; `pending`: still waiting). Nil when the phone would see nothing new: the same state,
  /// or an update after the activity was ended. Only a clock's tick since `previous` goes at
  /// priority 5, unless `previous` is an urgent update still waiting (the phone has not seen
  /// that score yet: its replacement stays urgent).
  public func after(_ previous: ActivityUpdate?, pending: Bool) -> ActivityUpdate? {
    guard let previous else { return self }
    guard !(previous.ending && !pending), previous.state != state || previous.ending != ending else { return nil }
    var update = self
    let clockOnly = !ending && state.differsOnlyInClock(from: previous.state)
    update.priority = clockOnly ? Self.opportunistic : Self.urgent
    if pending && previous.priority == Self.urgent { update.priority = Self.urgent }
    return update
  }
}
