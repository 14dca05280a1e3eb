import Foundation

/// The CPU time one part of the work takes, summed over every time it ran: a benchmark's way of
/// saying what a step costs (`bench cycle` reports the merge's share of the cycle this way), in
/// the same run as the whole it is part of, so the machine's noise is the same for both.
///
/// Each measurement reads the calling thread's CPU clock before and after a synchronous body:
/// it never spans a suspension point, where the work could move to another thread.
public final class CPUMeter: Sendable {
  private let totals = Locked<(seconds: Double, runs: Int)>((0, 0))

  public init() {}

  /// Runs `body`, adding the thread CPU time it took.
  public func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    let start = Self.threadSeconds()
    defer {
      let spent = Self.threadSeconds() - start
      totals.withLock { $0 = ($0.seconds + spent, $0.runs + 1) }
    }
    return try body()
  }

  /// The CPU seconds measured so far, and how many bodies they came from.
  public var total: (seconds: Double, runs: Int) { totals.withLock { $0 } }

  /// The calling thread's CPU time, in seconds.
  static func threadSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}

extension Optional where Wrapped == CPUMeter {
  /// `body` measured when there is a meter, else run as it is.
  public func measure<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
    guard let meter = self else { return try body() }
    return try meter.measure(body)
  }
}
