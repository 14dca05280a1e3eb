import Foundation
import StatlineCore
import StatlineServer
import StatlineTesting
import Testing

@testable import StatlinePostgres

/// A host the cluster holds back after its site's `Retry-After` is visible with when the pause
/// ends (`statline status`, `/v1/status`, `/metrics`), an operator can lift it
/// (`statline hosts resume`), and a pause written before the cap (ten years) is cut by the
/// migration.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(1)))
struct HostPauseTests {
  static func url(_ store: PostgresStore) -> String {
    let url = TestPostgres.url!
    return url + (url.contains("?") ? "&" : "?") + "schema=\(store.location.schema)"
  }

  static func nextStart(_ store: PostgresStore, _ host: String) async throws -> Double? {
    try await store.perform("test") { connection in
      try await connection.query("SELECT next_start FROM host_slots WHERE host = \(host)", logger: store.logger)
        .collect().first?.decode(Double.self)
    }
  }

  @Test func aPausedHostIsShownAndAnOperatorLiftsIt() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let until = Date().addingTimeInterval(25)
      try await store.pause(host: "stats.test", until: until)
      let paused = try #require(try await store.hosts().first { $0.host == "stats.test" })
      #expect(abs((paused.pausedUntil?.timeIntervalSince1970 ?? 0) - until.timeIntervalSince1970) < 0.01)

      let api = ReadAPI(reader: store)
      let status = await api.respond(APIRequest(method: "GET", path: "/v1/status"))
      let json = try #require(try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
      let shown = try #require((json["pausedHosts"] as? [[String: Any]])?.first)
      #expect(shown["host"] as? String == "stats.test" && (shown["until"] as? String)?.isEmpty == false)
      let metrics = await ReadAPI(reader: store, metrics: ServerMetrics()).respond(
        APIRequest(method: "GET", path: "/metrics"))
      #expect(String(decoding: metrics.body, as: UTF8.self).contains("statline_paused_hosts 1"))
      let listed = try CommandRunner.run(["status", "--store", Self.url(store)])
      #expect(listed.stdout.contains("statline hosts resume stats.test"), "\(listed.stdout)\(listed.stderr)")

      let resumed = try CommandRunner.run(["hosts", "resume", "stats.test", "--store", Self.url(store)])
      #expect(resumed.status == 0 && resumed.stdout.contains("pause lifted"), "\(resumed.stdout)\(resumed.stderr)")
      #expect(try await store.hosts().first { $0.host == "stats.test" }?.pausedUntil == nil)
      #expect(try #require(try await Self.nextStart(store, "stats.test")) <= Date().timeIntervalSince1970)
      let again = try CommandRunner.run(["hosts", "resume", "stats.test", "--store", Self.url(store)])
      #expect(again.status == 0 && again.stdout.contains("not paused"), "\(again.stdout)")
    }
  }

  /// A store whose host was paused until 2036 before the cap: the migration cuts it to 30 s.
  @Test func aPauseFromBeforeTheCapIsCutByTheMigration() async throws {
    try await TestPostgres.withStores { make in
      let store = try await make()
      let far = Date().addingTimeInterval(10 * 365 * 86_400).timeIntervalSince1970
      try await store.perform("test") { connection in
        try await connection.query(
          "INSERT INTO host_slots (host, next_start) VALUES ('stats.test', \(far))", logger: store.logger)
        try await connection.query("DROP TABLE host_pauses", logger: store.logger)
        try await connection.query("DELETE FROM statline_migrations WHERE version >= 10", logger: store.logger)
      }
      let reopened = try await PostgresStore.open(store.location)
      defer { Task { await reopened.close() } }
      let next = try #require(try await Self.nextStart(reopened, "stats.test"))
      #expect(next <= Date().timeIntervalSince1970 + 31, "paused \(next - Date().timeIntervalSince1970) s")
    }
  }
}
