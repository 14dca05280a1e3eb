import Foundation
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineTesting
import Testing

/// Broadcast channels end to end on loopback (`push.apns.broadcast`): a game first seen live
/// gets a channel (opened through the management API, kept as the game's `apns-channel`
/// device), each change is one broadcast to it (`/4/broadcasts/apps/<bundle>` with
/// `apns-channel-id`, priority 5 for a clock's tick) beside the updates of activities registered
/// by token, the final is one `end`, and then the channel is deleted at APNs and from the store;
/// a channel APNs no longer knows is set aside and a new one opened at the next change.
@Suite(.serialized, .timeLimit(.minutes(1))) struct BroadcastChannelTests {
  struct Rig {
    let apns: APNsSenderTests.Rig
    let store = MemoryStore()
    let registry = MemoryDeviceRegistry()
    let channels: APNsChannels
    let activities: ActivityEvaluator
    let dispatcher: PushDispatcher

    init() async throws {
      apns = try await APNsSenderTests.rig()
      let clock = apns.clock
      channels = APNsChannels(
        tokens: apns.sender.tokens,
        connections: APNsConnections(
          endpoints: .init(production: apns.fake.baseURL, sandbox: apns.fake.baseURL), perEnvironment: 1,
          trustRoots: [apns.fake.certificates.authority]))
      var configuration = ActivityEvaluator.Configuration()
      configuration.broadcast = .init(topic: APNsSenderTests.topic, environment: .production)
      activities = ActivityEvaluator(
        changes: store, outbox: registry, channels: channels, configuration: configuration, now: { clock() })
      dispatcher = PushDispatcher(
        outbox: registry, transports: [APNsTransport(sender: apns.sender, channels: channels)], now: { clock() },
        random: { 0 })
    }

    func write(_ game: Game) async throws { _ = try await store.write(Batch(games: [game])) }

    /// Plans and sends what was stored since; the broadcasts and pushes the fake accepted.
    func pass() async throws -> [LoopbackAPNs.Accepted] {
      let before = apns.fake.accepted.count
      _ = try await activities.evaluatePage()
      _ = try await dispatcher.dispatchBatch()
      apns.clock.advance(minutes: 0.5)
      return Array(apns.fake.accepted.dropFirst(before))
    }

    func stop() async {
      await channels.connections.shutdown()
      await apns.stop()
    }
  }

  static func aps(_ push: LoopbackAPNs.Accepted) -> [String: any Sendable] {
    push.payload["aps"] as? [String: any Sendable] ?? [:]
  }

  /// Runs `body` with a rig, stopping it however the body ends (a connection not shut down
  /// traps in its deinit).
  static func with(_ body: (Rig) async throws -> Void) async throws {
    let rig = try await Rig()
    do {
      try await body(rig)
    } catch {
      await rig.stop()
      throw error
    }
    await rig.stop()
  }

  @Test func aGameGetsAChannelWhenLiveOneBroadcastPerChangeAndTheChannelGoesAfterTheFinal() async throws {
    try await Self.with { rig in
      try await rig.write(LiveActivityThroughAPNsTests.game(nil, nil, status: .scheduled, period: nil))
      let game = try #require(try await rig.store.game(id: "statbroadcast:9")).id
      _ = try await rig.activities.startAtEnd()
      #expect(rig.apns.fake.openChannels.isEmpty, "no channel before the game starts")
      let token = String(repeating: "a1", count: 32)
      _ = await rig.registry.upsertDevice(
        Device(
          id: Device.id(kind: .apnsLiveActivity, token: token), kind: .apnsLiveActivity, token: token,
          environment: .production, topic: APNsSenderTests.topic, teams: [], gameId: game, registeredAt: "x",
          updatedAt: "x"))

      try await rig.write(LiveActivityThroughAPNsTests.game(0, 0))
      let started = try await rig.pass()
      let channel = try #require(rig.apns.fake.openChannels.first)
      #expect(rig.apns.fake.openChannels.count == 1)
      let stored = try #require(
        await rig.registry.device(
          id: Device.channelDeviceId(gameId: game, topic: APNsSenderTests.topic, environment: .production)))
      #expect(stored.kind == .apnsChannel && stored.token == channel && stored.gameId == game)
      #expect(
        Set(started.map(\.deviceToken)) == [channel, token],
        "the broadcast and the activity by token: \(rig.apns.fake.rejected)")
      let broadcast = try #require(started.first { $0.deviceToken == channel })
      #expect(broadcast.headers["apns-channel-id"] == channel && broadcast.headers["apns-topic"] == nil)
      #expect(broadcast.headers["apns-push-type"] == "liveactivity" && broadcast.headers["apns-priority"] == "10")
      #expect(Self.aps(broadcast)["event"] as? String == "update")

      try await rig.write(LiveActivityThroughAPNsTests.game(0, 0, clock: "14:30"))
      let tick = try await rig.pass().filter { $0.deviceToken == channel }
      #expect(tick.count == 1 && tick.first?.headers["apns-priority"] == "5")

      try await rig.write(LiveActivityThroughAPNsTests.game(1, 2, status: .final, period: 4))
      let final = try await rig.pass().filter { $0.deviceToken == channel }
      #expect(final.count == 1 && Self.aps(final[0])["event"] as? String == "end")
      #expect(rig.apns.fake.closedChannels == [channel] && rig.apns.fake.openChannels.isEmpty, "deleted at APNs")
      #expect(await rig.registry.device(id: stored.id) == nil, "and from the store")
      try await rig.write(LiveActivityThroughAPNsTests.game(1, 3, status: .final, period: 4))
      #expect(try await rig.pass().isEmpty && rig.apns.fake.openChannels.isEmpty, "no channel after the final")
    }
  }

  @Test func aChannelAPNsNoLongerKnowsIsSetAsideAndANewOneOpened() async throws {
    try await Self.with { rig in
      try await rig.write(LiveActivityThroughAPNsTests.game(nil, nil, status: .scheduled, period: nil))
      _ = try await rig.activities.startAtEnd()
      try await rig.write(LiveActivityThroughAPNsTests.game(0, 0))
      _ = try await rig.pass()
      let first = try #require(rig.apns.fake.openChannels.first)
      rig.apns.fake.script(first, .init(status: 400, reason: "ChannelNotRegistered"))
      try await rig.write(LiveActivityThroughAPNsTests.game(1, 0))
      #expect(try await rig.pass().isEmpty, "refused")
      let game = try #require(try await rig.store.game(id: "statbroadcast:9")).id
      let id = Device.channelDeviceId(gameId: game, topic: APNsSenderTests.topic, environment: .production)
      #expect(await rig.registry.device(id: id)?.suspended?.kind == .quarantined)
      try await rig.write(LiveActivityThroughAPNsTests.game(2, 0))
      let next = try await rig.pass()
      let second = try #require(rig.apns.fake.openChannels.first { $0 != first })
      #expect(next.map(\.deviceToken) == [second], "a new channel, live again")
      #expect(await rig.registry.device(id: id)?.isLive == true)
    }
  }
}
