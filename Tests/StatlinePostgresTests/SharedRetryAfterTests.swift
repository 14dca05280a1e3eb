import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A `Retry-After` pauses a host for the whole cluster, and only as long as the retry policy's
/// cap, as it does for one process: a site that asks for ten years does not silence its host for
/// every worker until 2036.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct SharedRetryAfterTests {
  @Test func aTenYearRetryAfterPausesTheClusterForThePolicysCapOnly() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let url = "http://stats.test/teams/1"
      let fetcher = ScriptedFetcher([
        url: [.page(status: 429, headers: ["Retry-After": "315360000"]), .ok("<html>ok</html>")]
      ])
      var configuration = PoliteFetcher<ContinuousClock>.Configuration()
      configuration.obeyRobots = false
      configuration.retry.cap = .milliseconds(20)
      let polite = PoliteFetcher(
        wrapping: fetcher, clock: ContinuousClock(), configuration: configuration,
        shared: SharedManners(ledger: store, holder: "w1"))
      let asked = Date()
      let page = try await polite.fetch(FetchRequest(url: url))
      #expect(page.status == 200, "asked again after the cap")
      let nextStart = try await store.perform("test") { connection in
        try await connection.query("SELECT next_start FROM host_slots WHERE host = 'stats.test'", logger: store.logger)
          .collect().first?.decode(Double.self)
      }
      let pausedUntil = try #require(nextStart)
      #expect(pausedUntil < asked.timeIntervalSince1970 + 60, "paused \(pausedUntil - asked.timeIntervalSince1970) s")
    }
  }
}
