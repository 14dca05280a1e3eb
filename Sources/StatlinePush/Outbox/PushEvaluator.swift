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
    public var alertsPerWrite = 5_000
    /// Alerts per device per game before only the final goes.
    public var cap = OutboxSlot.defaultCap
    /// The device kinds a sender is configured for (others get nothing queued).
    public var kinds: Set<Device.Kind> = [.apns]

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

  /// Plans the next page of events after the cursor; `events` is 0 when there were none.
  public func evaluatePage() async throws -> Report {
    var cursor = try await outbox.outboxCursor()
    let events = try await log.events(since: cursor, limit: configuration.eventPage)
    var report = Report()
    var alerts: [QueuedAlert] = []
    for (index, event) in events.enumerated() {
      alerts += try await plan(event)
      let last = index == events.count - 1
      guard last || alerts.count >= configuration.alertsPerWrite else { continue }
      let written = try await outbox.enqueueAlerts(
        alerts, from: cursor, through: event.sequence, cap: configuration.cap)
      guard written.moved else {
        report.moved = false
        return report
      }
      report.events = index + 1
      report.queued += written.queued
      report.ignored += written.ignored
      cursor = event.sequence
      alerts = []
    }
    return report
  }

  /// The alerts one event makes: each live follower of its teams, of a kind a sender is set up
  /// for, that `AlertPlanner` says wants it.
  func plan(_ event: ChangeEvent) async throws -> [QueuedAlert] {
    let teams = AlertPlanner.teams(of: event)
    guard !teams.isEmpty else { return [] }
    let time = now()
    var alerts: [QueuedAlert] = []
    var after: String?
    while true {
      let page = try await outbox.devices(following: teams, after: after, limit: configuration.devicePage)
      for device in page where device.isLive && configuration.kinds.contains(device.kind) {
        if let alert = AlertPlanner.plan(event, for: device, at: time) {
          alerts.append(QueuedAlert(alert, sequence: event.sequence))
        }
      }
      guard page.count == configuration.devicePage, let last = page.last else { break }
      after = last.id
    }
    return alerts
  }
}
