import Foundation
import PostgresNIO
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A PostgreSQL store from before canonical games (before migration 6) gets them when a worker
/// migrates it, without events, and a delta-sync cursor from before must resync.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct CanonicalMigrationTests {
  @Test func aStoreFromBeforeCanonicalGamesGetsThemAndOldCursorsMustResync() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let game = Game(
        id: "ncaa:1", sport: .lacrosseMen, status: .final, date: "2025-02-01",
        away: TeamLine(team: TeamRef(name: "Air Force"), score: 8),
        home: TeamLine(team: TeamRef(name: "Lafayette"), score: 11))
      _ = try await store.write(Batch(games: [game]))
      // Back to migration 5, as a Statline before canonical games left it.
      try await store.perform("test") { connection in
        for statement in [
          "DELETE FROM games WHERE starts_with(id, 'game:')", "DELETE FROM events",
          "UPDATE games SET json = json - 'canonicalId', version = 1", "UPDATE store_version SET version = 1",
          "ALTER TABLE store_version DROP COLUMN resync_below", "ALTER TABLE store_version DROP COLUMN canonical_ids",
          "DROP TABLE rankings", "ALTER TABLE targets DROP COLUMN last_claimant", "DROP TABLE host_pauses",
          "DELETE FROM statline_migrations WHERE version >= 6",
        ] {
          try await connection.query(PostgresQuery(unsafeSQL: statement), logger: store.logger)
        }
      }
      let migrated = try await PostgresStore.open(store.location)
      defer { Task { await migrated.close() } }
      let canonical = "game:2025-02-01:lacrosse-men:342~721"
      #expect(try await migrated.game(id: "ncaa:1")?.id == canonical)
      #expect(try await migrated.sourceGame(id: "ncaa:1")?.canonicalId == canonical)
      #expect(try await migrated.events(since: 0, limit: 10).isEmpty, "no events for what happened before")
      await #expect(throws: StoreResync.self) { try await migrated.changes(since: 1, limit: 10) }
      #expect(try await migrated.changes(since: 0, limit: 10).map(\.id) == [canonical])
      let version = try await migrated.version()
      _ = try await migrated.migrate()
      #expect(try await migrated.version() == version, "the next migration has nothing to assign")
    }
  }
}
