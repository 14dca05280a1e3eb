import Foundation
import StatlineApp
import StatlineLoopback
import StatlineTesting
import Testing

@testable import StatlineBench

/// What the fetch benchmark does is tested; how fast it goes is only reported.
@Suite(.timeLimit(.minutes(1))) struct FetchBenchmarkTests {
  @Test func fetchesEveryRequestThroughThePoliteLayer() async throws {
    let server = try await LoopbackServer.start { _ in .ok("<html>ok</html>") }
    let result = try await FetchBenchmark(
      url: "\(server.baseURL)/page.html", requests: 60, concurrency: 4, bare: false
    ).run()
    #expect(result.requests == 60)
    #expect(result.failures == 0)
    #expect(Set(server.requests.map(\.uri)).count == 60, "distinct URLs: single-flight merges nothing")
    try await server.stop()
  }

  @Test func refusesAnyHostButLoopback() throws {
    let output = try CommandRunner.run(["bench", "fetch", "--url", "https://stats.ncaa.org/", "--requests", "1"])
    #expect(output.status == 64)
    #expect(output.stderr.contains("only runs against a loopback server"))
  }
}
