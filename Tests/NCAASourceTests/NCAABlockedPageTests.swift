import Clocks
import Foundation
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineTesting
import Testing

/// A wall, a challenge or a login page on stats.ncaa.org goes through the real poller and
/// politeness layer: reported blocked, captured, charged to the host's breaker, never stored.
@Suite struct NCAABlockedPageTests {
  static let url = "https://stats.ncaa.org/contests/6500101/individual_stats"
  static let target = Target(url: url, source: "ncaa", parser: "ncaa-stats-contest-box", role: .game)

  static func body(_ folder: String) throws -> String {
    String(decoding: try NCAAHandWrittenTests.page("ncaa-stats-contest-box/\(folder)").body, as: UTF8.self)
  }

  /// One `statline once` over the target, with the job's politeness (robots off: nothing is scripted for it).
  static func poll(
    _ answers: [ScriptedFetcher.Answer], store: MemoryStore, captures: MemoryCaptures,
    at start: TimeInterval = 1_772_900_000, target: Target = target
  ) async throws -> (
    [PollReport], PoliteFetcher<TestClock<Duration>>, ScriptedFetcher
  ) {
    let scripted = ScriptedFetcher([target.url: answers])
    var configuration = PoliteFetcher<TestClock<Duration>>.Configuration()
    configuration.obeyRobots = false
    let clock = TestClock<Duration>()
    let polite = PoliteFetcher(wrapping: scripted, clock: clock, configuration: configuration, random: { 0.5 })
    var settings = Scheduler<TestClock<Duration>>.Configuration()
    settings.restartSpread = .zero
    let scheduler = Scheduler(
      store: store, poller: Poller(fetcher: polite, registry: NCAARun.registry, captures: captures),
      clock: JobClock(clock: clock, start: Date(timeIntervalSince1970: start)), configuration: settings,
      random: { 0.5 })
    return (try await scheduler.runOnce(configured: [target]), polite, scripted)
  }

  @Test(arguments: [("bot-challenge", 200), ("access-denied", 403), ("login-page", 200)])
  func aBlockedPageIsReportedCapturedAndNeverStored(_ wall: String, _ status: Int) async throws {
    let store = MemoryStore()
    let captures = MemoryCaptures()
    let (reports, polite, scripted) = try await Self.poll(
      [.page(status: status, body: try Self.body(wall))], store: store, captures: captures)
    #expect(reports.map(\.outcome) == [.blocked])
    #expect(await scripted.count(Self.url) == 1, "a wall is never retried")
    #expect(polite.breaker.state("stats.ncaa.org") == .closed(failures: 1), "the breaker counts it")
    #expect(try await store.changes(since: 0, limit: 100).isEmpty, "no game, empty or not, is stored")
    let saved = await captures.saved
    #expect(saved.count == 1 && saved.first?.1.kind == .blocked)
  }

  @Test func aWallAfterAGoodPageKeepsTheLastGoodGame() async throws {
    let store = MemoryStore()
    let captures = MemoryCaptures()
    let good = try Self.body("live-third-quarter")
    _ = try await Self.poll([.ok(good)], store: store, captures: captures)
    let stored = try await store.changes(since: 0, limit: 100)
    #expect(try await store.sourceGame(id: "ncaa:6500101") != nil)
    let canonical = try await store.game(id: "ncaa:6500101")?.id
    #expect(canonical != nil && stored.contains { $0.kind == .game && $0.id == canonical })
    let (reports, _, _) = try await Self.poll(
      [.ok(try Self.body("bot-challenge"))], store: store, captures: captures, at: 1_772_900_060)
    #expect(reports.map(\.outcome) == [.blocked])
    #expect(try await store.changes(since: 0, limit: 100) == stored, "nothing was written over the last good data")
  }
}
