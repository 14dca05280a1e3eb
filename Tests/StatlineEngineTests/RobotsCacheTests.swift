import Clocks
import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineEngine

/// robots.txt as RFC 9309 asks a crawler to keep it: per origin, re-read daily, a failed read
/// retried on a backoff (a good file read before standing meanwhile), and bounded.
@Suite struct RobotsCacheTests {
  static let page = "https://stats.test/contests/1/box_score"
  static let robots = "https://stats.test/robots.txt"

  func rules(_ cache: RobotsCache<TestClock<Duration>>, _ fetcher: ScriptedFetcher, _ url: String = page) async
    -> RobotsCache<TestClock<Duration>>.Rules
  {
    await cache.rules(for: url) { request in try await fetcher.fetch(request) }
  }

  @Test func aFailedReadIsRetriedOnABackoffNotKeptForTheLifeOfTheJob() async throws {
    let clock = TestClock()
    let cache = RobotsCache(clock: clock)
    let fetcher = ScriptedFetcher([
      Self.robots: [.page(status: 503), .page(status: 503), .ok("User-agent: *\nDisallow: /private/\n")]
    ])
    guard case .disallowAll(let reason) = await rules(cache, fetcher) else {
      Issue.record("a 503 must keep Statline out")
      return
    }
    #expect(reason.contains("HTTP 503"))
    await clock.advance(by: .seconds(59))
    _ = await rules(cache, fetcher)
    #expect(await fetcher.count(Self.robots) == 1, "within the first minute the failure stands")
    await clock.advance(by: .seconds(1))
    guard case .disallowAll = await rules(cache, fetcher) else {
      Issue.record("the second 503")
      return
    }
    #expect(await fetcher.count(Self.robots) == 2, "asked again after a minute")
    await clock.advance(by: .seconds(119))
    _ = await rules(cache, fetcher)
    #expect(await fetcher.count(Self.robots) == 2, "then after two minutes: the wait doubles")
    await clock.advance(by: .seconds(1))
    guard case .file(let file) = await rules(cache, fetcher) else {
      Issue.record("the file, once it answers")
      return
    }
    #expect(!file.isAllowed("/private/x", userAgent: "Statline/1") && file.isAllowed("/contests/1", userAgent: "S/1"))
  }

  @Test func aGoodFileIsReadAgainAfterADayAndStandsWhileTheSiteCannotAnswer() async throws {
    let clock = TestClock()
    let cache = RobotsCache(clock: clock)
    let fetcher = ScriptedFetcher([
      Self.robots: [.ok("User-agent: *\nDisallow: /a/\n"), .page(status: 500), .ok("User-agent: *\nDisallow: /b/\n")]
    ])
    guard case .file = await rules(cache, fetcher) else {
      Issue.record("the first file")
      return
    }
    await clock.advance(by: .seconds(24 * 3600 - 1))
    _ = await rules(cache, fetcher)
    #expect(await fetcher.count(Self.robots) == 1, "good for a day")
    await clock.advance(by: .seconds(1))
    guard case .file(let kept) = await rules(cache, fetcher) else {
      Issue.record("a 500 after a good file keeps the good file")
      return
    }
    #expect(await fetcher.count(Self.robots) == 2)
    #expect(!kept.isAllowed("/a/1", userAgent: "Statline/1"))
    await clock.advance(by: .seconds(60))
    guard case .file(let fresh) = await rules(cache, fetcher) else {
      Issue.record("the new file")
      return
    }
    #expect(fresh.isAllowed("/a/1", userAgent: "Statline/1") && !fresh.isAllowed("/b/1", userAgent: "Statline/1"))
  }

  @Test func eachPortIsAnOriginOfItsOwn() async throws {
    let cache = RobotsCache(clock: TestClock())
    let fetcher = ScriptedFetcher([
      Self.robots: [.page(status: 404)],
      "https://stats.test:8443/robots.txt": [.ok("User-agent: *\nDisallow: /\n")],
    ])
    #expect(await rules(cache, fetcher) == .allowAll)
    guard case .file(let other) = await rules(cache, fetcher, "https://stats.test:8443/contests/1") else {
      Issue.record("the second port's own file")
      return
    }
    #expect(!other.isAllowed("/contests/1", userAgent: "Statline/1"))
    #expect(await fetcher.count("https://stats.test:8443/robots.txt") == 1)
    #expect(RobotsURL.origin("HTTPS://Stats.Test:8443/x") == "https://stats.test:8443")
  }

  @Test func aHugeFileIsReadToItsFirst500KiBAndItsRulesAreBounded() async throws {
    // 14 MB of wildcard rules, as a hostile host served: only the head is read, and only so
    // many of its rules are kept.
    let rule = "Disallow: /*a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*\n"
    let body = "User-agent: *\nDisallow: /private/\n" + String(repeating: rule, count: 14_000_000 / rule.count)
    let bounds = Locked<[RobotsBound]>([])
    let cache = RobotsCache(clock: TestClock(), userAgent: "Statline/1") { bound in bounds.withLock { $0.append(bound) }
    }
    let fetcher = ScriptedFetcher([Self.robots: [.page(status: 200, body: body)]])
    guard case .file(let file) = await rules(cache, fetcher) else {
      Issue.record("the file")
      return
    }
    let read = RobotsCache<TestClock<Duration>>.readable(Data(body.utf8))
    #expect(read.utf8.count <= RobotsCache<TestClock<Duration>>.maxBytes && read.hasSuffix("\n"))
    #expect(file.ignoredRules == read.split(separator: "\n").count - 1 - RobotsTxt.maxRules)
    #expect(
      bounds.withLock { $0 } == [
        .fileCut(origin: "https://stats.test", bytes: body.utf8.count),
        .rulesIgnored(origin: "https://stats.test", count: file.ignoredRules),
      ], "each bound told once, naming the origin")
    #expect(!file.isAllowed("/private/1", userAgent: "Statline/1"), "the rules before the bound hold")
    #expect(file.isAllowed("/zzz", userAgent: "Statline/1"))
    let long = RobotsTxt("User-agent: *\nDisallow: /" + String(repeating: "x", count: RobotsTxt.maxPattern) + "\n")
    #expect(long.ignoredRules == 1)
  }

  /// A file whose rules cost more than the budget to match a URL: that URL is `tooCostly` (the
  /// fetcher refuses it), said once per URL, and a URL an early rule decides costs little.
  @Test func aURLTooCostlyToMatchIsRefusedAndTold() async throws {
    // Rules that each scan the whole path and fail at the end: thousands of them.
    let rule = "Disallow: /*a*b*c*d*e*f*g*h*i*j*k*l*m*n*o*p*q*r*s*t*u*v*w*x*y*z*\n"
    let body = "User-agent: *\nDisallow: /private/\n" + String(repeating: rule, count: 7_000)
    let bounds = Locked<[RobotsBound]>([])
    let cache = RobotsCache(clock: TestClock(), userAgent: "Statline/1") { bound in bounds.withLock { $0.append(bound) }
    }
    let fetcher = ScriptedFetcher([Self.robots: [.page(status: 200, body: body)]])
    let long = "https://stats.test/" + String(repeating: "abcdefghijklmnopqrstuvwxy", count: 20)
    let (_, verdict) = await cache.verdict(for: long) { try await fetcher.fetch($0) }
    #expect(verdict == .tooCostly)
    #expect(bounds.withLock { $0 } == [.tooCostly(origin: "https://stats.test")])
    let (_, early) = await cache.verdict(for: "https://stats.test/private/1") {
      try await fetcher.fetch($0)
    }
    #expect(early == .disallowed, "decided by its longest matching rule before the budget runs out")
    #expect(await fetcher.count(Self.robots) == 1)
  }
}
