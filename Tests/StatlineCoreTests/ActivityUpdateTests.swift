import Foundation
import StatlineCore
import Testing

/// A Live Activity's updates in its slot (`OutboxSlot.merge` with `ActivityUpdate.after`): the
/// phone is sent only what it would see as new, a clock's tick goes at priority 5 and anything
/// else at 10 (and stays 10 while the urgent one it replaced is unsent), no cap per game, nothing
/// after the end was sent, an older version changes nothing.
@Suite struct ActivityUpdateTests {
  static let start = Date(timeIntervalSince1970: 1_772_900_000)

  static func game(_ away: Int, _ home: Int, period: Int = 2, clock: String? = "10:00", status: GameStatus = .live)
    -> Game
  {
    Game(
      id: "game:1", sport: .lacrosseMen, status: status, period: period, periodLabel: "\(period)",
      clock: status == .final ? nil : clock, away: TeamLine(team: TeamRef(id: "team:193", name: "Duke"), score: away),
      home: TeamLine(team: TeamRef(id: "team:457", name: "North Carolina"), score: home))
  }

  static func alert(_ game: Game, _ version: Int) -> PlannedAlert {
    let ends = game.status == .final
    let update = ActivityUpdate(
      state: LiveActivityState(game: game), ending: ends, priority: ActivityUpdate.urgent,
      timestamp: start.addingTimeInterval(Double(version)), staleDate: start.addingTimeInterval(45), relevance: 50)
    return PlannedAlert(
      deviceId: "dev_1", eventId: "ver_\(version)", kind: ends ? .final : .score, body: update.state.line,
      threadId: "game:1", collapseId: "game:1", expiresAt: start.addingTimeInterval(45), silent: false, data: [:],
      activity: update)
  }

  static func sent(_ slot: OutboxSlot) -> OutboxSlot { slot.finished(version: slot.version) }

  @Test func aClockTickGoesAtFiveAndAScorePeriodOrStatusAtTen() throws {
    let first = try #require(OutboxSlot.merge(nil, Self.alert(Self.game(1, 0), 10), sequence: 10))
    #expect(first.alert.activity?.priority == 10, "the phone's first update: what it shows is not known")
    let tick = try #require(
      OutboxSlot.merge(Self.sent(first), Self.alert(Self.game(1, 0, clock: "09:30"), 11), sequence: 11))
    #expect(tick.alert.activity?.priority == 5)
    let goal = try #require(
      OutboxSlot.merge(Self.sent(tick), Self.alert(Self.game(1, 1, clock: "09:00"), 12), sequence: 12))
    #expect(goal.alert.activity?.priority == 10)
    let period = try #require(
      OutboxSlot.merge(Self.sent(goal), Self.alert(Self.game(1, 1, period: 3, clock: "15:00"), 13), sequence: 13))
    #expect(period.alert.activity?.priority == 10)
    let final = try #require(
      OutboxSlot.merge(Self.sent(period), Self.alert(Self.game(1, 1, period: 3, status: .final), 14), sequence: 14))
    #expect(final.alert.activity?.ending == true && final.alert.activity?.priority == 10)
  }

  @Test func nothingGoesWhenThePhoneWouldSeeNothingNewOrTheActivityHasEnded() throws {
    let first = Self.sent(try #require(OutboxSlot.merge(nil, Self.alert(Self.game(1, 0), 10), sequence: 10)))
    #expect(
      OutboxSlot.merge(first, Self.alert(Self.game(1, 0), 11), sequence: 11) == nil,
      "a new version of the game with the same score, period, clock and status (its venue, a box score)")
    #expect(OutboxSlot.merge(first, Self.alert(Self.game(2, 0), 9), sequence: 9) == nil, "an older version")
    let end = Self.sent(
      try #require(OutboxSlot.merge(first, Self.alert(Self.game(1, 0, status: .final), 12), sequence: 12)))
    #expect(
      OutboxSlot.merge(end, Self.alert(Self.game(2, 0, status: .final), 13), sequence: 13) == nil,
      "a corrected final after the end was sent: the activity is gone")
  }

  @Test func aTickReplacingAnUnsentScoreStaysUrgentAndThereIsNoCap() throws {
    let sent = Self.sent(try #require(OutboxSlot.merge(nil, Self.alert(Self.game(1, 0), 10), sequence: 10)))
    let goal = try #require(OutboxSlot.merge(sent, Self.alert(Self.game(2, 0, clock: "09:50"), 11), sequence: 11))
    let tick = try #require(OutboxSlot.merge(goal, Self.alert(Self.game(2, 0, clock: "09:20"), 12), sequence: 12))
    #expect(tick.pending && tick.alert.activity?.priority == 10, "the phone has not had the goal yet")
    #expect(tick.alert.activity?.state.awayScore == 2 && tick.alert.activity?.state.clock == "09:20")

    var slot = Self.sent(tick)
    for tickNumber in 1...40 {
      let clock = String(format: "%02d:%02d", 8 - tickNumber / 6, (tickNumber % 6) * 10)
      slot = Self.sent(
        try #require(
          OutboxSlot.merge(
            slot, Self.alert(Self.game(2, 0, clock: clock), 12 + tickNumber), sequence: Int64(12 + tickNumber), cap: 3),
          "update \(tickNumber) under a cap of 3"))
    }
    #expect(slot.queued == 43)
  }

  @Test func onlyTheClockIsTheClock() {
    let base = LiveActivityState(game: Self.game(1, 0))
    #expect(LiveActivityState(game: Self.game(1, 0, clock: "09:00")).differsOnlyInClock(from: base))
    #expect(!LiveActivityState(game: Self.game(1, 1, clock: "09:00")).differsOnlyInClock(from: base))
    #expect(!base.differsOnlyInClock(from: base), "no change is no clock change")
  }
}
