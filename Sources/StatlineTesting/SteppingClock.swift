import StatlineCore

/// A manual clock whose `sleep` returns at once and moves time forward by the sleep: code that
/// backs off for minutes runs instantly and deterministically, and the sleeps it asked for are
/// recorded for the test to check.
public final class SteppingClock: Clock, Sendable {
  public struct Instant: InstantProtocol {
    public var offset: Duration
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private let state = Locked<(now: Instant, sleeps: [Duration])>((Instant(offset: .zero), []))

  public init() {}

  public var now: Instant { state.withLock { $0.now } }
  public var minimumResolution: Duration { .zero }
  /// Every sleep asked for, in order.
  public var sleeps: [Duration] { state.withLock { $0.sleeps } }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    state.withLock { state in
      state.sleeps.append(state.now.duration(to: deadline))
      if state.now < deadline { state.now = deadline }
    }
    await Task.yield()
    try Task.checkCancellation()
  }

  /// Moves time forward without a sleep (the time a request took, say).
  public func advance(by duration: Duration) { state.withLock { $0.now = $0.now.advanced(by: duration) } }
}
