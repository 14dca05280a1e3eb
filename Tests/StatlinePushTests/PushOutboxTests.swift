import Foundation
import StatlineCore
import StatlinePush
import StatlineTesting
import Synchronization
import Testing

/// The evaluator and the send loop over the memory store's outbox: each live follower of a
/// game's teams gets its alert once (the newer of two unsent goals replacing the older), a
/// restart plans nothing twice, each verdict settles the outbox as the matrix says (a 410
/// disables, BadDeviceToken quarantines, a 429 backs off, an expired alert is never sent), a
/// dead sender's claims pass to the next after the lease, and requests in flight stay bounded.
@Suite struct PushOutboxTests {
  static let duke = TeamRef(id: "team:193", name: "Duke")
  static let unc = TeamRef(id: "team:457", name: "North Carolina")
  static let start = Date(timeIntervalSince1970: 1_772_910_000)

  /// A manual wall clock.
  final class Now: Sendable {
    let time = Mutex(PushOutboxTests.start)
    func callAsFunction() -> Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
  }

  /// A transport that answers by script per device token and records what it was given.
  final class Recorder: PushTransport {
    let verdicts: Mutex<[String: [PushVerdict]]>
    let sent = Mutex<[(token: String, body: String)]>([])
    let running = Mutex((now: 0, most: 0))
    /// While set, each request waits (in flight) until it is cleared.
    let holding = Mutex(false)
    var kinds: Set<Device.Kind> { [.apns] }

    init(_ verdicts: [String: [PushVerdict]] = [:]) { self.verdicts = Mutex(verdicts) }

    func deliver(_ alert: PlannedAlert, to device: Device) async -> PushVerdict {
      running.withLock { state in
        state.now += 1
        state.most = max(state.most, state.now)
      }
      for _ in 0..<5 { await Task.yield() }
      while holding.withLock({ $0 }) { await Task.yield() }
      running.withLock { $0.now -= 1 }
      sent.withLock { $0.append((device.token, alert.body)) }
      return verdicts.withLock { verdicts in
        guard var list = verdicts[device.token], !list.isEmpty else { return .delivered }
        let next = list.removeFirst()
        verdicts[device.token] = list
        return next
      }
    }

    var tokens: [String] { sent.withLock { $0.map(\.token) } }
  }

  /// An event log of listed events.
  actor Events: EventLog {
    var events: [ChangeEvent] = []
    nonisolated let eventBell = EventBell()

    func add(_ type: ChangeEvent.Kind, away: Int, home: Int, home team: TeamRef = unc) {
      var game = Game(
        id: "game:2026-03-07:lacrosse-men:193~457", sport: .lacrosseMen, status: type == .final ? .final : .live,
        period: 2, periodLabel: "2nd", clock: "04:06", date: "2026-03-07",
        away: TeamLine(team: PushOutboxTests.duke, score: away), home: TeamLine(team: team, score: home))
      game.id = "game:2026-03-07:lacrosse-men:193~\(team.id ?? "")"
      var event = ChangeEvent(type, game: game)
      event.sequence = Int64(events.count + 1)
      event.id = "evt_\(event.sequence)"
      events.append(event)
    }

    func events(since sequence: Int64, limit: Int) -> [ChangeEvent] {
      Array(events.filter { $0.sequence > sequence }.prefix(limit))
    }
    func lastEventSequence() -> Int64 { events.last?.sequence ?? 0 }
    func cursor(of sink: String) -> Int64 { 0 }
    func setCursor(_ sequence: Int64, of sink: String) {}
    func deadLetters(sink: String?) -> [DeadLetter] { [] }
    func addDeadLetter(_ letter: DeadLetter) {}
    func removeDeadLetter(sink: String, sequence: Int64) {}
  }

  static func token(_ index: Int) -> String { String(format: "%064x", index) }

  static func register(
    _ registry: MemoryDeviceRegistry, _ index: Int, teams: [String] = ["team:193"], kind: Device.Kind = .apns
  ) async -> Device {
    let token = token(index)
    return await registry.upsertDevice(
      Device(
        id: Device.id(kind: kind, token: token), kind: kind, token: token, environment: .production,
        topic: "com.example.scores", teams: teams, gameId: kind == .apnsLiveActivity ? "game:1" : nil,
        alerts: [.score, .final], registeredAt: "2026-03-01T00:00:00Z", updatedAt: "2026-03-01T00:00:00Z")
    ).device
  }

  struct Rig {
    let registry = MemoryDeviceRegistry()
    let events = Events()
    let now = Now()
    let transport: Recorder
    var configuration = PushDispatcher.Configuration()

    init(_ transport: Recorder = Recorder()) { self.transport = transport }

    var evaluator: PushEvaluator {
      let now = self.now
      return PushEvaluator(log: events, outbox: registry, now: { now() })
    }

    var dispatcher: PushDispatcher {
      let now = self.now
      return PushDispatcher(
        outbox: registry, transports: [transport], configuration: configuration, now: { now() }, random: { 0.5 })
    }
  }

  @Test func eachLiveFollowerGetsTheNewestGoalOnceAndARestartPlansNothingAgain() async throws {
    let rig = Rig()
    let followers = [await Self.register(rig.registry, 1), await Self.register(rig.registry, 2)]
    _ = await Self.register(rig.registry, 3, teams: ["team:725"])  // follows another team
    _ = await Self.register(rig.registry, 4, kind: .fcm)  // no FCM sender configured
    _ = await Self.register(rig.registry, 5, kind: .apnsLiveActivity)  // a Live Activity, not alerts
    let gone = await Self.register(rig.registry, 6)
    _ = await rig.registry.suspendDevice(
      id: gone.id, .init(kind: .disabled, why: "Unregistered", since: "2026-03-02T00:00:00Z"))
    await rig.events.add(.goal, away: 1, home: 0)
    await rig.events.add(.goal, away: 2, home: 0)

    let planned = try await rig.evaluator.evaluatePage()
    #expect(planned == .init(events: 2, queued: 4, ignored: 0, moved: true))
    #expect(try await rig.evaluator.evaluatePage().events == 0, "after a restart the cursor holds: nothing again")

    let batch = try await rig.dispatcher.dispatchBatch()
    #expect(batch.claimed == 2 && batch.delivered == 2, "one slot per device and game: the newer goal replaced")
    #expect(Set(rig.transport.tokens) == Set(followers.map(\.token)))
    #expect(rig.transport.sent.withLock { $0.allSatisfy { $0.body.hasPrefix("GOAL Duke 2") } })
    #expect(batch.latencies.count == 2)
    #expect(try await rig.dispatcher.dispatchBatch().claimed == 0, "sent once")
  }

  @Test func eachVerdictSettlesTheOutboxAsTheMatrixSays() async throws {
    let transport = Recorder([
      Self.token(1): [.suspend(.init(kind: .disabled, why: "APNs 410 Unregistered", since: "2026-03-05T00:00:00Z"))],
      Self.token(2): [.suspend(.init(kind: .quarantined, why: "BadDeviceToken", since: "2026-03-07T19:00:00Z"))],
      Self.token(3): [.retry("APNs 429 TooManyRequests for this device")],
      Self.token(4): [.dropped("PayloadTooLarge")],
    ])
    let rig = Rig(transport)
    let devices = [
      await Self.register(rig.registry, 1), await Self.register(rig.registry, 2), await Self.register(rig.registry, 3),
      await Self.register(rig.registry, 4), await Self.register(rig.registry, 5),
    ]
    await rig.events.add(.goal, away: 1, home: 0)
    _ = try await rig.evaluator.evaluatePage()

    let first = try await rig.dispatcher.dispatchBatch()
    #expect(first.delivered == 1 && first.disabled == 1 && first.quarantined == 1 && first.retried == 1)
    #expect(first.dropped == 1)
    #expect(await rig.registry.device(id: devices[0].id)?.suspended?.kind == .disabled)
    #expect(await rig.registry.device(id: devices[1].id)?.suspended?.why == "BadDeviceToken")
    #expect(await rig.registry.device(id: devices[2].id)?.isLive == true, "a 429 backs off; the device stays")

    // The 429'd one goes again after its backoff (0.75 s here), not before; the rest are done.
    #expect(try await rig.dispatcher.dispatchBatch().claimed == 0)
    rig.now.advance(1)
    let again = try await rig.dispatcher.dispatchBatch()
    #expect(again.claimed == 1 && again.delivered == 1)
    #expect(rig.transport.tokens.filter { $0 == Self.token(3) }.count == 2)

    // The next goal: the disabled and quarantined devices get nothing queued.
    await rig.events.add(.goal, away: 2, home: 0)
    #expect(try await rig.evaluator.evaluatePage().queued == 3)
  }

  @Test func aDeadSendersClaimsPassToTheNextAfterTheLease() async throws {
    let rig = Rig()
    for index in 1...3 { _ = await Self.register(rig.registry, index) }
    await rig.events.add(.goal, away: 1, home: 0)
    _ = try await rig.evaluator.evaluatePage()
    // A worker claims them and dies before sending.
    let held = await rig.registry.claimAlerts(limit: 10, at: rig.now(), leaseUntil: rig.now().addingTimeInterval(60))
    #expect(held.count == 3)
    #expect(try await rig.dispatcher.dispatchBatch().claimed == 0, "held by the dead worker")
    rig.now.advance(60)
    let batch = try await rig.dispatcher.dispatchBatch()
    #expect(batch.delivered == 3 && rig.transport.tokens.count == 3)
  }

  /// Push switched on for a store with events announces none of them; the events after do go.
  @Test func anOutboxThatHasPlannedNothingStartsAtTheEndOfTheLog() async throws {
    let rig = Rig()
    _ = await Self.register(rig.registry, 1)
    for score in 1...3 { await rig.events.add(.goal, away: score, home: 0) }
    #expect(try await rig.evaluator.skipHistory() == 3)
    #expect(try await rig.evaluator.evaluatePage().queued == 0)
    #expect(try await rig.evaluator.skipHistory() == 0, "once: the outbox has a place now")
    await rig.events.add(.goal, away: 4, home: 0)
    #expect(try await rig.evaluator.evaluatePage().queued == 1)
    #expect(await rig.registry.outboxCursor() == .init(sequence: 4))
  }

  /// Two workers switched on together on a fresh store: the first marks the outbox begun, so
  /// the second, starting after the first one's first events, does not take them for history.
  @Test func aWorkerStartingAfterTheFirstEventsOfAFreshStoreAnnouncesThem() async throws {
    let rig = Rig()
    _ = await Self.register(rig.registry, 1)
    #expect(try await rig.evaluator.skipHistory() == 0)
    #expect(await rig.registry.outboxCursor() == .begun)
    for score in 1...2 { await rig.events.add(.goal, away: score, home: 0) }
    let second = rig.evaluator
    #expect(try await second.skipHistory() == 0, "the events after the first start are news")
    #expect(try await second.evaluatePage().queued == 2)
    #expect(await rig.registry.outboxCursor() == .init(sequence: 2))
  }

  /// A batch is held long enough to be sent whole with every request taking its deadline, so a
  /// slow APNs never lets another lane claim it again (and send it twice).
  @Test func aBatchIsLeasedForTheLongestItsSendingCanTakeAndAClaimIsFourRounds() {
    var configuration = PushDispatcher.Configuration()
    #expect(configuration.claimSize == 256)
    #expect(configuration.batchLease == 60, "256 at 64 at once, 10 s each: 45 s, under the 60 s lease")
    configuration.inFlight = 8
    #expect(configuration.claimSize == 32, "four rounds of 8, not 256 (a lease of 325 s would outlive alerts)")
    #expect(configuration.batchLease == 60)
    configuration.requestDeadline = 30
    #expect(configuration.batchLease == 125, "four rounds of 30 s, and 5 s more")
  }

  /// A killed worker repeats only what was answered and not yet written: answers are written
  /// back `settleEvery` (the requests in flight) at a time as they come, not once per batch.
  @Test func answersAreWrittenBackAsTheyComeNotOncePerBatch() async throws {
    let rig = Rig()
    for index in 1...6 { _ = await Self.register(rig.registry, index) }
    await rig.events.add(.goal, away: 1, home: 0)
    _ = try await rig.evaluator.evaluatePage()
    let counting = FailingWrites(rig.registry, failAt: 0)
    var configuration = PushDispatcher.Configuration()
    configuration.inFlight = 2
    let now = rig.now
    let dispatcher = PushDispatcher(
      outbox: counting, transports: [rig.transport], configuration: configuration, now: { now() }, random: { 0 })
    let batch = try await dispatcher.dispatchBatch()
    #expect(batch.claimed == 6 && batch.delivered == 6)
    #expect(await counting.settles == [2, 2, 2])
    #expect(await rig.registry.outboxBacklog(at: now()).pending == 0)
  }

  @Test func anExpiredAlertIsGivenUpNeverSentLate() async throws {
    let rig = Rig()
    _ = await Self.register(rig.registry, 1)
    await rig.events.add(.goal, away: 1, home: 0)
    _ = try await rig.evaluator.evaluatePage()
    rig.now.advance(AlertPlanner.inGameLifetime)
    let batch = try await rig.dispatcher.dispatchBatch()
    #expect(batch.expired == 1 && batch.claimed == 0 && rig.transport.tokens.isEmpty)
  }

  @Test func requestsInFlightStayWithinTheBound() async throws {
    var rig = Rig()
    rig.configuration.inFlight = 3
    for index in 1...20 { _ = await Self.register(rig.registry, index) }
    await rig.events.add(.goal, away: 1, home: 0)
    _ = try await rig.evaluator.evaluatePage()
    // Requests wait in flight: three start, and no fourth while they are out.
    rig.transport.holding.withLock { $0 = true }
    let dispatcher = rig.dispatcher
    let batch = Task { try await dispatcher.dispatchBatch() }
    var spins = 0
    while rig.transport.running.withLock({ $0.now }) < 3 && spins < 100_000 {
      await Task.yield()
      spins += 1
    }
    for _ in 0..<200 { await Task.yield() }
    #expect(rig.transport.running.withLock { $0 } == (3, 3), "three in flight, never a fourth")
    rig.transport.holding.withLock { $0 = false }
    #expect(try await batch.value.delivered == 12, "a claim is four rounds of three")
    #expect(try await dispatcher.dispatchBatch().delivered == 8)
    #expect(rig.transport.running.withLock { $0.most } == 3)
  }

  @Test func followersArePagedAndAlertsWrittenInPiecesWithTheCursor() async throws {
    let rig = Rig()
    for index in 1...25 { _ = await Self.register(rig.registry, index) }
    for score in 1...4 { await rig.events.add(.goal, away: score, home: 0) }
    var configuration = PushEvaluator.Configuration()
    configuration.devicePage = 7
    configuration.alertsPerWrite = 30
    let now = rig.now
    let evaluator = PushEvaluator(log: rig.events, outbox: rig.registry, configuration: configuration, now: { now() })
    let report = try await evaluator.evaluatePage()
    #expect(report.events == 4 && report.queued == 100, "25 followers read 7 at a time, four events")
    #expect(await rig.registry.outboxCursor() == .init(sequence: 4))
    #expect(await rig.registry.outboxBacklog(at: rig.now()).pending == 25)
  }

  /// The store fails the second write of an event's followers (a crash there): what the first
  /// wrote stands with the cursor at the follower it reached, and the next run goes on from it:
  /// every follower once, none twice.
  @Test func aCrashPartWayThroughAnEventsFollowersResumesFromTheFollowerReached() async throws {
    let rig = Rig()
    var devices: [Device] = []
    for index in 1...25 { devices.append(await Self.register(rig.registry, index)) }
    await rig.events.add(.goal, away: 1, home: 0)
    var configuration = PushEvaluator.Configuration()
    configuration.devicePage = 7
    configuration.alertsPerWrite = 10
    let now = rig.now
    let failing = FailingWrites(rig.registry, failAt: 2)
    let crashing = PushEvaluator(log: rig.events, outbox: failing, configuration: configuration, now: { now() })
    await #expect(throws: FailingWrites.Crash.self) { try await crashing.evaluatePage() }
    let sorted = devices.map(\.id).sorted()
    #expect(await rig.registry.outboxCursor() == .init(sequence: 1, device: sorted[13]), "two pages of seven written")
    #expect(await rig.registry.outboxBacklog(at: now()).pending == 14)

    let resumed = PushEvaluator(log: rig.events, outbox: rig.registry, configuration: configuration, now: { now() })
    let report = try await resumed.evaluatePage()
    #expect(report.events == 1 && report.queued == 11 && report.ignored == 0, "the other eleven, none again")
    #expect(await rig.registry.outboxCursor() == .init(sequence: 1))
    #expect(await rig.registry.outboxBacklog(at: now()).pending == 25)
  }

  /// The memory outbox, with its `failAt`-th enqueue failing.
  actor FailingWrites: DeviceRegistry, PushOutbox {
    struct Crash: Error {}
    let base: MemoryDeviceRegistry
    let failAt: Int
    var writes = 0

    init(_ base: MemoryDeviceRegistry, failAt: Int) {
      self.base = base
      self.failAt = failAt
    }

    func enqueueAlerts(
      _ alerts: [QueuedAlert], from: OutboxCursor, to: OutboxCursor, cap: Int, in feed: OutboxFeed
    ) async throws -> OutboxEnqueue {
      writes += 1
      if writes == failAt { throw Crash() }
      return await base.enqueueAlerts(alerts, from: from, to: to, cap: cap, in: feed)
    }
    func outboxCursor(of feed: OutboxFeed) async -> OutboxCursor { await base.outboxCursor(of: feed) }
    func claimAlerts(limit: Int, at now: Date, leaseUntil: Date) async -> [OutboxSlot] {
      await base.claimAlerts(limit: limit, at: now, leaseUntil: leaseUntil)
    }
    /// How many alerts each settle wrote.
    var settles: [Int] = []
    func settleAlerts(_ settlements: [OutboxSettlement], at now: Date) async {
      settles.append(settlements.count)
      await base.settleAlerts(settlements, at: now)
    }
    func dropExpiredAlerts(at now: Date) async -> Int { await base.dropExpiredAlerts(at: now) }
    func outboxBacklog(at now: Date) async -> OutboxBacklog { await base.outboxBacklog(at: now) }
    func upsertDevice(_ device: Device) async -> DeviceUpsert { await base.upsertDevice(device) }
    func device(id: String) async -> Device? { await base.device(id: id) }
    func devices(ids: [String]) async -> [Device] { await base.devices(ids: ids) }
    func deleteDevice(id: String) async -> Bool { await base.deleteDevice(id: id) }
    func devices(following teams: [String], after: String?, limit: Int) async -> [Device] {
      await base.devices(following: teams, after: after, limit: limit)
    }
    func devices(watching gameIds: [String], after: String?, limit: Int) async -> [Device] {
      await base.devices(watching: gameIds, after: after, limit: limit)
    }
    func deviceCounts() async -> [Device.Kind: Int] { await base.deviceCounts() }
    func suspendedCounts() async -> [Device.Suspension.Kind: Int] { await base.suspendedCounts() }
    func suspendedDevices(after: String?, limit: Int) async -> [Device] {
      await base.suspendedDevices(after: after, limit: limit)
    }
    func suspendDevice(id: String, _ suspension: Device.Suspension) async -> Device? {
      await base.suspendDevice(id: id, suspension)
    }
  }
}
