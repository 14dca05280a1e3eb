import AsyncHTTPClient
import Foundation
import Hummingbird
import StatlineCore
import StatlineSQLite
import StatlineServer
import Synchronization
import Testing

/// Per-client limits (issue 54), through a real HTTP client against the real server: a read rate
/// by client address (answers sent from the event loop included) and a cap on requests being
/// answered at once, each past its limit a 429 problem with `Retry-After`, counted in `/metrics`.
@Suite(.serialized, .timeLimit(.minutes(1))) struct ClientLimitsTests {
  /// The rate's clock, moved by the test.
  final class Clock: Sendable {
    let seconds = Mutex(1_000.0)
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
    func now() -> Double { seconds.withLock { $0 } }
  }

  static func limits(rate: Double? = nil, burst: Double? = nil, concurrent: Int? = nil) throws -> ConnectionLimits {
    var limits = ConnectionLimits()
    limits.clients = try ClientLimits(
      readRate: rate, readBurst: burst, concurrentRequests: concurrent, names: ("rate", "burst", "concurrent"))
    return limits
  }

  @Test func readsPastTheirRateAreRefusedWithRetryAfterEvenWhenTheAnswerIsHot() async throws {
    let (path, _) = try await ReadAPITests.store()
    var configuration = ReadAPI.Configuration()
    // Trusted for an hour: every repeat is an answer the event loop sends by itself.
    configuration.stampInterval = .seconds(3600)
    let api = ReadAPI(
      reader: try SQLiteStore(readOnlyPath: path), configuration: configuration, metrics: ServerMetrics(),
      now: { ReadAPITests.now })
    let clock = Clock()
    try await ReadAPITests.withServer(api: api, limits: try Self.limits(rate: 1, burst: 3), seconds: clock.now) {
      base in
      let url = base + "/v1/scoreboard?date=2026-03-07"
      for _ in 1...3 { #expect(try await ReadAPITests.get(url).status == 200, "the burst") }
      let refused = try await ReadAPITests.get(url)
      #expect(refused.status == 429 && refused.headers["retry-after"] == "1")
      #expect(refused.headers["content-type"]?.hasPrefix("application/problem+json") == true)
      #expect(
        (refused.json["detail"] as? String)?.contains("too many read requests from 127.0.0.1 (more than 1 a second)")
          == true)
      #expect(try await ReadAPITests.get(base + "/v1/games/ncaa:1").status == 429, "the bucket is the client's")
      #expect(try await ReadAPITests.get(base + "/healthz").status == 200, "the operator's endpoints are not limited")
      clock.advance(1)
      #expect(try await ReadAPITests.get(url).status == 200, "a token a second")
      #expect(try await ReadAPITests.get(url).status == 429)
      let metrics = String(decoding: try await ReadAPITests.get(base + "/metrics").body, as: UTF8.self)
      #expect(metrics.contains(#"statline_api_limited_total{reason="rate"} 3"#), "\(metrics)")
      #expect(metrics.contains(#"statline_api_requests_total{route="/v1/scoreboard",status="429"} 2"#))
    }
  }

  /// `/v1/slow`: answers once the test lets it, so that a request stays in flight.
  struct SlowGroup: RouteGroup {
    let path = "/v1/slow"
    let entered: AsyncStream<Void>.Continuation
    let release: Gate

    final class Gate: Sendable {
      let waiting = Mutex<[CheckedContinuation<Void, Never>]>([])
      let open = Mutex(false)
      func wait() async {
        await withCheckedContinuation { continuation in
          let now = open.withLock { $0 }
          if now { continuation.resume() } else { waiting.withLock { $0.append(continuation) } }
        }
      }
      func letGo() {
        open.withLock { $0 = true }
        for continuation in waiting.withLock({ list in
          defer { list = [] }
          return list
        }) { continuation.resume() }
      }
    }

    func addRoutes(to router: Router<ConnectionContext>) {
      router.get(RouterPath(path)) { _, _ -> String in
        entered.yield()
        await release.wait()
        return "done"
      }
    }
  }

  @Test func aClientAtItsCapOfRequestsAtOnceIsRefusedUntilOneIsAnswered() async throws {
    let (path, _) = try await ReadAPITests.store()
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), metrics: ServerMetrics(), now: { ReadAPITests.now })
    let (entered, continuation) = AsyncStream.makeStream(of: Void.self)
    let slow = SlowGroup(entered: continuation, release: SlowGroup.Gate())
    try await ReadAPITests.withServer(api: api, groups: [slow], limits: try Self.limits(concurrent: 1)) { base in
      let first = Task { try await ReadAPITests.get(base + "/v1/slow") }
      var arrivals = entered.makeAsyncIterator()
      _ = await arrivals.next()
      let refused = try await ReadAPITests.get(base + "/v1/scoreboard?date=2026-03-07")
      #expect(refused.status == 429 && refused.headers["retry-after"] == "1")
      #expect(
        (refused.json["detail"] as? String)?.contains("requests at once from 127.0.0.1 (1 are being answered)") == true)
      slow.release.letGo()
      #expect(try await first.value.status == 200)
      #expect(try await ReadAPITests.get(base + "/v1/scoreboard?date=2026-03-07").status == 200, "its place is back")
      let metrics = String(decoding: try await ReadAPITests.get(base + "/metrics").body, as: UTF8.self)
      #expect(metrics.contains(#"statline_api_limited_total{reason="concurrency"} 1"#), "\(metrics)")
    }
  }

  @Test func limitsAreCheckedWhenTheyAreSet() throws {
    let names = ("--read-rate", "--read-burst", "--max-concurrent-per-client")
    #expect(throws: StatlineError.self) {
      try ClientLimits(readRate: 0, readBurst: nil, concurrentRequests: nil, names: names)
    }
    #expect(throws: StatlineError.self) {
      try ClientLimits(readRate: nil, readBurst: 5, concurrentRequests: nil, names: names)
    }
    #expect(throws: StatlineError.self) {
      try ClientLimits(readRate: nil, readBurst: nil, concurrentRequests: 0, names: names)
    }
    let limits = try ClientLimits(readRate: 20, readBurst: nil, concurrentRequests: 64, names: names)
    #expect(limits.readBurst == 40 && limits.concurrentRequests == 64, "the burst is twice the rate")
    #expect(ClientLimits().readRate == nil && ClientLimits().concurrentRequests == nil, "off by default")
  }
}
