import Foundation
import StatlineCore
import StatlineEngine

/// Requests per second through the fetch path — `PoliteFetcher` with its limits lifted, over
/// `HTTPFetcher` — against a server the caller names (a loopback one: never a real site).
public struct FetchBenchmark: Sendable {
  public var url: String
  public var requests: Int
  public var concurrency: Int
  /// Skip the politeness layer and measure the bare HTTP client.
  public var bare: Bool

  public init(url: String, requests: Int, concurrency: Int, bare: Bool) {
    self.url = url
    self.requests = requests
    self.concurrency = concurrency
    self.bare = bare
  }

  public struct Result: Sendable {
    public var requests: Int
    public var failures: Int
    public var seconds: Double
    public var perSecond: Double { Double(requests) / seconds }
  }

  public func run() async throws -> Result {
    let http = HTTPFetcher()
    var configuration = PoliteFetcher<ContinuousClock>.Configuration()
    configuration.obeyRobots = false
    configuration.hostLimits = .unlimited
    configuration.hostOverrides = [:]
    let fetcher: any Fetcher =
      bare ? http : PoliteFetcher(wrapping: http, clock: ContinuousClock(), configuration: configuration)
    let separator = url.contains("?") ? "&" : "?"
    // Distinct URLs, so single-flight cannot merge the requests.
    let urls = (0..<requests).map { "\(url)\(separator)n=\($0)" }
    _ = try? await fetcher.fetch(FetchRequest(url: urls[0]))  // warm the connection pool
    let clock = ContinuousClock()
    let start = clock.now
    let failures = await withTaskGroup(of: Int.self) { group in
      for worker in 0..<concurrency {
        group.addTask {
          var failed = 0
          for index in stride(from: worker, to: urls.count, by: concurrency) {
            do {
              let page = try await fetcher.fetch(FetchRequest(url: urls[index]))
              if page.status != 200 { failed += 1 }
            } catch {
              failed += 1
            }
          }
          return failed
        }
      }
      return await group.reduce(0, +)
    }
    let elapsed = start.duration(to: clock.now)
    try await http.shutdown()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return Result(requests: requests, failures: failures, seconds: seconds)
  }
}
