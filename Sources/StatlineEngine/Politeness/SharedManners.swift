import Foundation
import StatlineCore

/// The politeness a worker shares with the rest of its cluster, through the store: request
/// slots per host (so concurrency and spacing hold for the cluster), `Retry-After` pauses, the
/// circuit breaker, and robots.txt fetched once for all.
public struct SharedManners: Sendable {
  public var ledger: any HostLedger
  /// This worker's id (who holds a slot).
  public var holder: String
  /// A slot whose holder died lapses after this long.
  public var slotExpiry: Duration = .seconds(120)
  /// How long a robots.txt another worker fetched is reused.
  public var robotsFreshFor: TimeInterval = 24 * 3600
  /// The least wait before asking again when the host is at its cluster-wide concurrency (the
  /// wait runs to the host's next start when that is later).
  public var busyRetry: Duration = .milliseconds(50)

  public init(ledger: any HostLedger, holder: String) {
    self.ledger = ledger
    self.holder = holder
  }
}
