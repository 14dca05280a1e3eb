import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlinePostgres

/// `statline captures`: the pages that failed, kept for `statline replay capture:ID`.
public struct CapturesCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "captures", abstract: "List or prune captured failed pages.", subcommands: [List.self, Prune.self])

  struct StoreOption: ParsableArguments {
    @Option(help: ArgumentHelp("The store: a SQLite file or a postgres:// URL.", valueName: "path|url"))
    var store: String = "statline.sqlite"

    func open() async throws -> any JobStore {
      do {
        return try await StoreLocation(store).openForCommand(hint: "pass --store with the job's store")
      } catch {
        throw fail(error)
      }
    }
  }

  struct List: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "The newest captures first.")
    @OptionGroup var options: StoreOption
    @Option(help: "How many to show.")
    var limit = 50

    func run() async throws {
      let captures = try await options.open().captures(limit: limit)
      let formatter = ISO8601DateFormatter()
      let rows = captures.map {
        [
          String($0.id), formatter.string(from: $0.capturedAt), String($0.status), $0.parser ?? "", $0.url ?? "",
          $0.error,
        ]
      }
      for line in BatchTable.table(header: ["ID", "CAPTURED", "HTTP", "PARSER", "URL", "ERROR"], rows: rows) {
        Console.out(line)
      }
      Console.out("replay one with: statline replay capture:ID --store \(PostgresLocation.redacted(options.store))")
    }
  }

  struct Prune: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Keep the newest captures, drop old ones.")
    @OptionGroup var options: StoreOption
    @Option(help: "Captures to keep at most.")
    var keep = 500
    @Option(help: "Drop captures older than this many days.")
    var days = 14

    func run() async throws {
      let cutoff = Date().addingTimeInterval(-Double(days) * 86_400)
      let removed = try await options.open().pruneCaptures(keep: keep, olderThan: cutoff)
      Console.out("pruned \(removed) captures")
    }
  }
}
