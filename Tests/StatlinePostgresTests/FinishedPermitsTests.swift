import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A request slot given back with `finishLater` is deleted by the worker's next statement (a
/// reserve or a poll's commit), or when the store closes; until then the other workers still
/// count it.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct FinishedPermitsTests {
  static let t0 = Date(timeIntervalSince1970: 1_000)

  static func reserve(_ store: PostgresStore, _ holder: String) async throws -> HostSlot {
    try await store.reserve(
      host: "stats.ncaa.org", concurrency: 1, spacing: 0, holder: holder, now: t0, expiry: t0.addingTimeInterval(60))
  }

  @Test func aFinishedSlotGoesWithTheWorkersNextReserve() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let slot = try await Self.reserve(store, "a")
      #expect(slot.id != nil)
      try await store.finishLater(slot)
      #expect(try await Self.reserve(store, "a").id != nil, "its own next reserve gives the first slot back first")
    }
  }

  @Test func aFinishedSlotGoesWithTheWorkersNextCommit() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let other = try await PostgresStore.open(store.location)
      defer { Task { await other.close() } }
      let slot = try await Self.reserve(store, "a")
      try await store.finishLater(slot)
      #expect(try await Self.reserve(other, "b").id == nil, "held until the worker's next statement")
      _ = try await store.commit(
        PollCommit(batch: Batch(games: [OneStatementCommitTests.game(away: 0, home: 0)]), states: []))
      #expect(try await Self.reserve(other, "b").id != nil, "given back with the commit")
    }
  }

  @Test func aFinishedSlotGoesWhenTheStoreCloses() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let worker = try await PostgresStore.open(store.location)
      try await worker.finishLater(try await Self.reserve(worker, "a"))
      await worker.close()
      #expect(try await Self.reserve(store, "b").id != nil)
    }
  }
}
