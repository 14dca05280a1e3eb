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
  struct Change: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "CPU per poll of an unchanged page (304, same bytes) against a changed one, network taken out.")

    @Option(help: "Polls per kind.")
    var polls: Int = 2000

    func run() async throws {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-change-\(UUID()).sqlite").path
      defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
      let result = try await ChangeBenchmark(polls: polls, path: path).run()
      Console.out(
        String(
          format: "changed page (parse, normalize, validate, store): %8.1f µs per poll", result.changedMicroseconds))
      Console.out(
        String(
          format: "304 Not Modified:                                 %8.1f µs per poll (%.1f %% of changed)",
          result.notModifiedMicroseconds, 100 * result.notModifiedMicroseconds / result.changedMicroseconds))
      Console.out(
        String(
          format: "same bytes again (content hash):                  %8.1f µs per poll (%.1f %% of changed)",
          result.identicalMicroseconds, 100 * result.identicalMicroseconds / result.changedMicroseconds))
      Console.out("records written by unchanged polls: \(result.writesWhenUnchanged) (goal 0)")
    }
  }
}
