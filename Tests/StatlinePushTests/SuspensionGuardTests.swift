import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePush

/// A burst of suspending answers (a sandbox token sent to production answers BadDeviceToken for
/// every device) pauses that sender instead of suspending every device; the devices it
/// suspended just before are live again; the other sender goes on; a few uninstalls among many
/// deliveries suspend only those.
@Suite struct SuspensionGuardTests {
  static let bad = PushVerdict.suspend(
    .init(kind: .quarantined, why: "BadDeviceToken: a sandbox token sent to production?", since: "2026-03-07T20:00:00Z")
  )

  @Test func aBurstPausesTheSenderAndSuspendsNobody() async throws {
    var script: [String: [PushVerdict]] = [:]
    for index in 1...40 { script[PushOutboxTests.token(index)] = [Self.bad, Self.bad] }
    let rig = PushOutboxTests.Rig(PushOutboxTests.Recorder(script))
    var devices: [Device] = []
    for index in 1...40 { devices.append(await PushOutboxTests.register(rig.registry, index)) }
    await rig.events.add(.goal, away: 1, home: 0)
    _ = try await rig.evaluator.evaluatePage()

    let dispatcher = rig.dispatcher
    let first = try await dispatcher.dispatchBatch()
    #expect(first.claimed == 40)
    for device in devices {
      #expect(await rig.registry.device(id: device.id)?.isLive == true, "\(device.token.suffix(4)) stays live")
    }
    let pause = try #require(dispatcher.suspensions.paused(at: rig.now()).first)
    #expect(pause.sender == "APNs" && pause.why.contains("a wrong key, topic or environment"))
    #expect(first.retried >= 20, "the alerts after the trip wait, they are not dropped")

    // While paused nothing goes to APNs; after the pause it sends (and is judged) again.
    let sentBefore = rig.transport.tokens.count
    #expect(first.senders == ["APNs": false], "the batch began before the trip")
    rig.now.advance(30)
    let paused = try await dispatcher.dispatchBatch()
    #expect(rig.transport.tokens.count == sentBefore, "paused: no request")
    #expect(paused.senders == ["APNs": true], "statline_push_sender_paused says so")
    rig.now.advance(40)
    let after = try await dispatcher.dispatchBatch()
    #expect(after.claimed > 0 && rig.transport.tokens.count > sentBefore)
    #expect(after.senders == ["APNs": false])
  }

  @Test func aFewUninstallsAmongManyDeliveriesSuspendOnlyThose() async throws {
    let gone = PushVerdict.suspend(.init(kind: .disabled, why: "APNs 410 Unregistered", since: "2026-03-07T20:00:00Z"))
    var script: [String: [PushVerdict]] = [:]
    for index in 1...5 { script[PushOutboxTests.token(index)] = [gone] }
    let rig = PushOutboxTests.Rig(PushOutboxTests.Recorder(script))
    for index in 1...40 { _ = await PushOutboxTests.register(rig.registry, index) }
    await rig.events.add(.goal, away: 1, home: 0)
    _ = try await rig.evaluator.evaluatePage()
    let dispatcher = rig.dispatcher
    let batch = try await dispatcher.dispatchBatch()
    #expect(batch.disabled == 5 && batch.delivered == 35)
    #expect(dispatcher.suspensions.paused(at: rig.now()).isEmpty)
    #expect(await rig.registry.suspendedCounts()[.disabled] == 5)
  }

  @Test func eachSenderIsJudgedOnItsOwn() {
    let guarding = SuspensionGuard()
    let now = PushOutboxTests.start
    for index in 0..<30 {
      _ = guarding.admit(Self.bad, deviceId: "dev_\(index)", kind: .fcm, at: now)
    }
    #expect(guarding.pause(of: .fcm, at: now) != nil && guarding.pause(of: .apns, at: now) == nil)
    let (verdict, restore) = guarding.admit(Self.bad, deviceId: "dev_apns", kind: .apns, at: now)
    #expect(verdict == Self.bad && restore.isEmpty, "APNs answers are APNs'")
    // The trip gave back the FCM devices suspended before it.
    let fresh = SuspensionGuard()
    var given: [String] = []
    for index in 0..<20 {
      given += fresh.admit(Self.bad, deviceId: "dev_\(index)", kind: .fcm, at: now).restore
    }
    #expect(given.count == 19 && !given.contains("dev_19"))
    #expect(fresh.pause(of: .fcm, at: now.addingTimeInterval(61)) == nil, "the pause ends")
  }

  /// Only the last minute counts: suspensions a minute old are forgotten, whatever their number
  /// (and each answer is counted without going over the window again: 200,000 here).
  @Test func answersOlderThanTheWindowAreForgotten() {
    let guarding = SuspensionGuard()
    let start = PushOutboxTests.start
    for index in 0..<200_000 {
      let at = start.addingTimeInterval(Double(index) * 0.001)
      // One in ten suspends: a wave of uninstalls, never a trip.
      let verdict = index % 10 == 0 ? Self.bad : .delivered
      #expect(guarding.admit(verdict, deviceId: "dev_\(index)", kind: .apns, at: at).verdict == verdict)
    }
    let later = start.addingTimeInterval(200)
    // 19 suspensions, then a minute on 10 deliveries and one suspension: counted with the old
    // ones that is 20 of 30 (a trip); with them forgotten, 11 answers (too few to judge).
    for index in 0..<19 { _ = guarding.admit(Self.bad, deviceId: "old_\(index)", kind: .fcm, at: later) }
    let now = later.addingTimeInterval(61)
    for index in 0..<10 { _ = guarding.admit(.delivered, deviceId: "ok_\(index)", kind: .fcm, at: now) }
    let (verdict, _) = guarding.admit(Self.bad, deviceId: "new", kind: .fcm, at: now)
    #expect(verdict == Self.bad && guarding.pause(of: .fcm, at: now) == nil, "the old 19 are forgotten")
  }
}
