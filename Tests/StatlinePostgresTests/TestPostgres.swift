import Foundation
import StatlineCore
import StatlinePostgres
import StatlineTesting
import Testing

/// The PostgreSQL server the tests use: `STATLINE_TEST_POSTGRES` (a URL; `.ci/run` starts one
/// and sets it). Without it the PostgreSQL tests are skipped, and say so; under CI they must run.
public enum TestPostgres {
  public static let url = ProcessInfo.processInfo.environment["STATLINE_TEST_POSTGRES"].flatMap {
    $0.isEmpty ? nil : $0
  }

  /// True when a server was named.
  public static var available: Bool { url != nil }

  /// Why a PostgreSQL test did not run.
  public static let skipped: Comment =
    "skipped: no PostgreSQL server; set STATLINE_TEST_POSTGRES=postgres://user:password@127.0.0.1:5432/db"

  /// A location in a schema of its own (`t_…`), so every store starts empty and tests run side by side.
  public static func freshLocation() throws -> PostgresLocation {
    guard let url else { throw StatlineError(.configuration, "STATLINE_TEST_POSTGRES is not set") }
    var location = try PostgresLocation(url: url)
    location.schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
    return location
  }

  /// Runs `body` with a factory of empty stores, each in its own schema; drops every schema
  /// and closes every store afterwards, however `body` ends.
  public static func withStores<R>(
    _ body: (_ make: () async throws -> PostgresStore) async throws -> R
  ) async throws -> R {
    let made = Made()
    do {
      let result = try await body {
        let store = try await PostgresStore.open(try freshLocation(), planner: TestFeeds.planner)
        await made.add(store)
        return store
      }
      await made.dropAll()
      return result
    } catch {
      await made.dropAll()
      throw error
    }
  }

  private actor Made {
    var stores: [PostgresStore] = []
    func add(_ store: PostgresStore) { stores.append(store) }
    func dropAll() async {
      for store in stores {
        try? await store.dropSchema()
        await store.close()
      }
      stores = []
    }
  }
}
