import Foundation

/// A store that N workers share (PostgreSQL): the schedule is split through leases, so a due
/// target is polled by exactly one worker and a dead worker's targets pass to the others once
/// its leases expire (architecture.md#workers).
///
/// A worker claims due targets into leases, renews the leases of the polls it has in flight,
/// and gives each back with the poll's commit. A commit or touch whose lease is no longer the
/// worker's (it expired and another worker took the target) writes nothing.
public protocol ClusterStore: ScheduleStore {
  /// Registers the worker, or beats its heartbeat.
  func heartbeat(_ worker: WorkerInfo, at time: Date) async throws
  /// Every worker that has registered, newest heartbeat first, with the leases each holds now.
  func workers(at time: Date) async throws -> [WorkerInfo]
  /// Claims up to `limit` targets due at `now` that no live lease holds (`SKIP LOCKED`: two
  /// workers claiming at once take different targets), leased to `worker` until `until`;
  /// earliest due first.
  func claim(worker: String, now: Date, limit: Int, until: Date) async throws -> [TargetState]
  /// Extends the worker's leases on `targets`; returns those it still held.
  func renew(worker: String, targets: [String], until: Date) async throws -> Set<String>
  /// Commits a leased target's poll and gives the lease back. The polled target's state is
  /// written only while `lease` holds (else nil: nothing is written); the targets it discovered
  /// are added only when no worker added them first.
  func commit(_ poll: PollCommit, lease: Lease) async throws -> StoreWrite?
  /// `touch` for a leased target, giving the lease back; false when the lease was lost.
  func touch(_ target: String, succeededAt time: Date, nextDue: Date?, lease: Lease) async throws -> Bool
  /// A worker's start-up: adds the configured targets no worker added yet (`new`) and writes
  /// `changed` ones (retired, revived) unless another worker holds them.
  func seed(new: [TargetState], changed: [TargetState], at time: Date) async throws
  /// Gives back every lease of the worker at once, and its claim on the targets it polled last, and
  /// marks it stopped (graceful shutdown).
  /// The targets in `cutShort` were being polled when the worker stopped: their request may have
  /// reached the site, so none is due again before its date (another worker taking it at once
  /// would ask the site twice within one cadence).
  func release(worker: String, at time: Date, cutShort: [String: Date]) async throws
}

extension ClusterStore {
  /// `release` with no poll in flight.
  public func release(worker: String, at time: Date) async throws {
    try await release(worker: worker, at: time, cutShort: [:])
  }
}

/// The lease a worker polls a target under.
public struct Lease: Sendable, Equatable {
  public var worker: String
  public var target: String

  public init(worker: String, target: String) {
    self.worker = worker
    self.target = target
  }
}

/// One `statline run` process of a cluster, as `statline status` shows it.
public struct WorkerInfo: Sendable, Equatable, Codable {
  public var id: String
  /// The machine it runs on.
  public var host: String
  public var pid: Int32
  public var started: Date
  public var heartbeat: Date
  /// When it stopped gracefully (nil: running, or killed).
  public var stopped: Date?
  /// Leases it holds now.
  public var leases: Int

  public init(
    id: String, host: String, pid: Int32, started: Date, heartbeat: Date, stopped: Date? = nil, leases: Int = 0
  ) {
    self.id = id
    self.host = host
    self.pid = pid
    self.started = started
    self.heartbeat = heartbeat
    self.stopped = stopped
    self.leases = leases
  }

  /// A worker of this process: `host-pid-xxxx` unless an id is given.
  public static func this(id: String? = nil, at time: Date) -> WorkerInfo {
    let host = ProcessInfo.processInfo.hostName
    let pid = ProcessInfo.processInfo.processIdentifier
    let suffix = String(UInt16.random(in: .min ... .max), radix: 16)
    return WorkerInfo(id: id ?? "\(host)-\(pid)-\(suffix)", host: host, pid: pid, started: time, heartbeat: time)
  }
}
