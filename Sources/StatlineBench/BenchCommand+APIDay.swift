import ArgumentParser
import AsyncHTTPClient
import Foundation
import StatlineApp
import StatlineCLI
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineLoopback

extension BenchCommand {
  /// The cycle benchmark's site, run as a child process so its CPU is not counted.
  struct APIDay: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "api-day",
      abstract: "Write the read API benchmark's 60-game day: a store, and the API's answers as static files.",
      discussion: "scripts/bench-api runs `statline serve` on the store and nginx on the files, with wrk.")

    @Option(help: ArgumentHelp("Where to write store.sqlite and static/.", valueName: "dir"))
    var dir: String

    func run() async throws {
      let folder = URL(fileURLWithPath: dir)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      for answer in try await APIBenchmarkDay.prepare(in: folder) {
        Console.out("\(answer.api) \(answer.file) \(answer.etag)")
      }
    }
  }
}
