import Foundation
import StatlineCore
import StatlinePostgres
import StatlineTesting
import Testing

@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct PostgresStoreTests {
  @Test func passesEveryStoreContract() async throws {
    try await TestPostgres.withStores { make in
      try await StoreContract.check(make)
      try await ScheduleStoreContract.check(make)
      try await EventLogContract.check(make)
      try await CanonicalStoreContract.check(make)
      try await StoreReaderContract.check(make)
      try await CaptureLogContract.check(make)
      try await RankingStoreContract.check(make)
      try await DeviceRegistryContract.check(make)
      try await PushOutboxContract.check(make)
      try await LogoStoreContract.check(make)
    }
  }
}

@Suite struct PostgresInCITests {
  @Test func continuousIntegrationRunsThePostgreSQLTests() {
    guard ProcessInfo.processInfo.environment["CI"] != nil else { return }
    #expect(TestPostgres.available, "CI must start PostgreSQL and set STATLINE_TEST_POSTGRES")
  }
}
