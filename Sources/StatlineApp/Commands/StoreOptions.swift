import ArgumentParser
import Foundation
import StatlineCore

/// Where a command that reads the store finds it (`--store`, else the configuration's `store:`,
/// else statline.sqlite), and the configuration itself when its file exists.
struct StoreOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "The store (a SQLite file or a postgres:// URL); default: `store:` of --config.", valueName: "path|url"))
  var store: String?

  @Option(name: .long, help: ArgumentHelp("The job configuration (YAML).", valueName: "file"))
  var config = "statline.yml"

  /// The configuration, or nil when its file does not exist (a missing default is no error).
  func job() throws(StatlineError) -> JobConfig? {
    guard FileManager.default.fileExists(atPath: config) else { return nil }
    return try JobConfigReader.load(file: config)
  }

  /// The store path: --store, else the configuration's, else statline.sqlite.
  func storePath() throws(StatlineError) -> String {
    if let store { return store }
    return try job()?.store ?? "statline.sqlite"
  }

  func open() async throws(StatlineError) -> any JobStore {
    try await StoreLocation(try storePath()).openForCommand(
      hint: "run `statline run` or `statline once` first, or pass --store")
  }
}
