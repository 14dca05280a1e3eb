import Foundation
import StatlineCore
import StatlinePostgres

/// A schema of its own for a benchmark on PostgreSQL (`bench_…`), dropped when it is done.
struct BenchSchema: Sendable {
  let location: PostgresLocation

  init(url: String) throws(StatlineError) {
    var location = try PostgresLocation(url: url)
    location.schema = "bench_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
    self.location = location
  }

  /// Drops the schema (best effort: a benchmark that failed still cleans up what it can).
  func drop() async {
    if let store = try? await PostgresStore.open(location, migrate: false) {
      try? await store.dropSchema()
      await store.close()
    }
  }

  /// Runs `body` on the schema, then drops it however `body` ends.
  static func using<R>(_ url: String?, _ body: (BenchSchema?) async throws -> R) async throws -> R {
    let scratch = try url.map { url throws(StatlineError) in try BenchSchema(url: url) }
    do {
      let result = try await body(scratch)
      await scratch?.drop()
      return result
    } catch {
      await scratch?.drop()
      throw error
    }
  }
}
