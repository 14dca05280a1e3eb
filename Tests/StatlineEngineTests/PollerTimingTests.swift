import Foundation
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// What the poller reports about when the site answered, which the schedule counts from.
@Suite struct PollerTimingTests {
  static let t0 = Date(timeIntervalSince1970: 1_771_200_000)
  static let target = Target(url: "http://stats.test/game/1.json", source: "test", parser: "test-game", role: .game)

  /// A clock that moves one second each time it is read.
  static func ticking() -> @Sendable () -> Date {
    let reads = Locked(0)
    return {
      Self.t0.addingTimeInterval(
        Double(
          reads.withLock {
            $0 += 1
            return $0
          }))
    }
  }

  @Test(arguments: [
    ScriptedFetcher.Answer.ok(TestSource.body([.init(id: "1", status: "live", period: 1, away: 0, home: 0)])),
    .failure(StatlineError(.network, "connection refused", location: "http://stats.test")),
  ])
  func theAnswerTimeIsTakenWhenTheFetchEnds(_ answer: ScriptedFetcher.Answer) async throws {
    let poller = Poller(
      fetcher: ScriptedFetcher([Self.target.url: [answer]]),
      registry: try SourceRegistry(plugins: [TestSource.plugin]), captures: nil)
    let result = await poller.poll(TargetState(target: Self.target, nextDue: Self.t0), now: Self.ticking())
    // Read 1: the fetch starts; read 2: it ends. Later reads (parsing) do not move it.
    #expect(result.answeredAt == Self.t0.addingTimeInterval(2))
    #expect(result.fetchDuration == .seconds(1))
  }

  /// A target found with a sport hands it to its page, for a parser whose page does not say it.
  @Test func theTargetsSportReachesItsPage() async throws {
    var target = Self.target
    target.sport = .soccerWomen
    let poller = Poller(
      fetcher: ScriptedFetcher([target.url: [.ok(TestSource.body([.init(id: "1", status: "live", period: 1)]))]]),
      registry: try SourceRegistry(plugins: [TestSource.plugin]), captures: nil)
    let result = await poller.poll(TargetState(target: target, nextDue: Self.t0), now: Self.ticking())
    guard case .stored(let screened, _) = result.kind else {
      Issue.record("not stored: \(result.kind)")
      return
    }
    let batch = screened.batch
    #expect(batch.games.first?.sport == .soccerWomen)
  }
}
