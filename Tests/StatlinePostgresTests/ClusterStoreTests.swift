import Foundation
import StatlineCore
import StatlinePostgres
import StatlineTesting
import Testing

/// What N workers sharing one PostgreSQL store rely on: exclusive claims, leases that lapse, the
/// commit fence, one target per discovered game, cluster-wide host slots, one holder per sink.
/// Each worker is its own `PostgresStore` (its own pool), as on its own machine.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct ClusterStoreTests {
  static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

  static func target(_ n: Int, due: Date?) -> TargetState {
    TargetState(
      target: Target(url: "https://stats.example.edu/game/\(n).xml", source: "s", parser: "p", role: .game),
      nextDue: due, gameId: "g:\(n)")
  }

  /// The same schema opened `count` times.
  static func workers(_ make: () async throws -> PostgresStore, count: Int) async throws -> [PostgresStore] {
    let first = try await make()
    var stores = [first]
    for _ in 1..<count { stores.append(try await PostgresStore.open(first.location)) }
    return stores
  }

  static func close(_ stores: [PostgresStore]) async { for store in stores.dropFirst() { await store.close() } }

  /// Two workers on one schema, and one target due at `t0`, seeded.
  static func twoWorkersAndATarget(_ make: () async throws -> PostgresStore) async throws -> (
    [PostgresStore], TargetState
  ) {
    let stores = try await workers(make, count: 2)
    let state = target(1, due: t0)
    try await stores[0].seed(new: [state], changed: [], at: t0)
    return (stores, state)
  }

  /// The ids `worker` claims at `time`, each leased for a minute.
  static func claim(_ store: PostgresStore, _ worker: String, at time: Date, limit: Int) async throws -> Set<String> {
    Set(try await store.claim(worker: worker, now: time, limit: limit, until: time.addingTimeInterval(60)).map(\.id))
  }

  @Test func concurrentClaimsNeverShareATargetAndTakeOnlyDueUnleasedOnes() async throws {
    try await TestPostgres.withStores { make in
      let stores = try await Self.workers(make, count: 3)
      let due = (0..<60).map { Self.target($0, due: Self.t0) }
      let later = (60..<70).map { Self.target($0, due: Self.t0.addingTimeInterval(30)) }
      try await stores[0].seed(new: due + later, changed: [], at: Self.t0)
      let claims = try await withThrowingTaskGroup(of: (Int, [String]).self) { group in
        for (index, store) in stores.enumerated() {
          group.addTask {
            var mine: [String] = []
            for _ in 0..<5 {
              mine += try await store.claim(
                worker: "w\(index)", now: Self.t0, limit: 7, until: Self.t0.addingTimeInterval(60)
              ).map(\.id)
            }
            return (index, mine)
          }
        }
        var all: [Int: [String]] = [:]
        for try await (index, ids) in group { all[index] = ids }
        return all
      }
      let claimed = claims.values.flatMap { $0 }
      #expect(claimed.count == 60, "every due target claimed")
      #expect(Set(claimed).count == claimed.count, "no target claimed twice")
      #expect(Set(claimed) == Set(due.map(\.id)), "only due ones")
      #expect(claims.values.allSatisfy { !$0.isEmpty }, "the work is shared: \(claims.mapValues(\.count))")
      // Nothing left while the leases hold; everything once they lapse.
      #expect(try await stores[1].claim(worker: "w1", now: Self.t0, limit: 100, until: Self.t0).isEmpty)
      let lapsed = Self.t0.addingTimeInterval(61)
      #expect(try await stores[1].claim(worker: "w1", now: lapsed, limit: 100, until: lapsed).count == 70)
      await Self.close(stores)
    }
  }

  /// Migration 9: a target due again waits `claimAffinity` for the worker that claimed it last
  /// (whose memory holds its records), then goes to whoever asks; a target nobody claimed yet is
  /// anyone's at once.
  @Test func aDueTargetWaitsBrieflyForTheWorkerThatClaimedItLast() async throws {
    try await TestPostgres.withStores { make in
      let stores = try await Self.workers(make, count: 2)
      let (a, b) = (stores[0], stores[1])
      let grace = PostgresStore.claimAffinity
      var states = (0..<4).map { Self.target($0, due: Self.t0) }
      try await a.seed(new: states, changed: [], at: Self.t0)
      let first = try await Self.claim(a, "a", at: Self.t0, limit: 2)
      #expect(try await Self.claim(b, "b", at: Self.t0, limit: 2).count == 2)
      // Each worker polls its two and gives them back, due again at t0 + 30.
      let due = Self.t0.addingTimeInterval(30)
      for (store, worker) in [(a, "a"), (b, "b")] {
        let held = worker == "a" ? first : Set(states.map(\.id)).subtracting(first)
        for index in states.indices where held.contains(states[index].id) {
          states[index].nextDue = due
          states[index].outcome = .unchanged
          let write = try await store.commit(
            PollCommit(batch: nil, states: [states[index]]), lease: Lease(worker: worker, target: states[index].id))
          #expect(write != nil)
        }
      }
      // b asks first, at the due time: it gets its own two, not a's.
      let bTakes = try await Self.claim(b, "b", at: due.addingTimeInterval(grace / 2), limit: 4)
      #expect(bTakes == Set(states.map(\.id)).subtracting(first), "only b's own")
      // Past the grace a's are anyone's: b takes them when a did not come.
      #expect(
        try await Self.claim(b, "b", at: due.addingTimeInterval(grace), limit: 4) == first, "a's, after the grace")
      await Self.close(stores)
    }
  }

  /// A worker that stops gives its targets up at once: none waits out the grace for it.
  @Test func aStoppedWorkerHoldsNothingBack() async throws {
    try await TestPostgres.withStores { make in
      var (stores, state) = try await Self.twoWorkersAndATarget(make)
      let (a, b) = (stores[0], stores[1])
      #expect(try await Self.claim(a, "a", at: Self.t0, limit: 1) == [state.id])
      (state.nextDue, state.outcome) = (Self.t0.addingTimeInterval(30), .unchanged)
      _ = try await a.commit(PollCommit(batch: nil, states: [state]), lease: Lease(worker: "a", target: state.id))
      #expect(try await Self.claim(b, "b", at: state.nextDue!, limit: 1).isEmpty, "a's, within the grace")
      try await a.release(worker: "a", at: state.nextDue!)
      #expect(try await Self.claim(b, "b", at: state.nextDue!, limit: 1) == [state.id], "anyone's once a stopped")
      await Self.close(stores)
    }
  }

  @Test func aWorkerThatLostItsLeaseWritesNothingAndTheNewHolderCommits() async throws {
    try await TestPostgres.withStores { make in
      var (stores, state) = try await Self.twoWorkersAndATarget(make)
      let (dead, alive) = (stores[0], stores[1])
      #expect(
        try await dead.claim(worker: "dead", now: Self.t0, limit: 1, until: Self.t0.addingTimeInterval(10)).count == 1)
      // Renewal keeps it; the lease lapses only when the renewals stop.
      #expect(
        try await dead.renew(worker: "dead", targets: [state.id], until: Self.t0.addingTimeInterval(20)) == [state.id])
      #expect(
        try await alive.claim(worker: "alive", now: Self.t0.addingTimeInterval(15), limit: 1, until: Self.t0).isEmpty)
      let later = Self.t0.addingTimeInterval(25)
      let taken = try await alive.claim(worker: "alive", now: later, limit: 1, until: later.addingTimeInterval(10))
      #expect(taken.map(\.id) == [state.id], "the lapsed lease passes to another worker")

      var game = Game(
        id: "g:1", sport: .lacrosseMen, status: .live, period: 2,
        away: TeamLine(team: TeamRef(id: "t:1", name: "Army"), score: 1),
        home: TeamLine(team: TeamRef(id: "t:2", name: "Navy"), score: 0))
      state.lastPolled = later
      state.outcome = .stored
      state.nextDue = later.addingTimeInterval(30)
      state.games = [game]
      let stale = try await dead.commit(
        PollCommit(batch: Batch(games: [game]), states: [state]), lease: Lease(worker: "dead", target: state.id))
      #expect(stale == nil, "the fence refuses the old holder")
      #expect(try await dead.changes(since: 0, limit: 10).isEmpty, "and nothing of its poll was written")
      #expect(
        try await !dead.touch(
          state.id, succeededAt: later, nextDue: nil, lease: Lease(worker: "dead", target: state.id)))

      game.away.score = 2
      state.games = [game]
      let discovered = Self.target(2, due: later)
      let write = try await alive.commit(
        PollCommit(batch: Batch(games: [game]), states: [state, discovered]),
        lease: Lease(worker: "alive", target: state.id))
      #expect(write?.written == 2, "the source game and its canonical game")
      let stored = try await alive.targets()
      #expect(stored.first { $0.id == state.id }?.nextDue == later.addingTimeInterval(30))
      #expect(stored.count == 2, "the discovered target was added")
      // The commit gave the lease back: due again at its next time, for anyone.
      let next = later.addingTimeInterval(31)
      #expect(
        try await dead.claim(worker: "dead", now: next, limit: 5, until: next).map(\.id).sorted() == [
          state.id, discovered.id,
        ])
      await Self.close(stores)
    }
  }

  @Test func aGameDiscoveredByTwoWorkersIsOneTargetAndSeedingNeverClobbers() async throws {
    try await TestPostgres.withStores { make in
      let stores = try await Self.workers(make, count: 2)
      var polled = Self.target(5, due: Self.t0)
      try await stores[0].seed(new: [polled], changed: [], at: Self.t0)
      _ = try await stores[0].claim(worker: "a", now: Self.t0, limit: 1, until: Self.t0.addingTimeInterval(60))
      polled.outcome = .unchanged
      polled.lastSucceeded = Self.t0
      polled.nextDue = Self.t0.addingTimeInterval(30)
      _ = try await stores[0].commit(
        PollCommit(batch: nil, states: [polled]), lease: Lease(worker: "a", target: polled.id))
      // A second worker starting with a stale view of that target, and both discovering game 9.
      try await stores[1].seed(
        new: [Self.target(5, due: Self.t0), Self.target(9, due: Self.t0)], changed: [], at: Self.t0)
      try await stores[0].seed(new: [Self.target(9, due: Self.t0.addingTimeInterval(1))], changed: [], at: Self.t0)
      let targets = try await stores[1].targets()
      #expect(targets.map(\.id) == [polled.id, Self.target(9, due: nil).id], "one target per game")
      #expect(targets.first?.lastSucceeded == Self.t0, "a worker's start-up never overwrites a polled state")
      await Self.close(stores)
    }
  }

  @Test func workersHeartbeatAndAGracefulStopGivesEveryLeaseBack() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let worker = WorkerInfo(id: "w1", host: "box-1", pid: 42, started: Self.t0, heartbeat: Self.t0)
      try await store.heartbeat(worker, at: Self.t0)
      try await store.seed(new: (0..<4).map { Self.target($0, due: Self.t0) }, changed: [], at: Self.t0)
      let claimed = try await store.claim(
        worker: "w1", now: Self.t0, limit: 3, until: Self.t0.addingTimeInterval(60))
      try await store.heartbeat(worker, at: Self.t0.addingTimeInterval(15))
      let listed = try await store.workers(at: Self.t0.addingTimeInterval(16))
      #expect(listed.map(\.id) == ["w1"] && listed.first?.leases == 3 && listed.first?.host == "box-1")
      #expect(listed.first?.heartbeat == Self.t0.addingTimeInterval(15))
      // One poll was in flight: it is deferred; a target the worker does not hold is not touched.
      let inFlight = try #require(claimed.first).id
      let unheld = try #require(try await store.targets().map(\.id).first { id in !claimed.contains { $0.id == id } })
      try await store.release(
        worker: "w1", at: Self.t0.addingTimeInterval(20),
        cutShort: [inFlight: Self.t0.addingTimeInterval(50), unheld: Self.t0.addingTimeInterval(50)])
      let after = try await store.workers(at: Self.t0.addingTimeInterval(21))
      #expect(after.first?.leases == 0 && after.first?.stopped == Self.t0.addingTimeInterval(20))
      let taken = try await store.claim(worker: "w2", now: Self.t0.addingTimeInterval(21), limit: 10, until: Self.t0)
      #expect(taken.count == 3, "released at once, not at expiry")
      #expect(!taken.contains { $0.id == inFlight }, "the poll cut short is not asked again at once")
      let deferred = try await store.targets().first { $0.id == inFlight }
      #expect(deferred?.nextDue == Self.t0.addingTimeInterval(50))
    }
  }

  @Test func hostSlotsKeepTheSpacingAndConcurrencyAcrossWorkers() async throws {
    try await TestPostgres.withStores { make in
      let stores = try await Self.workers(make, count: 3)
      let starts = try await withThrowingTaskGroup(of: [HostSlot].self) { group in
        for (index, store) in stores.enumerated() {
          group.addTask {
            var slots: [HostSlot] = []
            for _ in 0..<4 {
              let slot = try await store.reserve(
                host: "stats.ncaa.org", concurrency: 12, spacing: 5, holder: "w\(index)", now: Self.t0,
                expiry: Self.t0.addingTimeInterval(60))
              slots.append(slot)
            }
            return slots
          }
        }
        var all: [HostSlot] = []
        for try await slots in group { all += slots }
        return all
      }
      let times = starts.map(\.start).sorted()
      #expect(starts.allSatisfy { $0.id != nil })
      #expect(
        zip(times, times.dropFirst()).allSatisfy { $1.timeIntervalSince($0) >= 5 },
        "one request per 5 s for the cluster, not per worker")
      #expect(times.first == Self.t0 && times.last == Self.t0.addingTimeInterval(55))
      // Concurrency: twelve slots are out; the thirteenth waits until one is given back.
      let refused = try await stores[0].reserve(
        host: "stats.ncaa.org", concurrency: 12, spacing: 5, holder: "w0", now: Self.t0, expiry: Self.t0)
      #expect(refused.id == nil)
      try await stores[1].finish(starts[0])
      #expect(
        try await stores[0].reserve(
          host: "stats.ncaa.org", concurrency: 12, spacing: 5, holder: "w0", now: Self.t0, expiry: Self.t0
        ).id != nil)
      // A Retry-After holds every worker off.
      try await stores[2].pause(host: "example.edu", until: Self.t0.addingTimeInterval(120))
      let paused = try await stores[0].reserve(
        host: "example.edu", concurrency: 2, spacing: 0, holder: "w0", now: Self.t0, expiry: Self.t0)
      #expect(paused.start == Self.t0.addingTimeInterval(120))
      await Self.close(stores)
    }
  }

  @Test func theBreakerRobotsAndSinkLeasesAreShared() async throws {
    try await TestPostgres.withStores { make in
      let stores = try await Self.workers(make, count: 2)
      for store in stores + stores {
        _ = try await store.recordOutcome(host: "h", success: false, threshold: 3, cooldown: 30, now: Self.t0)
      }
      let slot = try await stores[0].reserve(
        host: "h", concurrency: 2, spacing: 0, holder: "w0", now: Self.t0, expiry: Self.t0)
      #expect(slot.breaker?.breaker == .open && slot.breaker?.openUntil == Self.t0.addingTimeInterval(30))
      #expect(slot.breaker?.failures == 4, "failures from both workers count")
      _ = try await stores[1].recordOutcome(host: "h", success: true, threshold: 3, cooldown: 30, now: Self.t0)
      #expect(try await stores[0].hosts().first?.breaker == .closed)

      let robots = SharedRobots(
        origin: "https://stats.ncaa.org", status: 200, body: Data("User-agent: *\nDisallow: /x\n".utf8),
        fetchedAt: Self.t0)
      try await stores[0].keepRobots(robots)
      #expect(try await stores[1].robots(origin: robots.origin, since: Self.t0.addingTimeInterval(-60)) == robots)
      #expect(try await stores[1].robots(origin: robots.origin, since: Self.t0.addingTimeInterval(1)) == nil)

      let until = Self.t0.addingTimeInterval(30)
      #expect(try await stores[0].holdSink("hook", holder: "w0", now: Self.t0, until: until))
      #expect(try await !stores[1].holdSink("hook", holder: "w1", now: Self.t0.addingTimeInterval(10), until: until))
      #expect(try await stores[0].holdSink("hook", holder: "w0", now: Self.t0.addingTimeInterval(10), until: until))
      #expect(
        try await stores[1].holdSink("hook", holder: "w1", now: Self.t0.addingTimeInterval(31), until: until),
        "a holder that stopped renewing loses the sink")
      try await stores[1].releaseSinks(holder: "w1")
      #expect(try await stores[0].holdSink("hook", holder: "w0", now: Self.t0.addingTimeInterval(32), until: until))
      // A cursor never moves back (a lapsed holder finishing late).
      try await stores[0].setCursor(9, of: "hook")
      try await stores[1].setCursor(4, of: "hook")
      #expect(try await stores[0].cursor(of: "hook") == 9)
      await Self.close(stores)
    }
  }
}
