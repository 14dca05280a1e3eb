import Foundation
import PostgresNIO
import StatlineCore

/// Whether the store's schema holds every table its migrations create: a table dropped by hand
/// (or lost) is reported at open as damage, naming it, by `run`, `migrate` and `serve` alike,
/// instead of a schema version that looks fine and bare SQL errors later.
extension PostgresStore {
  /// The tables the migrations create, read from their own text.
  static let expectedTables: Set<String> = {
    var names: Set<String> = []
    for migration in PostgresMigrations.all {
      var rest = migration.sql[...]
      while let found = rest.range(of: "CREATE TABLE ") {
        var after = rest[found.upperBound...]
        if after.hasPrefix("IF NOT EXISTS ") { after = after.dropFirst("IF NOT EXISTS ".count) }
        let name = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
        if !name.isEmpty { names.insert(String(name)) }
        rest = after
      }
    }
    return names
  }()

  /// Throws a `.store` error naming the tables the schema lacks.
  func verifySchema() async throws(StatlineError) {
    let schema = location.schema
    let logger = self.logger
    let present: [String] = try await perform("cannot read the store's tables") { connection in
      var names: [String] = []
      let rows = try await connection.query(
        "SELECT table_name::text FROM information_schema.tables WHERE table_schema = \(schema)", logger: logger)
      for try await name in rows.decode(String.self) { names.append(name) }
      return names
    }
    let missing = Self.expectedTables.subtracting(present).sorted()
    guard missing.isEmpty else {
      throw StatlineError(
        .store,
        "the store is damaged: its schema version is \(PostgresMigrations.latest) but it lacks "
          + missing.map { "table \($0)" }.joined(separator: ", "),
        location: location.description,
        hint:
          "restore it from a backup, or point --store at a new schema and let `statline run` build it (the sites are polled again)"
      )
    }
  }
}
