import Foundation

/// The push evaluator's outbox (architecture.md#the-push-outbox): one slot per (device, game),
/// the evaluator's event cursor beside it, and the claims senders hold. Kept by every store
/// that keeps devices; every one runs `OutboxSlot`'s rules, so the outbox behaves alike on all.
public protocol PushOutbox: Sendable {
  /// How far the planner of `feed` has planned (`.start`: nothing yet).
  func outboxCursor(of feed: OutboxFeed) async throws -> OutboxCursor
  /// Queues `alerts` (each into its device's slot for its game, by `OutboxSlot.merge`) and moves
  /// the cursor of `feed` from `from` to `to`, in one transaction: a crash between them loses no
  /// alert and queues none twice. When the cursor is not at `from` (another worker moved it)
  /// nothing is written and `moved` is false.
  func enqueueAlerts(_ alerts: [QueuedAlert], from: OutboxCursor, to: OutboxCursor, cap: Int, in feed: OutboxFeed)
    async throws -> OutboxEnqueue
  /// Up to `limit` slots due at `now` (`OutboxSlot.due`), earliest first, each held by the
  /// caller until `leaseUntil` (a sender that dies loses them then). Returned with the lease.
  func claimAlerts(limit: Int, at now: Date, leaseUntil: Date) async throws -> [OutboxSlot]
  /// Writes back what each send came to (`OutboxSlot.settled`): against the slot as stored, which a
  /// newer alert may have replaced since it was claimed.
  func settleAlerts(_ settlements: [OutboxSettlement], at now: Date) async throws
  /// Gives up the pending alerts past their expiry (never delivered late) and forgets slots
  /// finished a day before `now`. Says how many alerts it gave up.
  func dropExpiredAlerts(at now: Date) async throws -> Int
  /// What the outbox holds at `now`.
  func outboxBacklog(at now: Date) async throws -> OutboxBacklog
}

/// What the outbox is filled from, each with its own cursor: the event log (alerts, by event
/// sequence) and the store's changes (Live Activity updates, by store version: a clock that
/// ticks is a new version of its game but no event).
public enum OutboxFeed: String, Sendable, CaseIterable {
  case events, activities

  /// The one-row table the SQL stores keep its cursor in.
  public var cursorTable: String {
    switch self {
    case .events: "push_cursor"
    case .activities: "push_activity_cursor"
    }
  }
}

/// How far a planner has planned (for `activities`, `sequence` is a store version): every event through `sequence`, or, while an event's
/// followers are being planned page by page (a team with 100,000 followers is not planned in
/// one piece), the event `sequence` for the followers up to the device id `device` and every
/// event before it.
public struct OutboxCursor: Sendable, Hashable, Codable {
  public var sequence: Int64
  /// The last follower planned of event `sequence`; nil: the event is planned whole.
  public var device: String?

  public init(sequence: Int64, device: String? = nil) {
    self.sequence = sequence
    self.device = device
  }

  public static let start = OutboxCursor(sequence: 0)
  /// A planner that started on an empty feed: nothing planned yet, and nothing to pass over, but
  /// no longer `start` (so another worker starting after the first events does not take them
  /// for history). It reads from the first item (`readAfter` is below every sequence).
  public static let begun = OutboxCursor(sequence: 0, device: "")

  /// The events still to read start after this sequence.
  public var readAfter: Int64 { device == nil ? sequence : sequence - 1 }
}

/// An alert the evaluator planned, with the sequence of the event it comes from.
public struct QueuedAlert: Sendable, Equatable {
  public var alert: PlannedAlert
  public var sequence: Int64

  public init(_ alert: PlannedAlert, sequence: Int64) {
    self.alert = alert
    self.sequence = sequence
  }
}

/// What an enqueue did.
public struct OutboxEnqueue: Sendable, Equatable {
  /// Whether the cursor moved (false: another worker had moved it; nothing written).
  public var moved: Bool
  /// Alerts that took a slot (a new one, or replacing an older unsent or sent alert).
  public var queued: Int
  /// Alerts that changed nothing: not newer than their slot's, or over the game's cap.
  public var ignored: Int

  public init(moved: Bool, queued: Int, ignored: Int) {
    self.moved = moved
    self.queued = queued
    self.ignored = ignored
  }
}

/// What one send of a claimed slot came to.
public struct OutboxSettlement: Sendable, Equatable {
  public var deviceId: String
  public var collapseId: String
  public var settlement: OutboxSlot.Settlement

  public init(deviceId: String, collapseId: String, _ settlement: OutboxSlot.Settlement) {
    self.deviceId = deviceId
    self.collapseId = collapseId
    self.settlement = settlement
  }
}

/// The outbox's counts at one time.
public struct OutboxBacklog: Sendable, Equatable {
  /// Alerts still to send.
  public var pending: Int
  /// Of those, held by a sender now.
  public var leased: Int
  /// Of those, waiting out a backoff.
  public var backingOff: Int

  public init(pending: Int, leased: Int, backingOff: Int) {
    self.pending = pending
    self.leased = leased
    self.backingOff = backingOff
  }
}
