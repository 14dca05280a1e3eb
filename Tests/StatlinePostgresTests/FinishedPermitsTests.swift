import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A request slot given back with `finishLater` is deleted by the worker's next statement (a
/// reserve or a poll's commit), or when the store closes; until then the other workers still
/// count it. The worker here waits a minute before its timer would delete the slot, so only
/// the statements can have given it back.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct FinishedPermitsTests {
  static let t0 = Date(timeIntervalSince1970: 1_000)

  static func reserve(_ store: PostgresStore, _ holder: String) async throws -> HostSlot {
    try await store.reserve(
      host: "stats.ncaa.org", concurrency: 1, spacing: 0, holder: holder, now: t0, expiry: t0.addingTimeInterval(60))
  }

  static func worker(_ location: PostgresLocation) async throws -> PostgresStore {
    try await PostgresStore.open(location, lateFinish: .seconds(60))
  }

  @Test func aFinishedSlotGoesWithTheWorkersNextReserve() async throws {
    try await TestPostgres.withStores { make in
      let other = try await make()
      let worker = try await Self.worker(other.location)
      defer { Task { await worker.close() } }
      let slot = try await Self.reserve(worker, "a")
      #expect(slot.id != nil)
      try await worker.finishLater(slot)
      #expect(try await Self.reserve(other, "b").id == nil, "held until the worker's next statement")
      #expect(try await Self.reserve(worker, "a").id != nil, "its own next reserve gives the first slot back first")
    }
  }

  @Test func aFinishedSlotGoesWithTheWorkersNextCommit() async throws {
    try await TestPostgres.withStores { make in
      let other = try await make()
      let worker = try await Self.worker(other.location)
      defer { Task { await worker.close() } }
      try await worker.finishLater(try await Self.reserve(worker, "a"))
      #expect(try await Self.reserve(other, "b").id == nil, "held until the worker's next statement")
      _ = try await worker.commit(
        PollCommit(batch: Batch(games: [OneStatementCommitTests.game(away: 0, home: 0)]), states: []))
      #expect(try await Self.reserve(other, "b").id != nil, "given back with the commit")
    }
  }

  @Test func aFinishedSlotGoesWhenTheStoreCloses() async throws {
    try await TestPostgres.withStores { make in
      let other = try await make()
      let worker = try await Self.worker(other.location)
      try await worker.finishLater(try await Self.reserve(worker, "a"))
      #expect(try await Self.reserve(other, "b").id == nil)
      await worker.close()
      #expect(try await Self.reserve(other, "b").id != nil)
    }
  }
}
