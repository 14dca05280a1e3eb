import StatlineCore

/// One page of planning into the outbox, shared by both planners (`PushEvaluator` over events,
/// `ActivityEvaluator` over store versions): each item's followers are read a page at a time
/// and their alerts written in pieces of about `alertsPerWrite`, each with the feed's cursor at
/// the follower it reached. Memory stays flat in the number of followers, a restart goes on from
/// the last piece written, and a worker that finds the cursor moved by another stops.
struct PlanningPass {
  let outbox: any DeviceRegistry & PushOutbox
  let feed: OutboxFeed
  let cap: Int
  let devicePage: Int
  let alertsPerWrite: Int
  /// Where the cursor stands (as written), and where planning has reached.
  private(set) var cursor: OutboxCursor
  private var reached: OutboxCursor
  private var alerts: [QueuedAlert] = []
  private(set) var queued = 0
  private(set) var ignored = 0
  /// False once another worker had moved the cursor (nothing more is written).
  private(set) var moved = true

  init(outbox: any DeviceRegistry & PushOutbox, feed: OutboxFeed, cap: Int, devicePage: Int, alertsPerWrite: Int)
    async throws
  {
    self.outbox = outbox
    self.feed = feed
    self.cap = cap
    self.devicePage = devicePage
    self.alertsPerWrite = alertsPerWrite
    cursor = try await outbox.outboxCursor(of: feed)
    reached = cursor
  }

  /// Plans item `sequence`: its followers (`followers(after, limit)`, in id order) page by page,
  /// from the follower the cursor holds when the cursor is inside it. False when another worker
  /// moved the cursor.
  /// `first` goes with the item's first piece (not again when the cursor is inside the item: it
  /// was written then).
  mutating func plan(
    _ sequence: Int64, first: [QueuedAlert] = [], followers: (String?, Int) async throws -> [Device],
    alerts plan: ([Device]) -> [QueuedAlert]
  ) async throws -> Bool {
    var after = sequence == cursor.sequence ? cursor.device : nil
    if after == nil { alerts += first }
    var whole = false
    while !whole {
      let page = try await followers(after, devicePage)
      alerts += plan(page)
      whole = page.count < devicePage
      after = page.last?.id ?? after
      reached = whole ? OutboxCursor(sequence: sequence) : OutboxCursor(sequence: sequence, device: after)
      if alerts.count >= alertsPerWrite, !(try await write()) { return false }
    }
    return true
  }

  /// Whether item `sequence` is planned from its beginning (the cursor is not inside it).
  func starts(_ sequence: Int64) -> Bool { sequence != cursor.sequence || cursor.device == nil }

  /// Passes over item `sequence` (nothing to plan for it).
  mutating func skip(_ sequence: Int64) { reached = OutboxCursor(sequence: sequence) }

  /// Writes what is left with the cursor where planning reached.
  mutating func finish() async throws {
    if moved, reached != cursor { _ = try await write() }
  }

  private mutating func write() async throws -> Bool {
    let written = try await outbox.enqueueAlerts(alerts, from: cursor, to: reached, cap: cap, in: feed)
    guard written.moved else {
      moved = false
      return false
    }
    queued += written.queued
    ignored += written.ignored
    cursor = reached
    alerts = []
    return true
  }
}
