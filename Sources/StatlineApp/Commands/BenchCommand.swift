import ArgumentParser
import Foundation
import StatlineCore
import StatlineEngine

/// `statline bench`: the benchmarks of DESIGN.md §7 (never timed tests).
struct BenchCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "bench", abstract: "Run benchmarks.", subcommands: [Parse.self, Fetch.self])

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

  struct Fetch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Requests/s through the fetch path (politeness limits lifted) against a loopback server.")

    @Option(help: "The URL to fetch (a loopback server, e.g. http://127.0.0.1:8080/page.html).")
    var url: String

    @Option(help: "Requests in all.")
    var requests: Int = 20_000

    @Option(help: "Requests in flight at once.")
    var concurrency: Int = 32

    @Flag(help: "Measure the bare HTTP client, without the politeness layer.")
    var bare = false

    func run() async throws {
      guard ["127.0.0.1", "localhost", "::1", "[::1]"].contains(FetchRequest.host(of: url)) else {
        throw fail(StatlineError(.configuration, "bench fetch only runs against a loopback server", location: url))
      }
      let result = try await FetchBenchmark(url: url, requests: requests, concurrency: concurrency, bare: bare).run()
      Console.out(
        String(
          format: "%@: %d requests, %d in flight, %d failed, %.2f s: %.0f requests/s",
          bare ? "HTTPFetcher (bare)" : "PoliteFetcher over HTTPFetcher", result.requests, concurrency,
          result.failures, result.seconds, result.perSecond))
    }
  }
}
