import Foundation
import StatlineCore
import StatlinePush
import Testing

/// `LiveActivityPlanner`: the update a stored version of a game makes for an activity that
/// follows it (by the canonical id or a source's), stale a little after the next poll, more
/// relevant when close late, an end with a dismissal date once the game is over or off, and
/// nothing for another game, an alert device or a suspended activity.
@Suite struct LiveActivityPlannerTests {
  static let time = Date(timeIntervalSince1970: 1_772_905_000)

  static func activity(following game: String = "game:1") -> Device {
    Device(
      id: "dev_la", kind: .apnsLiveActivity, token: String(repeating: "d4", count: 32), environment: .production,
      topic: "com.example.scores", teams: [], gameId: game, registeredAt: "x", updatedAt: "x")
  }

  static func game(_ away: Int, _ home: Int, period: Int = 2, status: GameStatus = .live) -> Game {
    var game = Game(
      id: "game:1", sport: .lacrosseMen, status: status, period: period, periodLabel: "\(period)",
      clock: status == .live ? "04:06" : nil,
      away: TeamLine(team: TeamRef(id: "team:193", name: "Duke"), score: away),
      home: TeamLine(team: TeamRef(id: "team:457", name: "North Carolina"), score: home))
    game.sources = ["statbroadcast:640303", "ncaa:com-6600103"]
    return game
  }

  @Test func aLiveGameIsAnUpdateStaleAfterTheNextPoll() throws {
    var timing = LiveActivityPlanner.Timing()
    timing.cadence = 30
    let alert = try #require(
      LiveActivityPlanner.plan(Self.game(5, 4), version: 77, for: Self.activity(), at: Self.time, timing: timing))
    let update = try #require(alert.activity)
    #expect(!update.ending && update.dismissalDate == nil)
    #expect(update.state.line == "Duke 5, North Carolina 4 · 2 04:06" && update.state.awayScore == 5)
    #expect(update.staleDate == Self.time.addingTimeInterval(45), "the next poll (30 s) and 15 s")
    #expect(alert.expiresAt == update.staleDate, "a stale update is worth nothing")
    #expect(update.relevance == LiveActivityPlanner.relevanceLive)
    #expect(alert.collapseId == "game:1" && alert.eventId == "ver_77" && alert.deviceId == "dev_la")
  }

  @Test func aCloseGameLateIsMoreRelevant() throws {
    let late = try #require(
      LiveActivityPlanner.plan(Self.game(5, 5, period: 4), version: 1, for: Self.activity(), at: Self.time))
    #expect(late.activity?.relevance == LiveActivityPlanner.relevanceCloseLate)
    let early = try #require(
      LiveActivityPlanner.plan(Self.game(5, 5, period: 1), version: 1, for: Self.activity(), at: Self.time))
    #expect(early.activity?.relevance == LiveActivityPlanner.relevanceLive)
  }

  @Test(arguments: [GameStatus.final, .cancelled, .postponed])
  func aGameOverOrOffEndsTheActivity(_ status: GameStatus) throws {
    let alert = try #require(
      LiveActivityPlanner.plan(Self.game(3, 4, status: status), version: 9, for: Self.activity(), at: Self.time))
    let update = try #require(alert.activity)
    #expect(update.ending)
    #expect(update.dismissalDate == Self.time.addingTimeInterval(30 * 60))
    #expect(alert.expiresAt == Self.time.addingTimeInterval(AlertPlanner.finalLifetime))
    #expect(alert.kind == .final)
  }

  @Test func anActivityRegisteredWithASourceIdFollowsItsCanonicalGame() {
    #expect(
      LiveActivityPlanner.plan(
        Self.game(1, 0), version: 1, for: Self.activity(following: "ncaa:com-6600103"), at: Self.time) != nil)
  }

  @Test func nothingForAnotherGameAnAlertDeviceOrASuspendedActivity() {
    #expect(
      LiveActivityPlanner.plan(Self.game(1, 0), version: 1, for: Self.activity(following: "game:2"), at: Self.time)
        == nil)
    var phone = Self.activity()
    phone.kind = .apns
    #expect(LiveActivityPlanner.plan(Self.game(1, 0), version: 1, for: phone, at: Self.time) == nil)
    var gone = Self.activity()
    gone.suspended = Device.Suspension(kind: .disabled, why: "APNs 410 Unregistered", since: "2026-03-07T00:00:00Z")
    #expect(LiveActivityPlanner.plan(Self.game(1, 0), version: 1, for: gone, at: Self.time) == nil)
  }
}
