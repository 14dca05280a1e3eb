import ArgumentParser
import AsyncHTTPClient
import Foundation
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineLoopback

extension BenchCommand {
  struct Poll: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "GET a URL at a steady rate until stopped (a phone polling, for `bench cycle --api-rate`).",
      shouldDisplay: false)

    @Argument var url: String
    @Option var rate: Double = 100

    func run() async throws {
      let client = HTTPClient(eventLoopGroupProvider: .singleton)
      let interval = Duration.microseconds(Int64(1e6 / max(rate, 0.1)))
      var next = ContinuousClock.now
      while true {
        next += interval
        if let response = try? await client.execute(HTTPClientRequest(url: url), timeout: .seconds(5)) {
          _ = try? await response.body.collect(upTo: 1 << 24)
        }
        try await Task.sleep(until: next)
      }
    }
  }
}
