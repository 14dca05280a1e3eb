import Foundation

/// What a store needs to keep slots: their key, the columns it indexes, and the batch forms of
/// `merge`, claim and drop, so that each store only reads and writes rows.
extension OutboxSlot {
  /// A slot's identity: one device, one game.
  public struct Key: Hashable, Sendable {
    public var deviceId: String
    public var collapseId: String

    public init(deviceId: String, collapseId: String) {
      self.deviceId = deviceId
      self.collapseId = collapseId
    }
  }

  public var key: Key { Key(deviceId: deviceId, collapseId: collapseId) }

  /// When it may be claimed next (seconds since 1970; 0: at once): the later of its backoff and
  /// its lease. Stores index it with `pending` and `expiresAt` to find due slots without a scan.
  public var readyAt: Double {
    max(notBefore?.timeIntervalSince1970 ?? 0, leasedUntil?.timeIntervalSince1970 ?? 0)
  }

  /// Its alert's expiry, seconds since 1970 (the column stores index).
  public var expiresAt: Double { alert.expiresAt.timeIntervalSince1970 }

  /// `alerts` merged in order into the slots they land in (`existing`: those slots as stored;
  /// a batch may hold several alerts for one slot): the slots to write, and how many alerts
  /// changed nothing.
  public static func merging(_ alerts: [QueuedAlert], into existing: [Key: OutboxSlot], cap: Int = defaultCap)
    -> (changed: [OutboxSlot], ignored: Int)
  {
    var slots = existing
    var changed: [Key] = []
    var seen: Set<Key> = []
    var ignored = 0
    for queued in alerts {
      let key = Key(deviceId: queued.alert.deviceId, collapseId: queued.alert.collapseId)
      guard let slot = merge(slots[key], queued.alert, sequence: queued.sequence, cap: cap) else {
        ignored += 1
        continue
      }
      if seen.insert(key).inserted { changed.append(key) }
      slots[key] = slot
    }
    return (changed.compactMap { slots[$0] }, ignored)
  }

  /// The slot held by a sender until `until`.
  public func leased(until: Date) -> OutboxSlot {
    var slot = self
    slot.leasedUntil = until
    return slot
  }

  /// The slot with its expired alert given up (no longer pending).
  public func givenUp() -> OutboxSlot {
    var slot = self
    slot.pending = false
    slot.leasedUntil = nil
    return slot
  }

  /// How long a finished slot is kept (so a late replay of its event is still recognised).
  public static let keptAfterExpiry: TimeInterval = 24 * 3600

  /// Whether a store may forget it at `now`: finished, and its alert expired a day ago.
  public func forgettable(at now: Date) -> Bool {
    !pending && alert.expiresAt.addingTimeInterval(Self.keptAfterExpiry) <= now
  }

  /// `forgettable` in a store's columns: a slot not pending whose `expires_at` is at most this
  /// (seconds since 1970) may be deleted without reading it.
  public static func forgetExpiredBefore(_ now: Date) -> Double {
    now.timeIntervalSince1970 - keptAfterExpiry
  }
}
