import Foundation

/// Politeness kept in the store N workers share, so a site's limits hold for the cluster and
/// not per worker (architecture.md#workers): per-host request slots (concurrency and spacing), pauses
/// from `Retry-After`, and the circuit breaker.
public protocol HostLedger: Sendable {
  /// Asks for a request slot on `host`: granted with the time the request may start (the
  /// spacing after the cluster's previous start, or a pause's end), or refused while `limit`
  /// requests of the cluster are in flight. A granted slot must be given back with `finish`;
  /// one whose holder died lapses after `expiry`.
  func reserve(host: String, concurrency limit: Int, spacing: TimeInterval, holder: String, now: Date, expiry: Date)
    async throws -> HostSlot
  /// Gives a granted slot back.
  func finish(_ slot: HostSlot) async throws
  /// Gives a granted slot back with this worker's next statement to the ledger (its next
  /// reserve or poll commit) or within `HostSlot.lateFinish`, whichever comes first: a poll's
  /// slot then costs no round trip of its own. The other workers may see it held that much longer.
  func finishLater(_ slot: HostSlot) async throws
  /// Holds every worker's requests to `host` until `until` (a `Retry-After`).
  func pause(host: String, until: Date) async throws
  /// Counts an outcome against the host's shared breaker (opened after `threshold` consecutive
  /// failures, for `cooldown`); returns the breaker after it.
  func recordOutcome(host: String, success: Bool, threshold: Int, cooldown: TimeInterval, now: Date) async throws
    -> HostHealth
  /// A robots.txt some worker fetched for `origin` since `since` (nil: none that fresh).
  func robots(origin: String, since: Date) async throws -> SharedRobots?
  /// Keeps a fetched robots.txt for the other workers.
  func keepRobots(_ robots: SharedRobots) async throws
}

extension HostLedger {
  public func finishLater(_ slot: HostSlot) async throws { try await finish(slot) }
}

/// A request slot on a host, granted or not.
public struct HostSlot: Sendable, Equatable {
  /// How long `finishLater` may keep a finished slot before giving it back on its own.
  public static let lateFinish: Duration = .milliseconds(20)

  public var host: String
  /// The slot's id (nil: refused, the host is at its concurrency).
  public var id: String?
  /// When the request may start.
  public var start: Date
  /// The host's shared breaker as the slot was reserved (nil: never recorded).
  public var breaker: HostHealth?

  public init(host: String, id: String?, start: Date, breaker: HostHealth? = nil) {
    self.host = host
    self.id = id
    self.start = start
    self.breaker = breaker
  }
}

/// A robots.txt as one worker fetched it: the answer, for the others to reuse.
public struct SharedRobots: Sendable, Equatable {
  public var origin: String
  public var status: Int
  public var body: Data
  public var fetchedAt: Date

  public init(origin: String, status: Int, body: Data, fetchedAt: Date) {
    self.origin = origin
    self.status = status
    self.body = body
    self.fetchedAt = fetchedAt
  }
}

/// Who delivers each event sink: one worker at a time holds a sink's lease, so a webhook gets
/// each event once, not once per worker.
public protocol SinkLeases: Sendable {
  /// Takes or keeps the lease of `sink` for `holder` until `until`; false while another holder's
  /// lease runs.
  func holdSink(_ sink: String, holder: String, now: Date, until: Date) async throws -> Bool
  /// Gives back every sink lease of `holder` (graceful shutdown).
  func releaseSinks(holder: String) async throws
}
