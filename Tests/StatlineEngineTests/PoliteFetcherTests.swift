import Clocks
import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

@Suite struct PoliteFetcherTests {
  static let url = "https://stats.test/contests/1/box_score"
  static let robots = "https://stats.test/robots.txt"
  let clock = TestClock()

  func polite(_ fetcher: ScriptedFetcher, now: Date = Date(timeIntervalSince1970: 1_771_200_000)) -> PoliteFetcher<
    TestClock<Duration>
  > {
    // Spacing is HostGate's (tested there); lifted here so only retries and cool-downs take time.
    var configuration = PoliteFetcher<TestClock<Duration>>.Configuration()
    configuration.hostLimits = HostLimits(concurrency: 2, spacing: .zero)
    return PoliteFetcher(wrapping: fetcher, clock: clock, configuration: configuration, random: { 0.5 }, now: { now })
  }

  /// Waits until the fetch task has sent `count` requests to the URL and gone to sleep (the
  /// clock must not move before its backoff sleep is registered, or the deadline shifts).
  func settle(_ fetcher: ScriptedFetcher, count: Int) async {
    while await fetcher.count(Self.url) < count { await Task.yield() }
    for _ in 0..<500 { await Task.yield() }
  }

  @Test func serverErrorsAreRetriedWithBackoffThenSucceed() async throws {
    let fetcher = ScriptedFetcher([
      Self.robots: [.page(status: 404)], Self.url: [.page(status: 503), .page(status: 503), .ok("<html>ok</html>")],
    ])
    let polite = polite(fetcher)
    let task = Task { try await polite.fetch(FetchRequest(url: Self.url)) }
    await settle(fetcher, count: 1)
    await clock.advance(by: .milliseconds(249))
    #expect(await fetcher.count(Self.url) == 1, "the first retry waits 250 ms (half of 500 ms)")
    await clock.advance(by: .milliseconds(1))
    await settle(fetcher, count: 2)
    await clock.advance(by: .milliseconds(500))
    let page = try await task.value
    #expect(page.status == 200)
    #expect(await fetcher.count(Self.url) == 3)
    #expect(polite.breaker.state("stats.test") == .closed(failures: 0))
  }

  @Test func retryAfterIsHonoured() async throws {
    let fetcher = ScriptedFetcher([
      Self.robots: [.page(status: 404)],
      Self.url: [.page(status: 429, headers: ["Retry-After": "7"]), .ok("<html>ok</html>")],
    ])
    let polite = polite(fetcher)
    let task = Task { try await polite.fetch(FetchRequest(url: Self.url)) }
    await settle(fetcher, count: 1)
    await clock.advance(by: .milliseconds(6_999))
    #expect(await fetcher.count(Self.url) == 1)
    await clock.advance(by: .milliseconds(1))
    #expect(try await task.value.status == 200)
    #expect(await fetcher.count(Self.url) == 2)
  }

  @Test func aWallIsBlockedAtOnceAndNeverRetried() async throws {
    let fetcher = ScriptedFetcher([
      Self.robots: [.page(status: 404)],
      Self.url: [.page(status: 403, body: "<HTML><TITLE>Access Denied</TITLE></HTML>")],
    ])
    let polite = polite(fetcher)
    #expect(try await polite.fetch(FetchRequest(url: Self.url)).status == 403, "handed back for the poller to report")
    #expect(await fetcher.count(Self.url) == 1)
    #expect(polite.breaker.state("stats.test") == .closed(failures: 1))
  }

  @Test func threeBlockedAnswersOpenTheCircuit() async throws {
    let challenge = "<html><script>bm-verify</script></html>"
    let fetcher = ScriptedFetcher([Self.robots: [.page(status: 404)], Self.url: [.ok(challenge)]])
    let polite = polite(fetcher)
    for attempt in 1...3 {
      // Handed back for the poller to report as blocked; each one counts against the host.
      #expect(try await polite.fetch(FetchRequest(url: Self.url)).body == Data(challenge.utf8))
      if attempt < 3 { #expect(polite.breaker.state("stats.test") == .closed(failures: attempt)) }
    }
    do {
      _ = try await polite.fetch(FetchRequest(url: Self.url))
    } catch let error as StatlineError {
      #expect(error.reason == "the circuit for stats.test is open after repeated failures")
    }
    #expect(await fetcher.count(Self.url) == 3, "an open circuit sends nothing")
    await clock.advance(by: .seconds(30))
    await fetcher.set(Self.url, [.ok("<html>back</html>")])
    #expect(try await polite.fetch(FetchRequest(url: Self.url)).status == 200, "the half-open probe")
    #expect(polite.breaker.state("stats.test") == .closed(failures: 0))
  }

  @Test func robotsTxtIsFetchedOnceAndObeyed() async throws {
    let fetcher = ScriptedFetcher([
      Self.robots: [.ok("User-agent: *\nDisallow: /contests/\n")],
      "https://stats.test/teams/1": [.ok("<html>team</html>")],
    ])
    let polite = polite(fetcher)
    do {
      _ = try await polite.fetch(FetchRequest(url: Self.url))
      Issue.record("robots.txt disallows the URL")
    } catch let error as StatlineError {
      #expect(error.kind == .blocked)
      #expect(error.reason == "robots.txt disallows this URL for statline")
    }
    #expect(try await polite.fetch(FetchRequest(url: "https://stats.test/teams/1")).status == 200)
    #expect(await fetcher.count(Self.robots) == 1)
    #expect(await fetcher.count(Self.url) == 0)
  }

  /// A host whose robots.txt is too costly to match a URL pays for it: that URL is refused as
  /// blocked (and told to the job), while another host's request goes on untouched.
  @Test func aRobotsFileTooCostlyToMatchRefusesItsOwnHostOnly() async throws {
    let rule = "Disallow: /*a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t*u*v*w*x*y*z*\n"
    let costly = "https://stats.test/" + String(repeating: "abcdefghijklmnopqrstuvwxy", count: 20)
    let fetcher = ScriptedFetcher([
      Self.robots: [.ok("User-agent: *\n" + String(repeating: rule, count: 7_000))],
      "https://other.test/robots.txt": [.page(status: 404)], "https://other.test/x": [.ok("<html>other</html>")],
    ])
    let told = Locked<[RobotsBound]>([])
    var configuration = PoliteFetcher<TestClock<Duration>>.Configuration()
    configuration.hostLimits = HostLimits(concurrency: 2, spacing: .zero)
    configuration.robotsBound = { bound in told.withLock { $0.append(bound) } }
    let polite = PoliteFetcher(wrapping: fetcher, clock: clock, configuration: configuration, random: { 0.5 })
    do {
      _ = try await polite.fetch(FetchRequest(url: costly))
      Issue.record("fetched")
    } catch let error as StatlineError {
      #expect(error.kind == .blocked && error.reason.contains("too costly"), "\(error)")
    }
    #expect(await fetcher.count(costly) == 0)
    #expect(told.withLock { $0 } == [.tooCostly(origin: "https://stats.test")])
    #expect(try await polite.fetch(FetchRequest(url: "https://other.test/x")).status == 200)
  }

  @Test func concurrentFirstRequestsToAHostShareOneRobotsFetch() async throws {
    let urls = (1...8).map { "https://stats.test/teams/\($0)" }
    var script: [String: [ScriptedFetcher.Answer]] = [Self.robots: [.ok("User-agent: *\nDisallow:\n")]]
    for url in urls { script[url] = [.ok("<html>team</html>")] }
    let fetcher = ScriptedFetcher(script)
    let polite = polite(fetcher)
    try await withThrowingTaskGroup(of: Int.self) { group in
      for url in urls { group.addTask { try await polite.fetch(FetchRequest(url: url)).status } }
      for try await status in group { #expect(status == 200) }
    }
    #expect(await fetcher.count(Self.robots) == 1)
  }

  @Test func anUnreadableRobotsTxtKeepsStatlineOut() async throws {
    let fetcher = ScriptedFetcher([Self.robots: [.page(status: 500)], Self.url: [.ok("<html>x</html>")]])
    await #expect(throws: StatlineError.self) { try await polite(fetcher).fetch(FetchRequest(url: Self.url)) }
    #expect(await fetcher.count(Self.url) == 0)
  }

  @Test func statlineNamesItselfAndKeepsPerSourceHeaders() async throws {
    let fetcher = ScriptedFetcher([Self.robots: [.page(status: 404)], Self.url: [.ok("<html>x</html>")]])
    _ = try await polite(fetcher).fetch(FetchRequest(url: Self.url, headers: ["Referer": "https://stats.test/"]))
    let sent = try #require(await fetcher.requests.last)
    #expect(sent.headers["User-Agent"]?.hasPrefix("Statline/") == true)
    #expect(sent.headers["Referer"] == "https://stats.test/")
  }

  @Test func a404IsReturnedForTheCallerToJudgeAndIsNotAHostFailure() async throws {
    let fetcher = ScriptedFetcher([Self.robots: [.page(status: 404)]])
    let page = try await polite(fetcher).fetch(FetchRequest(url: Self.url))
    #expect(page.status == 404)
  }
}

@Suite struct ChangeDetectorTests {
  let page = Page(url: "https://x.test/1", headers: ["ETag": "\"v2\""], body: Data("<html>2</html>".utf8))

  @Test func aNotModifiedAnswerIsUnchangedAndRefreshesValidators() {
    let previous = Validators(etag: "\"v1\"", lastModified: "Mon, 16 Feb 2026 00:00:00 GMT", bodyHash: 7)
    let answer = Page(url: "https://x.test/1", status: 304, headers: ["ETag": "\"v1b\""], body: Data())
    #expect(
      ChangeDetector.classify(answer, previous: previous)
        == .unchanged(Validators(etag: "\"v1b\"", lastModified: previous.lastModified, bodyHash: 7)))
  }

  @Test func anIdenticalBodyIsUnchangedAndANewOneIsChanged() {
    let hash = ContentHash.xxh64(page.body)
    guard case .changed(_, let validators) = ChangeDetector.classify(page, previous: Validators()) else {
      Issue.record("a first page is a change")
      return
    }
    #expect(validators == Validators(etag: "\"v2\"", bodyHash: hash))
    #expect(ChangeDetector.classify(page, previous: validators) == .unchanged(validators))
    #expect(validators.request("https://x.test/1").etag == "\"v2\"")
  }
}
