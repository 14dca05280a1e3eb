import Foundation
import StatlineCore
import Testing

/// The outbox's rules, which every store runs: one slot per device and game, the newest alert
/// replacing an unsent older one, a cap per game that a final passes, a send that completes only
/// the version it sent, backoff with jitter, expiry.
@Suite struct OutboxSlotTests {
  static let start = Date(timeIntervalSince1970: 1_772_900_000)

  static func alert(_ event: Int, kind: Device.Alert = .score, life: TimeInterval = 300) -> PlannedAlert {
    PlannedAlert(
      deviceId: "dev_1", eventId: "evt_\(event)", kind: kind, body: "score \(event)", threadId: "game:1",
      collapseId: "game:1", expiresAt: start.addingTimeInterval(life), silent: false, data: [:])
  }

  @Test func aNewerAlertReplacesAnUnsentOlderOneAndAnOlderEventChangesNothing() throws {
    let first = try #require(OutboxSlot.merge(nil, Self.alert(3), sequence: 3))
    #expect(first.pending && first.version == 1 && first.queued == 1)
    let second = try #require(OutboxSlot.merge(first, Self.alert(5), sequence: 5))
    #expect(second.alert.eventId == "evt_5" && second.version == 2 && second.queued == 2)
    #expect(OutboxSlot.merge(second, Self.alert(4), sequence: 4) == nil, "a replayed older event")
    #expect(OutboxSlot.merge(second, Self.alert(5), sequence: 5) == nil, "the same event twice")
  }

  @Test func theCapStopsScoresButNotTheFinal() throws {
    var slot = try #require(OutboxSlot.merge(nil, Self.alert(1), sequence: 1, cap: 3))
    for event in 2...3 {
      slot = try #require(OutboxSlot.merge(slot, Self.alert(event), sequence: Int64(event), cap: 3))
    }
    #expect(OutboxSlot.merge(slot, Self.alert(4), sequence: 4, cap: 3) == nil)
    let final = try #require(OutboxSlot.merge(slot, Self.alert(5, kind: .final), sequence: 5, cap: 3))
    #expect(final.alert.kind == .final && final.pending)
  }

  @Test func aSendCompletesOnlyTheVersionItSent() throws {
    var slot = try #require(OutboxSlot.merge(nil, Self.alert(1), sequence: 1))
    slot.leasedUntil = Self.start.addingTimeInterval(30)
    let sent = slot.version
    let replaced = try #require(OutboxSlot.merge(slot, Self.alert(2), sequence: 2))
    let after = replaced.finished(version: sent)
    #expect(after.pending && after.leasedUntil == nil, "the newer score goes after the one in flight")
    #expect(!after.finished(version: after.version).pending)
  }

  @Test func aSlotIsDueWhenPendingFreeNotBackingOffAndNotExpired() throws {
    var slot = try #require(OutboxSlot.merge(nil, Self.alert(1, life: 300), sequence: 1))
    #expect(slot.due(at: Self.start))
    slot.leasedUntil = Self.start.addingTimeInterval(30)
    #expect(!slot.due(at: Self.start) && slot.due(at: Self.start.addingTimeInterval(30)), "a lapsed lease is free")
    slot.leasedUntil = nil
    slot.notBefore = Self.start.addingTimeInterval(10)
    #expect(!slot.due(at: Self.start.addingTimeInterval(9)))
    #expect(!slot.due(at: Self.start.addingTimeInterval(300)) && slot.expired(at: Self.start.addingTimeInterval(300)))
    #expect(!slot.finished(version: slot.version).expired(at: Self.start.addingTimeInterval(300)))
  }

  @Test func retriesBackOffDoublingWithJitterUpToTheCeiling() throws {
    var slot = try #require(OutboxSlot.merge(nil, Self.alert(1), sequence: 1))
    var waits: [TimeInterval] = []
    for _ in 0..<8 {
      slot = slot.retried(version: slot.version, at: Self.start, unit: 1, ceiling: 16, jitter: 1)
      waits.append(try #require(slot.notBefore).timeIntervalSince(Self.start))
    }
    #expect(waits == [1, 2, 4, 8, 16, 16, 16, 16])
    let least = slot.retried(version: slot.version, at: Self.start, unit: 1, ceiling: 16, jitter: 0)
    #expect(try #require(least.notBefore).timeIntervalSince(Self.start) == 8, "jitter spreads it to half")
    let stale = slot.retried(version: slot.version - 1, at: Self.start, jitter: 0.5)
    #expect(
      stale.attempts == slot.attempts && stale.notBefore == slot.notBefore, "a replaced version does not back off")
  }
}

extension OutboxSlotTests {
  @Test func aSettlementIsAppliedToTheSlotAsStoredNow() throws {
    let slot = try #require(OutboxSlot.merge(nil, Self.alert(1), sequence: 1))
    let replaced = try #require(OutboxSlot.merge(slot, Self.alert(2), sequence: 2))
    #expect(replaced.settled(.finished(version: slot.version), at: Self.start).pending)
    #expect(!replaced.settled(.finished(version: replaced.version), at: Self.start).pending)
    let waiting = replaced.settled(.retry(version: replaced.version, jitter: 1), at: Self.start)
    #expect(waiting.attempts == 1 && waiting.notBefore == Self.start.addingTimeInterval(1))
  }
}
