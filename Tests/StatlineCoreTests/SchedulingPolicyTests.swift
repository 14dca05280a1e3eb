import Foundation
import StatlineCore
import Testing

@Suite struct SchedulingPolicyTests {
  let policy = SchedulingPolicy.default
  let now = Date(timeIntervalSince1970: 1_771_000_000)

  func game(_ status: GameStatus, startsIn minutes: Double? = nil) -> Game {
    let start = minutes.map { now.addingTimeInterval($0 * 60) }
    let formatter = ISO8601DateFormatter()
    return Game(
      id: "x:1", sport: .lacrosseMen, status: status, period: status == .live ? 1 : nil,
      startTime: start.map { formatter.string(from: $0) },
      away: TeamLine(team: TeamRef(name: "A")), home: TeamLine(team: TeamRef(name: "B")))
  }

  func next(_ role: Target.Role, _ games: [Game], failures: Int = 0, finalPolls: Int = 0) -> SchedulingPolicy.Decision {
    policy.next(.init(role: role, games: games, now: now, consecutiveFailures: failures, pollsSinceFinal: finalPolls))
  }

  @Test func liveGamesArePolledEvery30Seconds() {
    #expect(next(.game, [game(.live)]) == .after(.seconds(30)))
    #expect(next(.discovery, [game(.final), game(.live), game(.scheduled, startsIn: 600)]) == .after(.seconds(30)))
  }

  @Test func aGameStartingWithin30MinutesIsPolledEvery5Minutes() {
    #expect(next(.game, [game(.scheduled, startsIn: 29)]) == .after(.seconds(300)))
    #expect(next(.game, [game(.scheduled, startsIn: -3)]) == .after(.seconds(300)), "late to start, not live yet")
    #expect(next(.game, [game(.scheduled, startsIn: 31)]) == .after(.seconds(3600)))
  }

  @Test func idleTargetsArePolledHourly() {
    #expect(next(.discovery, []) == .after(.seconds(3600)))
    #expect(next(.game, [game(.scheduled)]) == .after(.seconds(3600)))
    #expect(next(.discovery, [game(.final)]) == .after(.seconds(3600)), "a schedule never stops")
  }

  @Test func aFinalGameGetsAFewMorePollsThenStops() {
    #expect(next(.game, [game(.final)], finalPolls: 0) == .after(.seconds(600)))
    #expect(next(.game, [game(.final)], finalPolls: 2) == .after(.seconds(600)))
    #expect(next(.game, [game(.final)], finalPolls: 3) == .stop)
  }

  @Test func failuresBackOffExponentiallyUpToTheCap() {
    #expect(next(.game, [game(.live)], failures: 1) == .after(.seconds(30)))
    #expect(next(.game, [game(.live)], failures: 2) == .after(.seconds(60)))
    #expect(next(.game, [game(.live)], failures: 4) == .after(.seconds(240)))
    #expect(next(.game, [game(.live)], failures: 40) == .after(.seconds(3600)))
  }

  @Test func jitterStaysWithinTenPercent() {
    #expect(policy.jittered(.seconds(30), unit: 0) == .seconds(27))
    #expect(policy.jittered(.seconds(30), unit: 0.5) == .seconds(30))
    #expect(policy.jittered(.seconds(30), unit: 1) == .seconds(33))
  }

  @Test func targetsHaveStableIds() {
    let target = Target(url: "https://x.test/1", source: "s", parser: "p", role: .game)
    #expect(target.id == "p https://x.test/1")
  }
}
