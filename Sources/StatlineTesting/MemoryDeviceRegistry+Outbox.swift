import Foundation
import StatlineCore

/// The memory store's outbox (`PushOutbox`): the slots in a dictionary, the rules `OutboxSlot`'s.
extension MemoryDeviceRegistry: PushOutbox {
  public func outboxCursor(of feed: OutboxFeed) -> OutboxCursor { cursors[feed] ?? .start }
  public func outboxCursor() -> OutboxCursor { outboxCursor(of: .events) }

  public func enqueueAlerts(_ alerts: [QueuedAlert], from: OutboxCursor, to: OutboxCursor, cap: Int) -> OutboxEnqueue {
    enqueueAlerts(alerts, from: from, to: to, cap: cap, in: .events)
  }

  public func enqueueAlerts(
    _ alerts: [QueuedAlert], from: OutboxCursor, to: OutboxCursor, cap: Int, in feed: OutboxFeed
  ) -> OutboxEnqueue {
    guard outboxCursor(of: feed) == from else { return OutboxEnqueue(moved: false, queued: 0, ignored: 0) }
    let keys = Set(alerts.map { OutboxSlot.Key(deviceId: $0.alert.deviceId, collapseId: $0.alert.collapseId) })
    let (changed, ignored) = OutboxSlot.merging(alerts, into: slots.filter { keys.contains($0.key) }, cap: cap)
    for slot in changed { slots[slot.key] = slot }
    cursors[feed] = to
    return OutboxEnqueue(moved: true, queued: alerts.count - ignored, ignored: ignored)
  }

  public func claimAlerts(limit: Int, at now: Date, leaseUntil: Date) -> [OutboxSlot] {
    let due = slots.values.filter { $0.due(at: now) }.sorted { ($0.readyAt, $0.sequence) < ($1.readyAt, $1.sequence) }
    return due.prefix(max(limit, 0)).map { slot in
      let held = slot.leased(until: leaseUntil)
      slots[slot.key] = held
      return held
    }
  }

  public func settleAlerts(_ settlements: [OutboxSettlement], at now: Date) {
    for settled in settlements {
      let key = OutboxSlot.Key(deviceId: settled.deviceId, collapseId: settled.collapseId)
      if let slot = slots[key] { slots[key] = slot.settled(settled.settlement, at: now) }
    }
  }

  public func dropExpiredAlerts(at now: Date) -> Int {
    var dropped = 0
    for (key, slot) in slots {
      if slot.expired(at: now) {
        slots[key] = slot.givenUp()
        dropped += 1
      } else if slot.forgettable(at: now) {
        slots[key] = nil
      }
    }
    return dropped
  }

  public func outboxBacklog(at now: Date) -> OutboxBacklog {
    let pending = slots.values.filter(\.pending)
    return OutboxBacklog(
      pending: pending.count, leased: pending.filter { ($0.leasedUntil ?? .distantPast) > now }.count,
      backingOff: pending.filter { ($0.notBefore ?? .distantPast) > now }.count)
  }
}
