import Foundation

/// When to poll a target next, from the normalized state of its last batch (architecture.md#a-poll).
///
/// A value type with a default for every field; sources override what they need. The policy
/// never reads the clock: the caller passes `now` and a random unit for jitter.
public struct SchedulingPolicy: Sendable, Equatable {
  /// A live game, or a page that holds one.
  public var live: Duration = .seconds(30)
  /// A game that starts within `imminentWindow` (or should have started and is not live yet).
  public var imminent: Duration = .seconds(5 * 60)
  public var imminentWindow: Duration = .seconds(30 * 60)
  /// Nothing live or imminent.
  public var idle: Duration = .seconds(60 * 60)
  /// Polls after a game target's games are all final, for stat corrections; then it stops.
  public var finalPolls: Int = 3
  public var finalInterval: Duration = .seconds(10 * 60)
  /// Backoff after consecutive failures: base × 2^(n−1), capped.
  public var failureBase: Duration = .seconds(30)
  public var failureCap: Duration = .seconds(60 * 60)
  /// ± this fraction on every delay, so targets do not fire in lock-step.
  public var jitter: Double = 0.10
  /// A poll page (`role: poll`) is checked this often, and `pollDayInterval` on the day its poll
  /// usually appears: the day after the last day of games it counts (its through-date), else
  /// `pollWeekday` (1 Sunday … 7 Saturday; Monday, when the college polls come out), in
  /// `pollTimeZone`.
  public var pollInterval: Duration = .seconds(24 * 3600)
  public var pollDayInterval: Duration = .seconds(3600)
  public var pollWeekday = 2
  public var pollTimeZone = TimeZone(identifier: "America/New_York")!

  public init() {}

  public static let `default` = SchedulingPolicy()

  /// What the policy knows about a target after a poll.
  public struct Observation: Sendable {
    public var role: Target.Role
    /// The games of the last good batch (empty when none yet).
    public var games: [Game]
    public var now: Date
    public var consecutiveFailures: Int
    /// Polls made since every game of the target was final.
    public var pollsSinceFinal: Int
    /// A poll page's latest through-date (`TargetState.pollThrough`).
    public var pollThrough: String?

    public init(
      role: Target.Role, games: [Game], now: Date, consecutiveFailures: Int = 0, pollsSinceFinal: Int = 0,
      pollThrough: String? = nil
    ) {
      self.role = role
      self.games = games
      self.now = now
      self.consecutiveFailures = consecutiveFailures
      self.pollsSinceFinal = pollsSinceFinal
      self.pollThrough = pollThrough
    }
  }

  public enum Decision: Sendable, Equatable {
    case after(Duration)
    case stop
  }

  /// The next poll, before jitter.
  public func next(_ observation: Observation) -> Decision {
    if observation.consecutiveFailures > 0 {
      let exponent = min(observation.consecutiveFailures - 1, 30)
      return .after(min(failureBase * (1 << exponent), failureCap))
    }
    if observation.role == .poll { return .after(pollDelay(observation)) }
    let games = observation.games
    if games.contains(where: { $0.status == .live }) { return .after(live) }
    if games.contains(where: { isImminent($0, now: observation.now) }) { return .after(imminent) }
    if observation.role == .game, !games.isEmpty, games.allSatisfy({ $0.status == .final }) {
      return observation.pollsSinceFinal >= finalPolls ? .stop : .after(finalInterval)
    }
    return .after(idle)
  }

  /// On the poll's day, `pollDayInterval`; on another, `pollInterval` or the start of the poll's
  /// next day, whichever comes first.
  func pollDelay(_ observation: Observation) -> Duration {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = pollTimeZone
    let weekday =
      observation.pollThrough.flatMap { text -> Int? in
        guard let through = try? Date(text + "T12:00:00Z", strategy: .iso8601) else { return nil }
        return calendar.component(.weekday, from: through) % 7 + 1
      } ?? pollWeekday
    let now = observation.now
    if calendar.component(.weekday, from: now) == weekday { return pollDayInterval }
    guard
      let next = calendar.nextDate(
        after: now, matching: DateComponents(hour: 0, minute: 0, weekday: weekday), matchingPolicy: .nextTime)
    else { return pollInterval }
    let seconds = next.timeIntervalSince(now)
    return seconds < Double(pollInterval.components.seconds)
      ? .seconds(max(60, Int64(seconds.rounded(.up)))) : pollInterval
  }

  /// `delay` moved by up to ±`jitter`; `unit` is a random number in 0..<1 from the caller.
  public func jittered(_ delay: Duration, unit: Double) -> Duration {
    let factor = 1 + jitter * (2 * min(max(unit, 0), 1) - 1)
    let milliseconds = Double(delay.components.seconds) * 1000 + Double(delay.components.attoseconds) / 1e15
    return .milliseconds(Int64((milliseconds * factor).rounded()))
  }

  private func isImminent(_ game: Game, now: Date) -> Bool {
    guard game.status == .scheduled, let text = game.startTime, let start = Self.date(text) else { return false }
    let seconds = Double(imminentWindow.components.seconds)
    return start.timeIntervalSince(now) <= seconds
  }

  static func date(_ iso: String) -> Date? {
    try? Date(iso, strategy: .iso8601)
  }
}
