import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// The logo keeper: downloads what the pages show, asks again conditionally, keeps the last good
/// image through failures and moves, backs off on failure, and refuses what is not a logo.
@Suite struct LogoKeeperTests {
  static let t0 = Date(timeIntervalSince1970: 1_796_000_000)
  static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
  static let url = "https://logos.example/457.png"

  /// Answers with bytes, per URL (the last answer repeats), and records the requests.
  actor ImageHost: Fetcher {
    enum Answer {
      case image(Int, [String: String], Data)
      case failure(StatlineError)
    }
    var script: [String: [Answer]] = [:]
    var requests: [FetchRequest] = []

    func set(_ url: String, _ answers: [Answer]) { script[url] = answers }

    func fetch(_ request: FetchRequest) async throws -> Page {
      requests.append(request)
      var answers = script[request.url] ?? [.image(404, [:], Data())]
      let answer = answers[0]
      if answers.count > 1 { answers.removeFirst() }
      script[request.url] = answers
      switch answer {
      case .failure(let error): throw error
      case .image(let status, let headers, let body):
        if let limit = request.maximumBytes, body.count > limit {
          throw StatlineError(.unsafeDocument, "the answer is larger than \(limit) bytes", location: request.url)
        }
        return Page(
          url: request.url, status: status,
          headers: Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) }), body: body)
      }
    }
  }

  struct Setup {
    let store = MemoryStore()
    let host = ImageHost()
    let time = Cell(LogoKeeperTests.t0)
    let wanted = Cell(["team:457": LogoKeeperTests.url])
    var configuration = LogoKeeperConfiguration()

    var keeper: LogoKeeper<SteppingClock> {
      let (time, wanted) = (self.time, self.wanted)
      return LogoKeeper(
        store: store, fetcher: host, wanted: { wanted.withLock { $0 } }, clock: SteppingClock(),
        now: { time.withLock { $0 } }, configuration: configuration)
    }

    func advance(_ seconds: TimeInterval) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
    func state() async throws -> LogoState? { try await store.logoStates().first { $0.teamId == "team:457" } }
  }

  @Test func aLogoIsDownloadedStoredAndAskedAgainConditionally() async throws {
    let setup = Setup()
    await setup.host.set(
      Self.url,
      [
        .image(200, ["ETag": "\"a1\"", "Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"], Self.png),
        .image(304, ["ETag": "\"a1\""], Data()),
      ])
    let first = try await setup.keeper.pass()
    #expect(first == [.downloaded(team: "team:457", url: Self.url, contentType: "image/png", bytes: Self.png.count)])
    let logo = try await setup.store.teamLogo(teamId: "team:457")
    #expect(logo?.bytes == Self.png && logo?.contentType == "image/png" && logo?.sourceURL == Self.url)
    #expect(logo?.sha256.count == 64 && logo?.fetchedAt == Self.t0)
    let request = try #require(await setup.host.requests.first)
    #expect(request.etag == nil && request.maximumBytes == 1 << 20)
    #expect(request.headers["Accept"]?.hasPrefix("image/png, image/svg+xml") == true)

    // Not due before refreshAfter: nothing asked.
    setup.advance(7 * 86_400 - 1)
    #expect(try await setup.keeper.pass().isEmpty)
    #expect(await setup.host.requests.count == 1)

    // Due: asked with its validators; a 304 keeps the image and moves the next check on.
    setup.advance(1)
    #expect(try await setup.keeper.pass() == [.unchanged(team: "team:457", url: Self.url)])
    let again = await setup.host.requests[1]
    #expect(again.etag == "\"a1\"" && again.lastModified == "Tue, 01 Dec 2026 10:00:00 GMT")
    #expect(try await setup.store.teamLogo(teamId: "team:457")?.bytes == Self.png)
    #expect(try await setup.state()?.nextAttemptAt == Self.t0.addingTimeInterval(14 * 86_400))
  }

  @Test func aFailureIsRecordedAndRetriedWithADoublingWait() async throws {
    let setup = Setup()
    await setup.host.set(
      Self.url,
      [
        .image(503, [:], Data()), .failure(StatlineError(.network, "connection refused", location: Self.url)),
        .image(200, [:], Self.png),
      ])
    guard case .failed(_, _, let reason, let retryAt) = try await setup.keeper.pass().first else {
      Issue.record("a 503 was not a failure")
      return
    }
    #expect(reason == "the server answered HTTP 503" && retryAt == Self.t0.addingTimeInterval(3600))
    #expect(try await setup.store.teamLogo(teamId: "team:457") == nil)

    setup.advance(3599)
    #expect(try await setup.keeper.pass().isEmpty, "not asked before its retry time")
    setup.advance(1)
    guard case .failed(_, _, let second, let later) = try await setup.keeper.pass().first else {
      Issue.record("a refused connection was not a failure")
      return
    }
    #expect(second.contains("connection refused") && later == Self.t0.addingTimeInterval(3600 + 7200))
    #expect(try await setup.state()?.failures == 2)

    setup.advance(7200)
    #expect(try await setup.keeper.pass().first?.isDownload == true)
    let state = try await setup.state()
    #expect(state?.failures == 0 && state?.lastError == nil)
  }

  @Test func theWaitStopsAtItsCap() async throws {
    var setup = Setup()
    setup.configuration.maximumRetryAfter = 5 * 3600
    await setup.host.set(Self.url, [.image(500, [:], Data())])
    var waits: [TimeInterval] = []
    for _ in 0..<5 {
      guard case .failed(_, _, _, let retryAt) = try await setup.keeper.pass().first else { break }
      waits.append(retryAt.timeIntervalSince(setup.time.withLock { $0 }))
      setup.time.withLock { $0 = retryAt }
    }
    #expect(waits == [3600, 7200, 14400, 18000, 18000])
  }

  @Test func aMovedURLIsAskedAtOnceAndTheOldImageServedUntilTheNewOneComes() async throws {
    let setup = Setup()
    await setup.host.set(Self.url, [.image(200, ["ETag": "\"old\""], Self.png)])
    _ = try await setup.keeper.pass()
    let moved = "https://logos.example/457-2027.svg"
    setup.wanted.withLock { $0["team:457"] = moved }
    await setup.host.set(moved, [.image(404, [:], Data()), .image(200, [:], Data("<svg viewBox='0 0 1 1'/>".utf8))])
    setup.advance(60)
    guard case .failed(_, let url, _, _) = try await setup.keeper.pass().first else {
      Issue.record("the moved URL was not asked at once")
      return
    }
    #expect(url == moved)
    #expect(await setup.host.requests.last?.etag == nil, "the old image's validators are not sent to the new URL")
    let kept = try await setup.store.teamLogo(teamId: "team:457")
    #expect(kept?.bytes == Self.png && kept?.sourceURL == Self.url)

    setup.advance(3600)
    #expect(
      try await setup.keeper.pass() == [
        .downloaded(team: "team:457", url: moved, contentType: "image/svg+xml", bytes: 24)
      ])
    #expect(try await setup.store.teamLogo(teamId: "team:457")?.contentType == "image/svg+xml")
  }

  @Test func whatIsNotALogoIsRefusedAndTheStoredOneKept() async throws {
    let setup = Setup()
    await setup.host.set(
      Self.url,
      [
        .image(200, [:], Self.png),
        .image(200, ["Content-Type": "image/png"], Data("<html><body>Please enable cookies</body></html>".utf8)),
        .image(200, [:], Data("<svg><script>alert(1)</script></svg>".utf8)),
      ])
    _ = try await setup.keeper.pass()
    for expected in ["not a PNG, JPEG, GIF, WebP or SVG", "active content (<script)"] {
      setup.advance(7 * 86_400)
      guard case .failed(_, _, let reason, _) = try await setup.keeper.pass().first else {
        Issue.record("a non-logo was stored")
        return
      }
      #expect(reason.contains(expected), "\(reason)")
      #expect(try await setup.store.teamLogo(teamId: "team:457")?.bytes == Self.png)
    }
  }

  @Test func anOversizedLogoIsRefusedByTheFetchersLimit() async throws {
    var setup = Setup()
    setup.configuration.maximumBytes = 8
    await setup.host.set(Self.url, [.image(200, [:], Self.png)])
    guard case .failed(_, _, let reason, _) = try await setup.keeper.pass().first else {
      Issue.record("a logo over the limit was stored")
      return
    }
    #expect(reason.contains("larger than 8 bytes"))
  }

  @Test func theSameBytesAgainAreUnchangedAndAPassIsBounded() async throws {
    var setup = Setup()
    setup.configuration.perPass = 2
    setup.wanted.withLock { wanted in
      for team in ["team:1", "team:2", "team:3"] { wanted[team] = "https://logos.example/\(team).png" }
    }
    for team in ["team:1", "team:2", "team:3", "team:457"] {
      await setup.host.set(
        team == "team:457" ? Self.url : "https://logos.example/\(team).png", [.image(200, [:], Self.png)])
    }
    #expect(try await setup.keeper.pass().count == 2)
    #expect(try await setup.keeper.pass().count == 2)
    #expect(try await setup.keeper.pass().isEmpty)
    #expect(try await setup.store.logoStates().count == 4)
    setup.advance(7 * 86_400)
    let refreshed = try await setup.keeper.pass()
    #expect(refreshed.allSatisfy { if case .unchanged = $0 { true } else { false } } && refreshed.count == 2)
  }

  @Test func runPassesOnlyWhileItMayAndReportsAStoreFailure() async throws {
    let setup = Setup()
    await setup.host.set(Self.url, [.image(200, [:], Self.png)])
    let clock = SteppingClock()
    let allowed = Cell(0)
    let (time, wanted) = (setup.time, setup.wanted)
    let keeper = LogoKeeper(
      store: setup.store, fetcher: setup.host, wanted: { wanted.withLock { $0 } }, clock: clock,
      now: { time.withLock { $0 } },
      mayRun: {
        // Not the lease holder for the first two passes; then stop the loop.
        let pass = allowed.withLock { count in
          count += 1
          return count
        }
        if pass > 3 { throw CancellationError() }
        return pass == 3
      })
    try await keeper.run()
    #expect(await setup.host.requests.count == 1, "asked only on the pass it held the lease")
    #expect(clock.sleeps == [.seconds(600), .seconds(600), .seconds(600)])

    let failures = Cell<[String]>([])
    let broken = LogoKeeper(
      store: setup.store, fetcher: setup.host, wanted: { throw StatlineError(.store, "the store is away") },
      clock: SteppingClock(), now: { time.withLock { $0 } },
      mayRun: {
        if failures.withLock({ $0.count }) > 0 { throw CancellationError() }
        return true
      })
    try await broken.run { error in failures.withLock { $0.append("\(error)") } }
    #expect(failures.withLock { $0 }.first?.contains("the store is away") == true)
  }
}

/// A value shared with the keeper's closures.
final class Cell<Value: Sendable>: Sendable {
  let locked: Locked<Value>
  init(_ value: Value) { locked = Locked(value) }
  func withLock<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result { locked.withLock(body) }
}

extension LogoKeeper.Outcome {
  var isDownload: Bool { if case .downloaded = self { true } else { false } }
}
