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
