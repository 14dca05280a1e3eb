import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A target's state carries the tag of the commit that wrote it (migration 5): a worker that
/// claims back a target it left as it was takes the state from memory instead of decoding it,
/// and any other statement that writes the state (here the configuration's `seed`) clears the tag.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct StateTagTests {
  static let target = Target(
    url: "http://127.0.0.1:1/g/1.xml", source: "test", parser: "test-game", role: .game)

  static func claim(_ store: PostgresStore, _ worker: String, at seconds: Double) async throws -> [TargetState] {
    try await store.claim(
      worker: worker, now: Date(timeIntervalSince1970: seconds), limit: 1,
      until: Date(timeIntervalSince1970: seconds + 60))
  }

  static func poll(_ store: PostgresStore, _ state: TargetState, worker: String) async throws {
    _ = try await store.commit(
      PollCommit(batch: Batch(games: [OneStatementCommitTests.game(away: 0, home: 0)]), states: [state]),
      lease: Lease(worker: worker, target: state.id))
  }

  @Test func aStateClaimedBackFromMemoryIsTheStoredOne() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      var state = TargetState(target: Self.target, nextDue: Date(timeIntervalSince1970: 0))
      try await store.seed(new: [state], changed: [], at: Date(timeIntervalSince1970: 0))
      _ = try await Self.claim(store, "a", at: 1)
      state.lastPolled = Date(timeIntervalSince1970: 1.25)
      state.lastSucceeded = Date(timeIntervalSince1970: 1.5)
      state.nextDue = Date(timeIntervalSince1970: 2.125)
      state.etag = "\"v7\""
      state.lastModified = "Tue, 24 Nov 2026 18:00:00 GMT"
      state.bodyHash = 0xFEED_FACE_CAFE_BEEF
      state.consecutiveFailures = 0
      try await Self.poll(store, state, worker: "a")

      let claimed = try await Self.claim(store, "a", at: 3)
      #expect(store.committed.withLock { $0.isUntouched(state.id) }, "taken from memory")
      let stored = try await store.targets()
      #expect(claimed == stored, "the remembered state is the one a read decodes")
      #expect(claimed == [state])
    }
  }

  @Test func anyOtherWriteOfTheStateClearsTheTag() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let other = try await PostgresStore.open(store.location)
      defer { Task { await other.close() } }
      var state = TargetState(target: Self.target, nextDue: Date(timeIntervalSince1970: 0))
      try await store.seed(new: [state], changed: [], at: Date(timeIntervalSince1970: 0))
      _ = try await Self.claim(store, "a", at: 1)
      state.lastPolled = Date(timeIntervalSince1970: 1)
      state.nextDue = Date(timeIntervalSince1970: 2)
      try await Self.poll(store, state, worker: "a")

      // The configuration changes the target while nobody holds it (another process's seed).
      var changed = state
      changed.cadence = 5
      try await other.seed(new: [], changed: [changed], at: Date(timeIntervalSince1970: 2))

      let claimed = try await Self.claim(store, "a", at: 3)
      #expect(!store.committed.withLock { $0.isUntouched(state.id) }, "the tag is gone")
      #expect(claimed.map(\.cadence) == [5], "decoded, not remembered")
    }
  }
}
