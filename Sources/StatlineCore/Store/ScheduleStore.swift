import Foundation

/// A store that also keeps the schedule: the state of every target, written in the same
/// transaction as the batch of the poll that changed it, so a killed job loses at most the poll
/// in flight and a restart resumes without a burst.
public protocol ScheduleStore: Store {
  /// Every target the store knows, retired ones included.
  func targets() async throws -> [TargetState]
  /// Writes the batch (if any) and upserts the target states, all or nothing.
  func commit(_ poll: PollCommit) async throws -> StoreWrite
  /// The last known breaker state of every host.
  func hosts() async throws -> [HostHealth]
  /// Records a routine good poll of a target whose state is otherwise unchanged: when it
  /// succeeded and when it is due next. Cheaper than a commit, and what keeps the read API's
  /// freshness honest between the full writes of a page that keeps answering 304.
  func touch(_ target: String, succeededAt time: Date, nextDue: Date?) async throws
}

/// What one poll leaves behind.
public struct PollCommit: Sendable {
  /// The batch to store, when the page changed and parsed.
  public private(set) var batch: Batch?
  /// True when `batch` passed validation already (`init(screened:)`: a poll's page, screened
  /// by the pipeline): the store does not check it again. Otherwise the store validates it.
  public let isScreened: Bool
  /// The polled target's new state, and any targets it discovered.
  public var states: [TargetState]
  /// The polled host's breaker after the poll.
  public var hosts: [HostHealth]

  /// A batch the store validates before it writes anything.
  public init(batch: Batch?, states: [TargetState], hosts: [HostHealth] = []) {
    self.batch = batch
    self.states = states
    self.hosts = hosts
    isScreened = false
  }

  /// A poll's screened batch: validated once, by the pipeline.
  public init(screened: ScreenedBatch?, states: [TargetState], hosts: [HostHealth] = []) {
    batch = screened?.batch
    self.states = states
    self.hosts = hosts
    isScreened = true
  }
}

/// A host's circuit breaker as `statline status` shows it.
public struct HostHealth: Sendable, Equatable, Codable {
  public enum Breaker: String, Sendable, Codable {
    case closed, open
    case halfOpen = "half-open"
  }

  public var host: String
  public var breaker: Breaker
  /// Consecutive failures counted by a closed breaker.
  public var failures: Int
  /// When an open breaker lets a probe through.
  public var openUntil: Date?
  public var updated: Date
  /// When the cluster's `Retry-After` pause of the host ends (PostgreSQL; nil: not paused). On
  /// SQLite a pause lives in the job's memory and lasts at most the retry policy's cap.
  public var pausedUntil: Date?

  public init(host: String, breaker: Breaker, failures: Int, openUntil: Date?, updated: Date, pausedUntil: Date? = nil)
  {
    self.host = host
    self.breaker = breaker
    self.failures = failures
    self.openUntil = openUntil
    self.updated = updated
    self.pausedUntil = pausedUntil
  }
}
