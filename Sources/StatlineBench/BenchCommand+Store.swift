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
  struct Store: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Batches/s into a fresh SQLite store (one game, its box score and plays per batch).")

    @Option(help: "Batches to write.")
    var batches: Int = 2000

    @Option(
      help: ArgumentHelp(
        "A postgres:// URL to write into (a fresh schema, dropped afterwards); default: a fresh SQLite file.",
        valueName: "url"))
    var store: String?

    func run() async throws {
      let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-store-\(UUID()).sqlite").path
      defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
      let (location, result) = try await BenchSchema.using(store) { scratch in
        let location = scratch.map { StoreLocation.postgres($0.location) } ?? .file(path)
        return (location, try await StoreBenchmark(batches: batches, location: location).run())
      }
      Console.out(
        String(
          format: "%d batches (%d records, %d written) in %.2f s: %.0f batches/s, %.0f records written/s",
          result.batches, result.records, result.written, result.seconds, Double(result.batches) / result.seconds,
          Double(result.written) / result.seconds))
      Console.out(
        String(
          format: "CPU: Statline %.2f s (%.0f µs per batch)%@", result.cpu, 1e6 * result.cpu / Double(result.batches),
          location.isPostgres
            ? String(
              format: ", PostgreSQL %.2f s (%.0f µs per batch)", result.serverCPU,
              1e6 * result.serverCPU / Double(result.batches)) : ""))
    }
  }
}
