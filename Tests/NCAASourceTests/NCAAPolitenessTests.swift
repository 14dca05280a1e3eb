import Clocks
import Foundation
import NCAASource
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// stats.ncaa.org deny-lists fast clients (STRUCTURE.md §5c): by default Statline sends it at
/// most one request at a time, 5 s apart.
@Suite struct NCAAPolitenessTests {
  @Test func statsNCAAOrgGetsOneRequestEveryFiveSeconds() async throws {
    let urls = (1...2).map { "https://stats.ncaa.org/contests/650010\($0)/individual_stats" }
    let scripted = ScriptedFetcher(Dictionary(uniqueKeysWithValues: urls.map { ($0, [.ok("<html></html>")]) }))
    var configuration = PoliteFetcher<TestClock<Duration>>.Configuration()
    configuration.hostOverrides = NCAASource.facts.hostLimits
    configuration.obeyRobots = false
    let clock = TestClock<Duration>()
    let polite = PoliteFetcher(wrapping: scripted, clock: clock, configuration: configuration, random: { 0.5 })
    let tasks = urls.map { url in Task { try await polite.fetch(FetchRequest(url: url)) } }
    while await scripted.requests.count < 1 { await Task.yield() }
    for _ in 0..<500 { await Task.yield() }
    #expect(await scripted.requests.count == 1, "the second request waits")
    await clock.advance(by: .milliseconds(4_999))
    for _ in 0..<500 { await Task.yield() }
    #expect(await scripted.requests.count == 1)
    await clock.advance(by: .milliseconds(1))
    for task in tasks { _ = try await task.value }
    #expect(await scripted.requests.count == 2)
  }
}
