import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// The job's commit in one statement, `statline_commit`: worked out against what the store held
/// when it read, it must write nothing when that changed before the statement ran, and nothing
/// when the lease passed to another worker.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct OneStatementCommitTests {
  static func game(away: Int, home: Int) -> Game {
    Game(
      id: "g:1", sport: .lacrosseMen, status: .live, period: 1, clock: "10:00",
      away: TeamLine(team: TeamRef(id: "t:a", name: "A"), score: away),
      home: TeamLine(team: TeamRef(id: "t:h", name: "H"), score: home))
  }

  /// Works a commit of `batch` out against the store as it is now (the statement's first half).
  static func workedOut(_ batch: Batch, in store: PostgresStore) async throws -> OneStatementCommit {
    let screened = try store.planner.screened(batch)
    return try await store.perform("test") { connection in
      try await store.workedOut(screened, at: Date(), remembered: false, on: connection).0
    }
  }

  static func run(_ commit: OneStatementCommit, lease: Lease?, in store: PostgresStore) async throws
    -> OneStatementCommit.Outcome
  {
    try await store.perform("test") { connection in
      try await commit.call(
        lease: lease, tag: nil, permits: [], at: Date(timeIntervalSince1970: 1_000), on: connection,
        logger: store.logger)
    }
  }

  @Test func aRecordThatChangedAfterTheReadIsNotWrittenOverAndTheRetryDerivesFromTheNewOne() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let other = try await PostgresStore.open(store.location)
      defer { Task { await other.close() } }
      _ = try await store.commit(PollCommit(batch: Batch(games: [Self.game(away: 0, home: 0)]), states: []))

      // This worker reads 0-0 and works out one away goal; another writes 1-0 first.
      let stale = try await Self.workedOut(Batch(games: [Self.game(away: 1, home: 0)]), in: store)
      #expect(
        stale.written == 2 && stale.rows.events.types == [ChangeEvent.Kind.goal.rawValue],
        "the source game and its canonical game")
      _ = try await other.commit(PollCommit(batch: Batch(games: [Self.game(away: 1, home: 1)]), states: []))
      let version = try await store.version()
      let events = try await store.events(since: 0, limit: 100)

      guard case .changedMeanwhile = try await Self.run(stale, lease: nil, in: store) else {
        Issue.record("a commit worked out against 0-0 was written over 1-1")
        return
      }
      #expect(try await store.version() == version, "nothing was written")
      #expect(try await store.events(since: 0, limit: 100) == events, "no event was added")

      // Worked out again, against 1-1: a correction (the home goal went away), not a goal.
      let write = try await store.commit(PollCommit(batch: Batch(games: [Self.game(away: 1, home: 0)]), states: []))
      #expect(write.version == version + 2, "the source game and its canonical game")
      let added = try await store.events(since: events.last?.sequence ?? 0, limit: 100)
      #expect(added.map(\.type) == [.corrected], "\(added.map(\.type))")
      #expect(added.first?.sequence == (events.last?.sequence ?? 0) + 1)
      #expect(added.first?.id == "evt_\((events.last?.sequence ?? 0) + 1)")
      #expect(added.first?.version == version + 2, "the canonical game's version")
    }
  }

  /// A target this worker committed and claimed back untouched is committed against what the
  /// worker remembers, not a read; a game another worker changed meanwhile (through another
  /// target) is still caught, and the events come from the store's copy.
  @Test func aTargetClaimedBackUntouchedCommitsFromMemoryAndStillCatchesAnotherWorkersWrite() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let other = try await PostgresStore.open(store.location)
      defer { Task { await other.close() } }
      let target = Target(url: "http://127.0.0.1:1/g/1.xml", source: "test", parser: "test-game", role: .game)
      var state = TargetState(target: target, nextDue: Date(timeIntervalSince1970: 0))
      try await store.seed(new: [state], changed: [], at: Date(timeIntervalSince1970: 0))
      func claim(_ store: PostgresStore, _ worker: String, at seconds: Double) async throws -> [TargetState] {
        try await store.claim(
          worker: worker, now: Date(timeIntervalSince1970: seconds), limit: 1,
          until: Date(timeIntervalSince1970: seconds + 60))
      }
      func poll(_ store: PostgresStore, _ worker: String, at seconds: Double, _ game: Game) async throws -> StoreWrite?
      {
        state.lastPolled = Date(timeIntervalSince1970: seconds)
        state.nextDue = Date(timeIntervalSince1970: seconds)
        return try await store.commit(
          PollCommit(batch: Batch(games: [game]), states: [state]), lease: Lease(worker: worker, target: state.id))
      }

      #expect(try await claim(store, "a", at: 1).count == 1)
      #expect(!store.committed.withLock { $0.isUntouched(state.id) }, "never committed here")
      _ = try await poll(store, "a", at: 1, Self.game(away: 0, home: 0))
      #expect(try await claim(store, "a", at: 2).count == 1)
      #expect(store.committed.withLock { $0.isUntouched(state.id) }, "claimed back as this worker left it")

      // Another worker stores 1-1 for the same game through another target.
      _ = try await other.commit(PollCommit(batch: Batch(games: [Self.game(away: 1, home: 1)]), states: []))
      let before = try await store.events(since: 0, limit: 100)
      let write = try await poll(store, "a", at: 2, Self.game(away: 1, home: 0))
      #expect(write?.written == 2, "the source game and its canonical game")
      let added = try await store.events(since: before.last?.sequence ?? 0, limit: 100)
      #expect(added.map(\.type) == [.corrected], "derived against 1-1, not the remembered 0-0: \(added.map(\.type))")

      // Once another worker commits the target, it is no longer as this one left it.
      #expect(try await claim(other, "b", at: 3).count == 1)
      _ = try await poll(other, "b", at: 3, Self.game(away: 2, home: 0))
      #expect(try await claim(store, "a", at: 4).count == 1)
      #expect(!store.committed.withLock { $0.isUntouched(state.id) }, "worker b polled it since")
    }
  }

  /// The usual live poll of a target claimed back untouched: its game is alone in its
  /// canonical game, and both are merged from what this worker wrote, without reading them (a
  /// store that changed them meanwhile is covered above); the result is what a read gives.
  @Test func aGameAloneInItsCanonicalGameIsMergedFromMemory() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let target = Target(url: "http://127.0.0.1:1/g/1.xml", source: "test", parser: "test-game", role: .game)
      var state = TargetState(target: target, nextDue: Date(timeIntervalSince1970: 0))
      try await store.seed(new: [state], changed: [], at: Date(timeIntervalSince1970: 0))
      func poll(at seconds: Double, _ game: Game) async throws -> StoreWrite? {
        let claimed = try await store.claim(
          worker: "a", now: Date(timeIntervalSince1970: seconds), limit: 1,
          until: Date(timeIntervalSince1970: seconds + 60))
        #expect(claimed.count == 1)
        state.lastPolled = Date(timeIntervalSince1970: seconds)
        state.nextDue = Date(timeIntervalSince1970: seconds)
        return try await store.commit(
          PollCommit(batch: Batch(games: [game]), states: [state]), lease: Lease(worker: "a", target: state.id))
      }
      _ = try await poll(at: 1, Self.game(away: 0, home: 0))
      let reads = store.canonicalReads.withLock { $0 }
      let before = try await store.events(since: 0, limit: 100)
      let write = try await poll(at: 2, Self.game(away: 1, home: 0))
      #expect(store.canonicalReads.withLock { $0 } == reads, "merged from memory")
      #expect(write?.written == 2, "the source game and its canonical game")
      let added = try await store.events(since: before.last?.sequence ?? 0, limit: 100)
      #expect(added.map(\.type) == [.goal], "\(added.map(\.type))")
      let canonical = try #require(try await store.games(sport: nil, date: nil).first { $0.isCanonical })
      #expect(canonical.away.score == 1 && canonical.sources == ["g:1"] && canonical.liveSource == "g:1")

      // A poll that is not a claim back (no lease) reads, and finds the same.
      _ = try await store.commit(PollCommit(batch: Batch(games: [Self.game(away: 1, home: 1)]), states: []))
      #expect(store.canonicalReads.withLock { $0 } > reads, "read from the store")
      #expect(try await store.games(sport: nil, date: nil).first { $0.isCanonical }?.home.score == 1)
    }
  }

  @Test func aPollWhoseLeasePassedToAnotherWorkerWritesNothing() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let target = Target(url: "http://127.0.0.1:1/g/1.xml", source: "test", parser: "test-game", role: .game)
      let state = TargetState(target: target, nextDue: Date(timeIntervalSince1970: 0))
      try await store.seed(new: [state], changed: [], at: Date(timeIntervalSince1970: 0))
      let claimed = try await store.claim(
        worker: "a", now: Date(timeIntervalSince1970: 1), limit: 1, until: Date(timeIntervalSince1970: 60))
      #expect(claimed.map(\.id) == [state.id])

      let commit = try await Self.workedOut(Batch(games: [Self.game(away: 2, home: 0)]), in: store)
      let lost = try await Self.run(commit, lease: Lease(worker: "b", target: state.id), in: store)
      guard case .leaseLost = lost else {
        Issue.record("worker b wrote through worker a's lease: \(lost)")
        return
      }
      #expect(try await store.version() == 0)
      #expect(try await store.events(since: 0, limit: 10).isEmpty)
      guard
        case .written(let version) = try await Self.run(commit, lease: Lease(worker: "a", target: state.id), in: store)
      else {
        Issue.record("the lease holder's commit was refused")
        return
      }
      #expect(version == 2, "the source game and its canonical game")
      #expect(try await store.events(since: 0, limit: 10).map(\.type) == [.discovered])
    }
  }
}
