import Foundation

/// One device's place in the push outbox for one game (its collapse id): the newest alert not
/// yet sent, how many were queued for that game, and where its sending stands. One slot per
/// (device, game) is what makes the outbox's rules hold by construction: a newer alert replaces
/// an unsent older one (coalescing; per-device order within a game), and the cap counts per
/// slot. Every store keeps slots and runs these rules (`merge`, `due`, `settled`), so the rules live
/// here once.
public struct OutboxSlot: Codable, Sendable, Equatable {
  public var deviceId: String
  public var collapseId: String
  /// The alert to send (the newest queued), or the last one sent when nothing is pending.
  public var alert: PlannedAlert
  /// The event sequence of `alert`: an older event never replaces a newer one.
  public var sequence: Int64
  /// Whether `alert` is still to be sent.
  public var pending: Bool
  /// Bumped at each replacement: a send completes only the version it sent, so an alert that
  /// replaced one in flight is sent after it.
  public var version: Int
  /// Alerts queued for this game to this device (the cap counts them).
  public var queued: Int
  /// Requests made for the pending alert (retries back off on it).
  public var attempts: Int
  /// Not sent before (a backoff).
  public var notBefore: Date?
  /// A sender holds it until then (a worker that died loses it after).
  public var leasedUntil: Date?

  public init(
    deviceId: String, collapseId: String, alert: PlannedAlert, sequence: Int64, pending: Bool = true,
    version: Int = 1, queued: Int = 1, attempts: Int = 0, notBefore: Date? = nil, leasedUntil: Date? = nil
  ) {
    self.deviceId = deviceId
    self.collapseId = collapseId
    self.alert = alert
    self.sequence = sequence
    self.pending = pending
    self.version = version
    self.queued = queued
    self.attempts = attempts
    self.notBefore = notBefore
    self.leasedUntil = leasedUntil
  }

  /// Alerts per device per game before only the final goes (a basketball run does not flood
  /// a phone).
  public static let defaultCap = 12

  /// The slot after `alert` (of event `sequence`) is queued into `slot` (nil: the device's first
  /// for the game); nil when nothing changes: an event not newer than the slot's, or a game over
  /// its cap (a final always goes). A Live Activity's update (`sequence`: its game's store
  /// version) has no cap (one per poll at most) and goes only when the phone would see something
  /// new (`ActivityUpdate.after`, which also sets its priority).
  public static func merge(_ slot: OutboxSlot?, _ alert: PlannedAlert, sequence: Int64, cap: Int = defaultCap)
    -> OutboxSlot?
  {
    guard var slot else {
      return OutboxSlot(deviceId: alert.deviceId, collapseId: alert.collapseId, alert: alert, sequence: sequence)
    }
    guard sequence > slot.sequence else { return nil }
    var alert = alert
    if let update = alert.activity {
      guard let next = update.after(slot.alert.activity, pending: slot.pending) else { return nil }
      alert.activity = next
    } else {
      guard slot.queued < cap || alert.kind == .final else { return nil }
    }
    slot.alert = alert
    slot.sequence = sequence
    slot.pending = true
    slot.version += 1
    slot.queued += 1
    slot.attempts = 0
    slot.notBefore = nil
    return slot
  }

  /// Whether a sender may take it at `now`: pending, not backing off, not held, not expired.
  public func due(at now: Date) -> Bool {
    pending && (notBefore.map { $0 <= now } ?? true) && (leasedUntil.map { $0 <= now } ?? true)
      && alert.expiresAt > now
  }

  /// Whether it is pending but past its alert's expiry: dropped (and counted), never sent late.
  public func expired(at now: Date) -> Bool { pending && alert.expiresAt <= now }

  /// The slot after version `version` was answered (sent, or given up): no longer pending,
  /// unless a newer alert replaced it meanwhile.
  public func finished(version: Int) -> OutboxSlot {
    var slot = self
    slot.leasedUntil = nil
    if version == self.version { slot.pending = false }
    return slot
  }

  /// The slot after version `version` must wait (429, 5xx, no answer): the next try after a
  /// backoff with jitter (`unit` doubled per attempt, at most `ceiling`; `jitter` in 0..<1
  /// spreads it) and not sooner than `atLeast` seconds (a service's `Retry-After`), unless a
  /// newer alert replaced it meanwhile (that one goes at once).
  public func retried(
    version: Int, at now: Date, unit: TimeInterval = 1, ceiling: TimeInterval = 60, jitter: Double,
    atLeast: TimeInterval = 0
  ) -> OutboxSlot {
    var slot = self
    slot.leasedUntil = nil
    guard version == self.version else { return slot }
    slot.attempts += 1
    let backoff = min(ceiling, unit * pow(2, Double(slot.attempts - 1)))
    slot.notBefore = now.addingTimeInterval(max(atLeast, backoff * (0.5 + jitter / 2)))
    return slot
  }

  /// What the sender's answer does to the slot it sent (as of `version`).
  public enum Settlement: Sendable, Equatable {
    /// Answered (accepted, or refused for good: the device disabled or quarantined, the push
    /// dropped): done.
    case finished(version: Int)
    /// To try again after a backoff (`jitter` in 0..<1), not sooner than `atLeast` seconds.
    case retry(version: Int, jitter: Double, atLeast: TimeInterval = 0)
  }

  /// The stored slot after `settlement`, at `now`: what a store writes back in place of the slot
  /// it holds (which a newer alert may have replaced since it was sent).
  public func settled(_ settlement: Settlement, at now: Date) -> OutboxSlot {
    switch settlement {
    case .finished(let version): finished(version: version)
    case .retry(let version, let jitter, let atLeast):
      retried(version: version, at: now, jitter: jitter, atLeast: atLeast)
    }
  }
}
