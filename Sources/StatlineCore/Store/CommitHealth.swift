import Foundation

/// The commits this job's store refused and has not accepted since (a full disk, a lost
/// connection), by target, in memory: what the store cannot record about itself while it
/// refuses writes. `statline run --serve` shows them in `/v1/status` (`trouble`) and answers
/// `/readyz` 503 while any stands; the next commit of the target that succeeds clears it.
public final class CommitHealth: Sendable {
  /// One target's refused commits.
  public struct Failure: Sendable, Equatable {
    /// Refused commits in a row.
    public var consecutive: Int
    /// The store's error, as the log has it.
    public var error: String
    /// When the first of them was refused.
    public var since: Date
    /// The target's last poll that was stored.
    public var lastSucceeded: Date?

    public init(consecutive: Int, error: String, since: Date, lastSucceeded: Date?) {
      self.consecutive = consecutive
      self.error = error
      self.since = since
      self.lastSucceeded = lastSucceeded
    }
  }

  private let state = Locked<[String: Failure]>([:])

  public init() {}

  /// The targets whose last commit was refused.
  public var failures: [String: Failure] { state.withLock { $0 } }

  public var isFailing: Bool { state.withLock { !$0.isEmpty } }

  public func refused(_ target: String, error: String, at time: Date, lastSucceeded: Date?) {
    state.withLock { failures in
      var failure =
        failures[target] ?? Failure(consecutive: 0, error: error, since: time, lastSucceeded: lastSucceeded)
      failure.consecutive += 1
      failure.error = error
      failures[target] = failure
    }
  }

  public func accepted(_ target: String) {
    state.withLock { _ = $0.removeValue(forKey: target) }
  }
}
