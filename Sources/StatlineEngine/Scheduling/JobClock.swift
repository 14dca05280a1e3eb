import Foundation

/// Wall time for the scheduler, driven by an injected clock: `now()` is the start date plus the
/// time the clock has advanced since. Tests drive it with a manual clock; `demo` with an
/// accelerated one; `run` with the continuous clock.
public struct JobClock<C: Clock>: Sendable where C.Duration == Duration {
  public let clock: C
  private let origin: C.Instant
  private let originDate: Date

  public init(clock: C, start: Date) {
    self.clock = clock
    self.origin = clock.now
    self.originDate = start
  }

  public func now() -> Date {
    originDate.addingTimeInterval(Self.seconds(origin.duration(to: clock.now)))
  }

  /// Sleeps until `date` by this clock.
  public func sleep(until date: Date) async throws {
    let offset = date.timeIntervalSince(originDate)
    try await clock.sleep(
      until: origin.advanced(by: .milliseconds(Int64((offset * 1000).rounded(.up)))), tolerance: nil)
  }

  /// The wall time of one of the clock's instants.
  public func date(of instant: C.Instant) -> Date {
    originDate.addingTimeInterval(Self.seconds(origin.duration(to: instant)))
  }

  public static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
