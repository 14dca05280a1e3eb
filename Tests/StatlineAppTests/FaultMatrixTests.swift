import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineEngine
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

/// The whole job (scheduler, politeness, HTTP fetcher, SQLite store) against scripted faults
/// on loopback: each fault gets the right retry, breaker and capture behaviour, a healthy target
/// on another host keeps its cadence, and the store keeps the last good data of the faulty one.
@Suite(.serialized) struct FaultMatrixTests {
  enum Fault: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case serverError500, unavailable503, tooManyRequests429, timeout, reset, truncated, oversized, gzipBomb,
      invalidUTF8, challenge200, slowDrip

    var testDescription: String { rawValue }

    /// 2 MiB that do not compress, made once (the router runs on the server's event loop).
    static let noise: Data = {
      var generator = SystemRandomNumberGenerator()
      var words = [UInt64](repeating: 0, count: (2 << 20) / 8)
      for index in words.indices { words[index] = generator.next() }
      return words.withUnsafeBytes { Data($0) }
    }()

    func behavior(good: String) -> LoopbackServer.Behavior {
      switch self {
      case .serverError500: .respond(status: 500, body: "oops")
      case .unavailable503: .respond(status: 503, body: "busy")
      case .tooManyRequests429: .respond(status: 429, headers: ["Retry-After": "1"], body: "slow down")
      case .timeout: .hang
      case .reset: .reset
      case .truncated: .truncated(declaredLength: good.utf8.count, body: String(good.prefix(good.count / 2)))
      case .oversized:
        .bytes(status: 200, headers: [:], body: Data((0..<(2 << 20)).map { _ in UInt8.random(in: 0...255) }))
      case .gzipBomb: .ok(String(repeating: "\0", count: 8 << 20))
      case .invalidUTF8:
        .bytes(
          status: 200, headers: ["Content-Type": "text/xml"],
          body: Data(good.replacingOccurrences(of: "Navy", with: "N\u{1}vy").utf8.map { $0 == 1 ? 0xFF : $0 }))
      case .challenge200: .ok("<html><head><title>Just a moment...</title></head><body>cf-chl-</body></html>")
      case .slowDrip: .drip(body: good, chunks: 20, interval: .milliseconds(100))
      }
    }

    /// Whether one poll tries again before giving up.
    var retried: Bool { ![.oversized, .gzipBomb, .invalidUTF8, .challenge200].contains(self) }
    /// A page that failed to parse, or a challenge kept as evidence of the wall.
    var captured: Bool { self == .invalidUTF8 || self == .challenge200 }
    var blocked: Bool { self == .challenge200 }
    /// Every fault but a page that arrives and fails to parse counts against the host.
    var opensBreaker: Bool { self != .invalidUTF8 }
  }

  @Test(arguments: Fault.allCases)
  func theJobHandlesTheFault(_ fault: Fault) async throws {
    let day = DemoGameDay()
    let minute = 15.0 * 60
    let good = try #require(day.xml(eventId: "640301", at: minute))
    let healthy = try await LoopbackServer.start(host: "127.0.0.2") { request in day.route(request, seconds: minute) }
    let served = Counter()
    let faulty = try await LoopbackServer.start(ownThread: true) { request in
      if request.uri == "/robots.txt" { return .respond(status: 404) }
      // The first poll of the faulty target is good; every later one meets the fault.
      return served.next() == 0 ? .ok(good) : fault.behavior(good: good)
    }
    defer {
      Task {
        try? await healthy.stop()
        try? await faulty.stop()
      }
    }
    var config = JobConfig()
    config.targets = [
      .init(url: "\(healthy.baseURL)/archive/640302.xml", parser: "statbroadcast-game-xml", role: .game),
      .init(url: "\(faulty.baseURL)/archive/640301.xml", parser: "statbroadcast-game-xml", role: .game),
    ]
    config.policy.live = .milliseconds(300)
    config.policy.failureBase = .milliseconds(300)
    config.policy.failureCap = .seconds(1)
    config.policy.jitter = 0
    config.politeness.retry.maxRetries = 1
    config.politeness.retry.base = .milliseconds(50)
    // Short where the fault is slowness (a hang, a drip), so it shows within the test; longer
    // elsewhere, so a loopback answer slowed by a loaded machine (the suite's first seconds) is
    // not taken for a fault.
    config.http.requestTimeout = [.timeout, .slowDrip].contains(fault) ? .milliseconds(800) : .seconds(3)
    config.http.maximumBodyBytes = 1 << 20
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-fault-\(UUID()).sqlite").path
    let log = Polls()
    let runtime = try await JobRuntime(config: config, storePath: path, clock: ContinuousClock(), report: log.append)
    let job = Task { try await runtime.scheduler.run(configured: runtime.targets) }
    // Until the faulty target has failed three times (enough to open the breaker) and the
    // healthy one has been polled five times; a hang shows as a timeout here.
    let deadline = ContinuousClock.now + .seconds(15)
    while ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(100))
      let polls = log.polls
      let failed = polls.filter { $0.target.url.hasPrefix(faulty.baseURL) && $0.outcome != .stored }.count
      if failed >= 3 && polls.filter({ $0.target.url.hasPrefix(healthy.baseURL) }).count >= 5 { break }
    }
    job.cancel()
    _ = try? await job.value
    await runtime.shutdown()

    let healthyPolls = log.polls.filter { $0.target.url.hasPrefix(healthy.baseURL) }
    #expect(healthyPolls.count >= 5, "the healthy target keeps its 300 ms cadence: \(healthyPolls.count) polls")
    // One slow answer on a loaded 2-core machine is noise; a shared breaker or a blocked loop
    // would fail many.
    #expect(
      healthyPolls.filter { $0.outcome != .stored && $0.outcome != .unchanged }.count <= 1,
      "\(healthyPolls.map { "\($0.outcome) \($0.error ?? "")" })")

    let faultyPolls = log.polls.filter { $0.target.url.hasPrefix(faulty.baseURL) }
    #expect(faultyPolls.first?.outcome == .stored)
    let failures = faultyPolls.dropFirst()
    #expect(
      !failures.isEmpty, "\(faultyPolls.map { "\($0.outcome) \($0.error ?? "")" }) requests \(faulty.requests.count)")
    #expect(failures.allSatisfy { $0.outcome == .failed || $0.outcome == .blocked }, "\(failures.map(\.outcome))")
    if fault.blocked { #expect(failures.first?.outcome == .blocked) }
    #expect((failures.first?.capture != nil) == fault.captured, "\(failures.first?.error ?? "")")

    let faultRequests = faulty.requests.filter { $0.uri == "/archive/640301.xml" }.count - 1
    let firstFailurePolls = 1
    if fault.retried {
      #expect(faultRequests >= 2 * firstFailurePolls, "a retry within the poll: \(faultRequests) requests")
    }
    if fault == .tooManyRequests429 {
      #expect(faultRequests <= 3, "Retry-After: 1 spaces the attempts a second apart: \(faultRequests)")
    }
    let host = await runtime.polite.health("127.0.0.1", at: Date())
    #expect((host.breaker != .closed) == fault.opensBreaker, "breaker \(host.breaker)")

    let store = try SQLiteStore(path: path)
    let canonical = try await store.game(id: "statbroadcast:640301")?.id
    let games = try await store.changes(since: 0, limit: 10_000).filter { $0.kind == .game && $0.id == canonical }
    #expect(games.count == 1, "the store keeps the last good data (its canonical game)")
    #expect(try await store.sourceGame(id: "statbroadcast:640301") != nil, "and the source's own record")
    #expect(try await store.integrityCheck() == "ok")
  }
}

/// Counts calls across threads.
final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func next() -> Int {
    lock.withLock {
      defer { value += 1 }
      return value
    }
  }
}

/// The poll reports of a job.
final class Polls: @unchecked Sendable {
  private let lock = NSLock()
  private var reports: [PollReport] = []
  func append(_ event: JobEvent) {
    if case .polled(let report) = event { lock.withLock { reports.append(report) } }
  }
  var polls: [PollReport] { lock.withLock { reports } }
}
