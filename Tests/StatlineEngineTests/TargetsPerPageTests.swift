import Clocks
import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// A calendar that lists more started games than one poll creates targets for
/// (`maxTargetsPerPage`): its live games' first, the count of the rest reported, and the rest
/// created by its next polls.
@Suite struct TargetsPerPageTests {
  @Test func aPageCreatesAtMostItsCapLiveGamesFirstAndTheRestNextTime() async throws {
    let scoreboard = SchedulerTests.scoreboard
    let games: [TestSource.Record] = [
      .init(id: "1", status: "final", away: 1, home: 2), .init(id: "2", status: "final", away: 3, home: 2),
      .init(id: "3", status: "live", period: 2, away: 0, home: 0), .init(id: "4", status: "final", away: 5, home: 1),
      .init(id: "5", status: "live", period: 1, away: 1, home: 0),
    ]
    let fetcher = ScriptedFetcher([scoreboard.url: [.ok(TestSource.body(games)), .ok(TestSource.body(games))]])
    let clock = TestClock<Duration>()
    var configuration = Scheduler<TestClock<Duration>>.Configuration()
    configuration.maxTargetsPerPage = 3
    let scheduler = Scheduler(
      store: MemoryStore(),
      poller: Poller(fetcher: fetcher, registry: try SourceRegistry(plugins: [TestSource.plugin]), captures: nil),
      clock: JobClock(clock: clock, start: SchedulerTests.t0), configuration: configuration, random: { 0.5 })
    let first = try await scheduler.runOnce(configured: [scoreboard])
    let page = try #require(first.first { $0.target == scoreboard })
    #expect(page.discovered == 3 && page.targetsLeft == 2)
    let created = first.filter { $0.target != scoreboard }.map(\.target.url).sorted()
    #expect(
      created == [
        "\(SchedulerTests.base)/game/1.json", "\(SchedulerTests.base)/game/3.json",
        "\(SchedulerTests.base)/game/5.json",
      ])

    await clock.advance(by: .seconds(30))
    let second = try await scheduler.runOnce(configured: [scoreboard])
    let again = try #require(second.first { $0.target == scoreboard })
    #expect(again.discovered == 2 && again.targetsLeft == 0, "the rest, with the page's next poll")
  }
}
