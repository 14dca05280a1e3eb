import Foundation
import Logging
import StatlineCore

/// The push evaluator (architecture.md#the-push-outbox): reads the event log from its own cursor
/// like a sink, finds each event's followers through the registry's team index (never a scan of
/// every device), lets `AlertPlanner` decide per device, and queues the alerts into the outbox in
/// the transaction that moves its cursor. A crash loses nothing (the cursor did not move) and
/// repeats nothing (a replayed event is not newer than its slot's).
public struct PushEvaluator: Sendable {
  public struct Configuration: Sendable {
    /// Events read per page.
    public var eventPage = 200
    /// Followers read per query.
    public var devicePage = 1_000
    /// Alerts written per transaction (a page's alerts are cut at an event's end past this).
    public var alertsPerWrite = 1_000
    /// Alerts per device per game before only the final goes.
    public var cap = OutboxSlot.defaultCap
    /// The device kinds a sender is configured for (others get nothing queued).
    public var kinds: Set<Device.Kind> = [.apns]
    /// Where an outbox that has planned nothing yet starts when the push path starts: at the end
    /// of the event log (push switched on for a store with a season of events announces none of
    /// them: `skipHistory`), or, false, at its first event.
    public var startsAtEnd = true

    public init() {}
  }

  /// What one page came to.
  public struct Report: Sendable, Equatable {
    public var events = 0
    public var queued = 0
    public var ignored = 0
    /// False when another worker had planned these events first.
    public var moved = true

    public init(events: Int = 0, queued: Int = 0, ignored: Int = 0, moved: Bool = true) {
      self.events = events
      self.queued = queued
      self.ignored = ignored
      self.moved = moved
    }
  }

  let log: any EventLog
  let outbox: any DeviceRegistry & PushOutbox
  let configuration: Configuration
  let now: @Sendable () -> Date
  let logger: Logger

  public init(
    log: any EventLog, outbox: any DeviceRegistry & PushOutbox, configuration: Configuration = Configuration(),
    now: @escaping @Sendable () -> Date, logger: Logger = Logger(label: "statline.push")
  ) {
    self.log = log
    self.outbox = outbox
    self.configuration = configuration
    self.now = now
    self.logger = logger
  }

  /// Run once as the push path starts: an outbox that has planned nothing yet starts after the
  /// events already in the log (they happened before push was switched on; announced now they
  /// would be hours late with a fresh expiry). Says how many it passed over. On an empty log
  /// the cursor becomes `OutboxCursor.begun`: the first events are news, whichever worker
  /// starts next.
  @discardableResult
  public func skipHistory() async throws -> Int64 {
    guard configuration.startsAtEnd, try await outbox.outboxCursor(of: .events) == .start else { return 0 }
    let last = try await log.lastEventSequence()
    // An empty log: nothing to pass over, but the outbox is marked begun, so a worker that
    // starts after this one's first events does not pass over them.
    guard
      try await outbox.enqueueAlerts(
        [], from: .start, to: last > 0 ? OutboxCursor(sequence: last) : .begun, cap: configuration.cap, in: .events
      ).moved, last > 0
    else { return 0 }
    logger.notice(
      "push starts at the end of the event log: the events stored before it are not announced",
      metadata: ["events": "\(last)"])
    return last
  }

  /// Plans the next page of events after the cursor; `events` is 0 when there were none. The
  /// followers of an event are read a page at a time and their alerts written in pieces
  /// (`PlanningPass`), each with the cursor at the follower it reached.
  public func evaluatePage() async throws -> Report {
    var pass = try await PlanningPass(
      outbox: outbox, feed: .events, cap: configuration.cap, devicePage: configuration.devicePage,
      alertsPerWrite: configuration.alertsPerWrite)
    let events = try await log.events(since: pass.cursor.readAfter, limit: configuration.eventPage)
    var report = Report()
    let time = now()
    for event in events {
      let teams = AlertPlanner.teams(of: event)
      guard !teams.isEmpty else {
        pass.skip(event.sequence)
        report.events += 1
        continue
      }
      let planned = try await pass.plan(
        event.sequence,
        followers: { after, limit in try await outbox.devices(following: teams, after: after, limit: limit) },
        alerts: { page in plan(event, for: page, at: time) })
      guard planned else { break }
      report.events += 1
    }
    try await pass.finish()
    report.queued = pass.queued
    report.ignored = pass.ignored
    report.moved = pass.moved
    return report
  }

  /// The alerts one event makes for `devices` (a page of its teams' followers): each live one
  /// of a kind a sender is set up for that `AlertPlanner` says wants it.
  func plan(_ event: ChangeEvent, for devices: [Device], at time: Date) -> [QueuedAlert] {
    devices.compactMap { device in
      // A Live Activity is told of its game by `ActivityEvaluator`, never by an event's alert.
      guard device.isLive, device.kind != .apnsLiveActivity, configuration.kinds.contains(device.kind),
        let alert = AlertPlanner.plan(event, for: device, at: time)
      else { return nil }
      return QueuedAlert(alert, sequence: event.sequence)
    }
  }
}
