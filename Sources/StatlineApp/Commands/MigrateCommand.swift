import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlinePostgres
import StatlineSQLite

/// `statline migrate`: brings a store's schema up to this Statline's, and says what it did.
public struct MigrateCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "migrate", abstract: "Apply the store's schema migrations (the job also does this at start-up).",
    discussion: """
      A postgres:// store is migrated under an advisory lock, so workers starting at the same \
      time (or this command beside them) apply each migration once. A SQLite file is created \
      when missing. Refuses a store whose schema is newer than this Statline's.
      """)

  @Option(name: .long, help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
  var store = "statline.sqlite"

  public func run() async throws {
    do {
      switch try StoreLocation(store) {
      case .file(let path):
        let sqlite = try SQLiteStore(path: path)
        Console.out("\(path): schema version \(try await sqlite.schemaVersion()) (SQLite)")
      case .postgres(let location):
        let postgres = try await PostgresStore.open(location, migrate: false)
        defer { Task { await postgres.close() } }
        let before = try await postgres.schemaVersion()
        let applied = try await postgres.migrate()
        let after = try await postgres.schemaVersion()
        Console.out(
          applied.isEmpty
            ? "\(location): schema version \(after), up to date"
            : "\(location): schema version \(before) → \(after) (applied \(applied.map(String.init).joined(separator: ", ")))"
        )
      }
    } catch let error as StatlineError {
      throw fail(error)
    }
  }
}
