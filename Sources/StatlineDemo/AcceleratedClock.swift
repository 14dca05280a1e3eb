/// A clock that runs `factor` times faster than the continuous clock: `statline demo` plays a
/// game day in a couple of minutes with the real scheduler, politeness and cadences.
public struct AcceleratedClock: Clock {
  public struct Instant: InstantProtocol {
    public var offset: Duration
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  public let factor: Double
  private let base: ContinuousClock.Instant

  public init(factor: Double) {
    self.factor = factor
    base = ContinuousClock.now
  }

  public var now: Instant { Instant(offset: scale(base.duration(to: ContinuousClock.now), by: factor)) }
  public var minimumResolution: Duration { .milliseconds(1) }

  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    let remaining = now.duration(to: deadline)
    guard remaining > .zero else { return }
    try await ContinuousClock().sleep(for: scale(remaining, by: 1 / factor))
  }

  private func scale(_ duration: Duration, by factor: Double) -> Duration {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return .microseconds(Int64(seconds * factor * 1e6))
  }
}
