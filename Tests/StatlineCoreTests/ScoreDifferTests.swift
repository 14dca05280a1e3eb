import StatlineCore
import Testing

/// The score differ on scripted game timelines: every event kind, in order.
@Suite struct ScoreDifferTests {
  static func game(
    _ status: GameStatus, period: Int? = nil, _ away: Int? = nil, _ home: Int? = nil, clock: String? = nil,
    label: String? = nil
  ) -> Game {
    Game(
      id: "ncaa:1", sport: .lacrosseMen, status: status, period: period, periodLabel: label, clock: clock,
      away: TeamLine(team: TeamRef(id: "ncaa:duke", name: "Duke"), score: away),
      home: TeamLine(team: TeamRef(id: "ncaa:uva", name: "Virginia"), score: home))
  }

  static func goal(
    _ sequence: Int, _ side: Side, _ away: Int, _ home: Int, period: Int, clock: String, _ player: String
  )
    -> Play
  {
    Play(
      gameId: "ncaa:1", sequence: sequence, period: period, clock: clock, side: side, type: .goal,
      text: "GOAL by X \(player)", player: player, assist: side == .home ? "Helper" : nil, awayScore: away,
      homeScore: home, details: ["manUp": "true"])
  }

  func kinds(_ events: [ChangeEvent]) -> [String] {
    events.map { event in
      let score = event.awayScore.map { "\($0)-\(event.homeScore ?? 0)" } ?? "-"
      return "\(event.type.rawValue.dropFirst(5)) \(score) p\(event.period.map(String.init) ?? "-")"
    }
  }

  @Test func aGameFoundInProgressIsOneDiscoveryWithItsState() {
    let events = ScoreDiffer.events(previous: nil, current: Self.game(.live, period: 3, 5, 3, clock: "07:12"))
    #expect(kinds(events) == ["discovered 5-3 p3"])
    #expect(events[0].clock == "07:12" && events[0].status == .live && events[0].away?.name == "Duke")
  }

  @Test func aScheduledGameStartsThenScores() {
    let scheduled = Self.game(.scheduled)
    let started = Self.game(.live, period: 1, 0, 0, clock: "15:00")
    #expect(kinds(ScoreDiffer.events(previous: scheduled, current: started)) == ["started 0-0 p1"])
    let scored = Self.game(.live, period: 1, 1, 0, clock: "12:00")
    let events = ScoreDiffer.events(
      previous: started, current: scored, plays: [Self.goal(3, .away, 1, 0, period: 1, clock: "12:31", "Ty Sowers")])
    #expect(kinds(events) == ["goal 1-0 p1"])
    #expect(events[0].side == .away && events[0].player == "Ty Sowers" && events[0].clock == "12:31")
    #expect(events[0].details == ["manUp": "true"])
  }

  @Test func aTwoGoalJumpIsTwoGoalsInThePlaysOrder() {
    let before = Self.game(.live, period: 2, 2, 2, clock: "10:00")
    let after = Self.game(.live, period: 2, 3, 3, clock: "06:00")
    let plays = [
      Self.goal(20, .home, 2, 3, period: 2, clock: "09:10", "Jack Lane"),
      Self.goal(24, .away, 3, 3, period: 2, clock: "07:45", "Ty Sowers"),
    ]
    let events = ScoreDiffer.events(previous: before, current: after, plays: plays, lastLeader: .away)
    #expect(kinds(events) == ["goal 2-3 p2", "leadChange 2-3 p2", "goal 3-3 p2", "tied 3-3 p2"])
    #expect(events.filter { $0.type == .goal }.map(\.player) == ["Jack Lane", "Ty Sowers"])
    #expect(events[1].side == .home && events[1].player == nil)
  }

  @Test func withoutPlaysAJumpIsAwayGoalsThenHomeGoalsWithNoScorer() {
    let events = ScoreDiffer.events(
      previous: Self.game(.live, period: 1, 0, 0), current: Self.game(.live, period: 1, 2, 1, clock: "03:00"))
    #expect(kinds(events) == ["goal 1-0 p1", "goal 2-0 p1", "goal 2-1 p1"])
    #expect(events.allSatisfy { $0.player == nil && $0.clock == "03:00" })
  }

  @Test func aPlayWhoseRunningScoreDoesNotFitIsNeverUsedToNameTheScorer() {
    let events = ScoreDiffer.events(
      previous: Self.game(.live, period: 1, 0, 0), current: Self.game(.live, period: 1, 1, 0),
      plays: [Self.goal(3, .away, 2, 0, period: 1, clock: "12:00", "Wrong Score")])
    #expect(kinds(events) == ["goal 1-0 p1"] && events[0].player == nil)
  }

  @Test func periodsAndGoalsComeInTheOrderTheyHappened() {
    let before = Self.game(.live, period: 1, 0, 0, clock: "05:00")
    let after = Self.game(.live, period: 3, 1, 1, clock: "14:00", label: "3rd")
    let plays = [
      Self.goal(8, .away, 1, 0, period: 1, clock: "01:00", "Ty Sowers"),
      Self.goal(30, .home, 1, 1, period: 3, clock: "14:30", "Jack Lane"),
    ]
    let events = ScoreDiffer.events(previous: before, current: after, plays: plays)
    #expect(
      kinds(events) == [
        "goal 1-0 p1", "periodEnded 1-1 p1", "periodStarted 1-1 p2", "periodEnded 1-1 p2", "periodStarted 1-1 p3",
        "goal 1-1 p3", "tied 1-1 p3",
      ])
    #expect(events[4].periodLabel == "3rd" && events[2].periodLabel == nil)
  }

  @Test func overtimeStartsPastRegulation() {
    let events = ScoreDiffer.events(
      previous: Self.game(.live, period: 4, 7, 7, clock: "00:00"),
      current: Self.game(.live, period: 5, 7, 7, clock: "04:00", label: "OT"))
    #expect(kinds(events) == ["periodEnded 7-7 p4", "periodStarted 7-7 p5", "overtime 7-7 p5"])
    var basketball = Self.game(.live, period: 3, 60, 60)
    basketball.sport = .basketballMen
    var half = Self.game(.live, period: 2, 58, 58)
    half.sport = .basketballMen
    #expect(kinds(ScoreDiffer.events(previous: half, current: basketball)).contains("overtime 60-60 p3"))
  }

  @Test func aGoalInOvertimeEndsTheGameFinal() throws {
    let events = ScoreDiffer.events(
      previous: Self.game(.live, period: 5, 7, 7, clock: "02:00"),
      current: Self.game(.final, period: 5, 7, 8, label: "Final"),
      plays: [Self.goal(200, .home, 7, 8, period: 5, clock: "01:07", "Connor Shellenberger")])
    #expect(kinds(events) == ["goal 7-8 p5", "final 7-8 p5"], "no one led before the tie: no lead change")
    let final = try #require(events.last)
    #expect(final.side == .home && final.previous?.status == .live)
  }

  @Test func aCorrectionAfterFinalIsOneCorrectedEventNotAGoal() {
    let events = ScoreDiffer.events(
      previous: Self.game(.final, period: 4, 5, 4), current: Self.game(.final, period: 4, 5, 5))
    #expect(kinds(events) == ["corrected 5-5 p4"])
    #expect(events[0].previous?.homeScore == 4)
    let takenBack = ScoreDiffer.events(
      previous: Self.game(.live, period: 2, 3, 2), current: Self.game(.live, period: 2, 2, 2))
    #expect(kinds(takenBack) == ["corrected 2-2 p2"], "a goal taken back")
  }

  @Test func aPostponementIsAStatusEventAndAGameSeenOnlyScheduledThenFinalHasNoGoals() {
    #expect(
      kinds(ScoreDiffer.events(previous: Self.game(.scheduled), current: Self.game(.postponed))) == ["status - p-"])
    let final = ScoreDiffer.events(previous: Self.game(.scheduled), current: Self.game(.final, period: 4, 12, 9))
    #expect(kinds(final) == ["final 12-9 p4"] && final[0].side == .away)
  }

  /// A calendar row between periods ("END 3RD") is `unknown` with a score: the game is still
  /// followed, so goals scored before the next sighting are not lost if that sighting is final.
  @Test func aScoredGameInAnUnexplainedStateIsStillFollowedAndNeverStartsAgain() {
    let live = Self.game(.live, period: 3, 1, 0, clock: "01:00")
    let between = Self.game(.unknown, 1, 0)
    #expect(
      ScoreDiffer.events(previous: live, current: between).isEmpty,
      "a period break: no game.status at every break (issue 33)")
    #expect(kinds(ScoreDiffer.events(previous: between, current: Self.game(.live, period: 4, 1, 0))).isEmpty)
    // Break after break, the game is followed and says nothing until something happens.
    let nextBreak = Self.game(.unknown, 2, 0)
    #expect(
      kinds(ScoreDiffer.events(previous: Self.game(.live, period: 4, 1, 0), current: nextBreak)) == ["goal 2-0 p-"])
    #expect(
      kinds(ScoreDiffer.events(previous: Self.game(.live, period: 2, 0, 0), current: Self.game(.unknown))) == [
        "status - p-"
      ], "unknown without a score is a status")
    let final = ScoreDiffer.events(previous: between, current: Self.game(.final, period: 4, 3, 1))
    #expect(kinds(final) == ["goal 2-0 p4", "goal 3-0 p4", "goal 3-1 p4", "final 3-1 p4"])
    // Without a score, `unknown` is not a game in progress: going live is its start.
    let unscored = Self.game(.unknown)
    #expect(
      kinds(ScoreDiffer.events(previous: unscored, current: Self.game(.live, period: 1, 0, 0))) == ["started 0-0 p1"])
    #expect(
      kinds(ScoreDiffer.events(previous: unscored, current: Self.game(.final, period: 4, 3, 1))) == ["final 3-1 p4"])
  }

  /// A game first seen scheduled whose next sighting is a calendar row between periods has
  /// started: its goals so far are derived there, and going live or final after it adds only
  /// the goals scored since (no second start, no lost goal).
  @Test func aScheduledGameFirstSeenInProgressBetweenPeriodsStartsThere() {
    let scheduled = Self.game(.scheduled)
    let between = Self.game(.unknown, 1, 0)
    #expect(
      kinds(ScoreDiffer.events(previous: scheduled, current: between)) == ["started 1-0 p-", "goal 1-0 p-"])
    #expect(
      kinds(ScoreDiffer.events(previous: between, current: Self.game(.live, period: 2, 2, 0))) == ["goal 2-0 p2"])
    #expect(
      kinds(ScoreDiffer.events(previous: between, current: Self.game(.final, period: 4, 1, 1))) == [
        "goal 1-1 p4", "tied 1-1 p4", "final 1-1 p4",
      ])
  }

  @Test func aClockTickOrAnUnchangedGameGivesNothing() {
    let before = Self.game(.live, period: 2, 3, 2, clock: "10:00")
    #expect(ScoreDiffer.events(previous: before, current: Self.game(.live, period: 2, 3, 2, clock: "09:30")).isEmpty)
    #expect(ScoreDiffer.events(previous: before, current: before).isEmpty)
  }

  @Test func theLastLeaderComesFromTheNewestUntiedScore() {
    var goal = ChangeEvent(.goal, game: Self.game(.live, period: 1, 2, 2))
    var earlier = ChangeEvent(.goal, game: Self.game(.live, period: 1, 1, 2))
    #expect(ScoreDiffer.lastLeader(newestFirst: [goal, earlier]) == .home)
    goal.awayScore = nil
    earlier.awayScore = 3
    #expect(ScoreDiffer.lastLeader(newestFirst: [goal, earlier]) == .away)
  }

  /// More goals than one poll tells one by one with no plays (a job down for a half, a page gone
  /// wrong) are one `game.scoreJumped` after the goals the plays do tell, with the score before
  /// the jump; up to the limit they are goals as ever.
  @Test func aJumpBeyondTheLimitIsOneEventAfterThePlaysGoals() {
    let before = Self.game(.live, period: 2, 1, 1, clock: "10:00")
    let limit = ScoreDiffer.unexplainedGoalLimit
    let within = ScoreDiffer.events(previous: before, current: Self.game(.live, period: 2, 1 + limit, 1))
    #expect(within.filter { $0.type == .goal }.count == limit && !within.contains { $0.type == .scoreJumped })

    let plays = [Self.goal(7, .away, 2, 1, period: 2, clock: "09:00", "Ty Sowers")]
    let after = Self.game(.live, period: 2, 2 + limit, 2, clock: "01:00")
    let events = ScoreDiffer.events(previous: before, current: after, plays: plays, lastLeader: .home)
    #expect(kinds(events) == ["goal 2-1 p2", "leadChange 2-1 p2", "scoreJumped \(2 + limit)-2 p2"])
    #expect(events[0].player == "Ty Sowers")
    let jumped = events[2]
    #expect(jumped.previous?.awayScore == 2 && jumped.previous?.homeScore == 1 && jumped.previous?.status == .live)
    #expect(jumped.details == ["goals": String(limit + 1)] && jumped.side == nil)
  }
}
