import Foundation
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineTesting
import Testing

/// Live Activities end to end on loopback: stored versions of a game → `ActivityEvaluator` →
/// outbox → send loop → APNs over HTTP/2 TLS → `LoopbackAPNs`, read back from the fake: an
/// activity registered with a source id and one with the canonical id each get one `update` per
/// change (priority 10 for a score, 5 for a clock's tick, none for a version the phone would not
/// see differ), at most one per planning pass however many polls came in between, the `end`
/// with its dismissal date at the final, and nothing after it; the alert phone of the same
/// team gets no Live Activity push, and an activity of another game none.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LiveActivityThroughAPNsTests {
  static func game(
    _ away: Int?, _ home: Int?, status: GameStatus = .live, period: Int? = 1, clock: String? = "15:00",
    attendance: Int? = nil
  ) -> Game {
    var game = Game(
      id: "statbroadcast:9", sport: .lacrosseMen, status: status, date: "2026-03-07",
      away: TeamLine(team: TeamRef(name: "Army"), score: away), home: TeamLine(team: TeamRef(name: "Navy"), score: home)
    )
    game.period = period
    game.periodLabel = period.map { "\($0)" }
    game.clock = status == .live ? clock : nil
    game.attendance = attendance
    return game
  }

  @Test func eachChangeOfTheGameIsOneUpdateAndTheFinalEndsIt() async throws {
    let rig = try await APNsSenderTests.rig()
    let store = MemoryStore()
    let registry = MemoryDeviceRegistry()
    let clock = rig.clock
    func write(_ game: Game) async throws { _ = try await store.write(Batch(games: [game])) }
    try await write(Self.game(nil, nil, status: .scheduled, period: nil))
    let canonical = try #require(try await store.game(id: "statbroadcast:9")).id
    #expect(canonical.hasPrefix("game:"))

    func register(_ fill: String, _ kind: Device.Kind, game: String?, teams: [String] = []) async -> Device {
      let token = String(repeating: fill, count: 32)
      return await registry.upsertDevice(
        Device(
          id: Device.id(kind: kind, token: token), kind: kind, token: token, environment: .production,
          topic: APNsSenderTests.topic, teams: teams, gameId: game, registeredAt: "2026-03-01T00:00:00Z",
          updatedAt: "2026-03-01T00:00:00Z")
      ).device
    }
    let bySource = await register("a1", .apnsLiveActivity, game: "statbroadcast:9")
    let byCanonical = await register("b2", .apnsLiveActivity, game: canonical)
    _ = await register("c3", .apnsLiveActivity, game: "game:2026-03-07:lacrosse-men:1~2")
    let phone = await register("d4", .apns, game: nil, teams: ["team:726"])

    let activities = ActivityEvaluator(changes: store, outbox: registry, now: { clock() })
    let dispatcher = PushDispatcher(
      outbox: registry, transports: [APNsTransport(sender: rig.sender)], now: { clock() }, random: { 0 })
    #expect(try await activities.startAtEnd() > 0, "the scheduled game's versions are history")
    /// Plans what was stored since the last pass and sends it; what the fake accepted, in order.
    func pass() async throws -> [LoopbackAPNs.Accepted] {
      let before = rig.fake.accepted.count
      _ = try await activities.evaluatePage()
      _ = try await dispatcher.dispatchBatch()
      clock.advance(minutes: 0.5)
      return Array(rig.fake.accepted.dropFirst(before))
    }
    func aps(_ push: LoopbackAPNs.Accepted) -> [String: any Sendable] {
      push.payload["aps"] as? [String: any Sendable] ?? [:]
    }
    func line(_ push: LoopbackAPNs.Accepted) -> String? {
      (aps(push)["content-state"] as? [String: any Sendable])?["line"] as? String
    }

    try await write(Self.game(0, 0))
    let started = try await pass()
    #expect(Set(started.map(\.deviceToken)) == [bySource.token, byCanonical.token], "both activities, each once")
    #expect(started.count == 2)
    for push in started {
      #expect(push.headers["apns-push-type"] == "liveactivity")
      #expect(push.headers["apns-topic"] == APNsSenderTests.topic + ".push-type.liveactivity")
      #expect(push.headers["apns-priority"] == "10")
      #expect(push.headers["apns-collapse-id"] == nil)
      #expect(aps(push)["event"] as? String == "update")
      #expect(line(push) == "Army West Point 0, Navy 0 · 1 15:00")
      let stale = try #require(aps(push)["stale-date"] as? Int)
      let stamp = try #require(aps(push)["timestamp"] as? Int)
      #expect(stale - stamp == 45, "a little after the next poll")
    }

    try await write(Self.game(0, 0, clock: "14:30"))
    let tick = try await pass()
    #expect(tick.count == 2 && tick.allSatisfy { $0.headers["apns-priority"] == "5" }, "only the clock moved")

    try await write(Self.game(0, 0, clock: "14:30", attendance: 1311))
    #expect(try await pass().isEmpty, "a new version the activity would not show differently")

    // Two polls before the planner looks: one update, the newest.
    try await write(Self.game(0, 0, clock: "14:00"))
    try await write(Self.game(1, 0, clock: "13:40"))
    let goal = try await pass()
    #expect(goal.count == 2 && goal.allSatisfy { $0.headers["apns-priority"] == "10" })
    #expect(goal.allSatisfy { line($0) == "Army West Point 1, Navy 0 · 1 13:40" })

    try await write(Self.game(1, 2, status: .final, period: 4))
    let final = try await pass()
    #expect(final.count == 2 && final.allSatisfy { aps($0)["event"] as? String == "end" })
    for push in final {
      let dismissal = try #require(aps(push)["dismissal-date"] as? Int)
      let stamp = try #require(aps(push)["timestamp"] as? Int)
      #expect(dismissal - stamp == 30 * 60)
      #expect(line(push) == "Army West Point 1, Navy 2 · Final")
    }
    try await write(Self.game(1, 3, status: .final, period: 4))
    #expect(try await pass().isEmpty, "a corrected final after the end: the activity is gone")

    let tokens = Set(rig.fake.accepted.map(\.deviceToken))
    #expect(!tokens.contains(phone.token), "an alert device is told by events, not by versions")
    #expect(tokens.count == 2, "the other game's activity got nothing")
    await rig.stop()
  }
}
