import Foundation
import PostgresNIO
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A PostgreSQL store that lost a table is reported as damaged, naming it, by run's open, migrate
/// and serve's read-only open (it said "schema version 5" and failed later with bare SQL).
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped)) struct DamagedPostgresStoreTests {
  @Test func theMigrationsCreateTheTablesTheCheckExpects() {
    #expect(PostgresStore.expectedTables.isSuperset(of: ["games", "plays", "targets", "events", "dead_letters"]))
  }

  @Test func aDroppedTableIsReportedAsDamageEverywhereTheStoreOpens() async throws {
    let location = try TestPostgres.freshLocation()
    let store = try await PostgresStore.open(location)
    let schema = location.schema
    try await store.perform("drop a table") { connection in
      try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE \(schema).plays"), logger: Logger(label: "test"))
    }
    await store.close()
    defer {
      Task {
        if let cleanup = try? await PostgresStore.open(location, migrate: false) {
          try? await cleanup.dropSchema()
          await cleanup.close()
        }
      }
    }
    for open in [
      { _ = try await PostgresStore.open(location) }, { _ = try await PostgresStore.openReadOnly(location) },
    ] as [() async throws -> Void] {
      do {
        try await open()
        Issue.record("a damaged store must be refused")
      } catch let error as StatlineError {
        #expect(error.kind == .store && error.reason.contains("the store is damaged"), "\(error)")
        #expect(error.reason.contains("lacks table plays"), "\(error)")
      }
    }
    let url =
      TestPostgres.url!.contains("?")
      ? TestPostgres.url! + "&schema=\(schema)" : TestPostgres.url! + "?schema=\(schema)"
    let migrate = try CommandRunner.run(["migrate", "--store", url])
    #expect(migrate.status != 0 && migrate.stderr.contains("lacks table plays"), "\(migrate.stderr)")
  }
}
