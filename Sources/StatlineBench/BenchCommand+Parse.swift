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
  struct Parse: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Pages/s of the document layer (parse + extract) against libxml2's bare parse.")

    @Option(help: "The page to parse (default: the real stats.ncaa.org box score in $\(RealFixtures.variable)).")
    var page: String?

    @Option(help: "Timed rounds (the median is reported).")
    var rounds: Int = 7

    @Option(help: "Pages parsed per round, per contender.")
    var pagesPerRound: Int = 50

    @Option(help: "Run only `bare` or `layer`, rounds × pages times, and report nothing (for callgrind).")
    var only: String?

    func run() throws {
      let path =
        page
        ?? RealFixtures.fromEnvironment().folder?
        .appendingPathComponent("ncaa-stats/contest-6310104-individual-stats-mlax-final.html").path
      guard let path, let data = FileManager.default.contents(atPath: path) else {
        throw fail(
          StatlineError(
            .io, "no page to benchmark", location: page,
            hint: "pass --page FILE or set \(RealFixtures.variable)"))
      }
      do {
        let benchmark = ParseBenchmark(page: data, rounds: rounds, pagesPerRound: pagesPerRound)
        if let only {
          guard only == "bare" || only == "layer" else {
            throw fail(StatlineError(.configuration, "--only takes bare or layer, not '\(only)'"))
          }
          try benchmark.runOnly(layer: only == "layer", times: rounds * pagesPerRound)
          return
        }
        let result = try benchmark.run()
        Console.out("page: \(path) (\(result.bytes) bytes; \(result.rows) rows, \(result.cells) cells extracted)")
        Console.out(String(format: "libxml2 bare parse:        %8.1f pages/s", result.barePagesPerSecond))
        Console.out(String(format: "parse + extract (layer):   %8.1f pages/s", result.layerPagesPerSecond))
        Console.out(String(format: "extraction overhead:       %8.1f %% (goal <= 25 %%)", result.overheadPercent))
      } catch let error as StatlineError {
        throw fail(error)
      }
    }
  }
}
