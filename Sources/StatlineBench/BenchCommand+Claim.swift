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
  struct Claim: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Targets/s a worker claims from a PostgreSQL store, and what claiming and giving back costs a poll.")

    @Option(help: ArgumentHelp("The PostgreSQL server (a fresh schema, dropped afterwards).", valueName: "url"))
    var store: String

    @Option(help: "Due targets to claim.")
    var targets: Int = 5000

    @Option(help: "Targets per claim (a worker claims its free poll slots at once).")
    var batch: Int = 32

    func run() async throws {
      let result = try await BenchSchema.using(store) { scratch in
        try await ClaimBenchmark(targets: targets, batch: batch, location: scratch!.location).run()
      }
      let count = Double(targets)
      Console.out(
        String(
          format: "claimed %d targets in batches of %d: %.2f s, %.0f targets/s (%.0f µs each)", targets, batch,
          result.claimSeconds, count / result.claimSeconds, 1e6 * result.claimSeconds / count))
      Console.out(
        String(
          format:
            "CPU per claimed target: Statline %.0f µs, PostgreSQL %.0f µs (goal: claim overhead < 500 µs per poll)",
          1e6 * result.claimCPU / count, 1e6 * result.claimServerCPU / count))
      Console.out(
        String(
          format:
            "gave them back one by one (a fenced touch; a poll that stores gives it back inside its commit): %.2f s, %.0f µs each; CPU Statline %.0f µs, PostgreSQL %.0f µs",
          result.releaseSeconds, 1e6 * result.releaseSeconds / count, 1e6 * result.releaseCPU / count,
          1e6 * result.releaseServerCPU / count))
    }
  }
}
