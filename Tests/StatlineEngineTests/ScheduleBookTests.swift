import Foundation
import StatlineEngine
import StatlineTesting
import Testing

@testable import StatlineCore

@Suite struct ScheduleBookTests {
  static let t0 = Date(timeIntervalSince1970: 1_771_200_000)
  static let scoreboard = Target(
    url: "http://h/scoreboard", source: "test", parser: "test-scoreboard", role: .discovery)

  static func game(_ id: String, _ status: GameStatus) -> Game {
    Game(
      id: "test:\(id)", sport: .lacrosseMen, status: status, period: status == .live ? 2 : nil,
      away: TeamLine(team: TeamRef(name: "A")), home: TeamLine(team: TeamRef(name: "H")))
  }

  static func discovered(_ ids: [String]) -> [DiscoveredTarget] {
    ids.map {
      DiscoveredTarget(
        gameId: "test:\($0)",
        target: Target(url: "http://h/game/\($0).json", source: "test", parser: "test-game", role: .game))
    }
  }

  static func stored(_ games: [Game], discover: [String] = []) -> Poller.Result {
    Poller.Result(
      kind: .stored(screened(Batch(games: games)), discovered: discovered(discover)), status: 200, bodyHash: 1)
  }

  /// A batch as the pipeline hands it on, taken as screened: these tests are of the schedule
  /// (their games need not be whole).
  static func screened(_ batch: Batch) -> ScreenedBatch { ScreenedBatch(checked: batch) }

  /// `sports:` in the configuration: a game of another sport gets no game target.
  @Test func discoveryCreatesGameTargetsOnlyForTheConfiguredSports() {
    var book = ScheduleBook(states: [], sports: [.lacrosseMen])
    _ = book.seed([Self.scoreboard], now: Self.t0)
    var basketball = Self.game("2", .live)
    basketball.sport = .basketballWomen
    let applied = book.apply(
      Self.stored([Self.game("1", .live), basketball], discover: ["1", "2"]), to: Self.scoreboard.id, now: Self.t0,
      unit: { 0.5 })
    #expect(applied.discovered == 1)
    #expect(applied.commit.states.map(\.target.url) == ["http://h/scoreboard", "http://h/game/1.json"])
  }

  @Test func discoveryCreatesGameTargetsOnlyForLiveAndFinalGames() {
    var book = ScheduleBook(states: [])
    _ = book.seed([Self.scoreboard], now: Self.t0)
    let applied = book.apply(
      Self.stored(
        [Self.game("1", .live), Self.game("2", .scheduled), Self.game("3", .final)], discover: ["1", "2", "3"]),
      to: Self.scoreboard.id, now: Self.t0, unit: { 0.5 })
    #expect(applied.discovered == 2)
    #expect(
      applied.commit.states.map(\.target.url) == [
        "http://h/scoreboard", "http://h/game/1.json", "http://h/game/3.json",
      ])
    #expect(
      applied.commit.states.dropFirst().allSatisfy { $0.nextDue == Self.t0 && $0.discoveredBy == Self.scoreboard.id })
    #expect(applied.state.nextDue == Self.t0.addingTimeInterval(30), "a scoreboard holding a live game polls at 30 s")
  }

  /// A live game's next poll is 30 s after the site answered, however long the result then
  /// waited to be stored: a store that takes 3 s per commit must not make every poll 33 s.
  @Test func theNextPollCountsFromTheSitesAnswerNotFromTheStoredResult() {
    var book = ScheduleBook(states: [])
    let target = Target(url: "http://h/game/1.json", source: "test", parser: "test-game", role: .game)
    _ = book.seed([target], now: Self.t0)
    var answered = Self.stored([Self.game("1", .live)])
    answered.answeredAt = Self.t0.addingTimeInterval(1)
    let late = book.apply(answered, to: target.id, now: Self.t0.addingTimeInterval(4), unit: { 0.5 })
    #expect(late.state.nextDue == Self.t0.addingTimeInterval(31))
    #expect(late.state.lastPolled == Self.t0.addingTimeInterval(4))
    let unanswered = book.apply(Self.stored([Self.game("1", .live)]), to: target.id, now: Self.t0, unit: { 0.5 })
    #expect(unanswered.state.nextDue == Self.t0.addingTimeInterval(30), "no request made: counted from now")
    var skewed = Self.stored([Self.game("1", .live)])
    skewed.answeredAt = Self.t0.addingTimeInterval(9)
    #expect(
      book.apply(skewed, to: target.id, now: Self.t0, unit: { 0.5 }).state.nextDue == Self.t0.addingTimeInterval(30),
      "never later than now + the cadence")
  }

  @Test func aTeamListCreatesScheduleTargetsAtOnceWithoutGames() {
    var book = ScheduleBook(states: [])
    let list = Target(url: "http://h/teams", source: "test", parser: "test-team-list", role: .discovery)
    _ = book.seed([list], now: Self.t0)
    let schedule = Target(url: "http://h/teams/7", source: "test", parser: "test-schedule", role: .discovery)
    let result = Poller.Result(
      kind: .stored(
        Self.screened(Batch(teams: [Team(id: "test:7", name: "Seven")])),
        discovered: [DiscoveredTarget(discovery: schedule)]),
      status: 200, bodyHash: 1)
    let applied = book.apply(result, to: list.id, now: Self.t0, unit: { 0.5 })
    #expect(applied.discovered == 1)
    #expect(applied.commit.states.map(\.target.url) == ["http://h/teams", "http://h/teams/7"])
    #expect(applied.commit.states.last?.gameId == nil && applied.commit.states.last?.discoveredBy == list.id)
    let again = book.apply(result, to: list.id, now: Self.t0.addingTimeInterval(3600), unit: { 0.5 })
    #expect(again.discovered == 0, "a schedule the book knows is not created twice")
  }

  @Test func aPageConfiguredAsAGamePageFindsNoTargets() {
    // A scoreboard watched as a live feed of its own games (`role: game`): what its parser
    // could discover is not followed.
    var book = ScheduleBook(states: [])
    let board = Target(url: "http://h/scoreboard", source: "test", parser: "test-scoreboard", role: .game)
    _ = book.seed([board], now: Self.t0)
    let game = Target(url: "http://h/game/1", source: "test", parser: "test-game", role: .game)
    let result = Poller.Result(
      kind: .stored(
        Self.screened(Batch(teams: [Team(id: "test:7", name: "Seven")])),
        discovered: [DiscoveredTarget(discovery: game)]),
      status: 200, bodyHash: 1)
    let applied = book.apply(result, to: board.id, now: Self.t0, unit: { 0.5 })
    #expect(applied.discovered == 0 && applied.commit.states.map(\.target.url) == ["http://h/scoreboard"])
  }

  @Test func aParserStoresOnlyTheKindsItIsTheAuthorityForButIsScheduledByItsGames() {
    var book = ScheduleBook(states: [])
    let plays = Target(url: "http://h/game/1/plays", source: "test", parser: "test-plays", role: .game)
    _ = book.seed([plays], now: Self.t0)
    let play = Play(gameId: "test:1", sequence: 1, type: .goal, text: "GOAL")
    var result = Poller.Result(
      kind: .stored(Self.screened(Batch(games: [Self.game("1", .live)], plays: [play])), discovered: []), status: 200,
      bodyHash: 1)
    result.stores = [.play]
    let applied = book.apply(result, to: plays.id, now: Self.t0, unit: { 0.5 })
    #expect(applied.commit.batch?.games.isEmpty == true && applied.commit.batch?.plays == [play])
    #expect(applied.state.games.map(\.id) == ["test:1"], "the schedule still reads the page's game")
    #expect(applied.state.nextDue == Self.t0.addingTimeInterval(30), "so a live game's plays poll every 30 s")
  }

  @Test func aFinishedGameTargetPollsThreeMoreTimesThenRetiresAndIsNeverRevived() {
    var book = ScheduleBook(states: [])
    _ = book.seed([Self.scoreboard], now: Self.t0)
    _ = book.apply(
      Self.stored([Self.game("1", .live)], discover: ["1"]), to: Self.scoreboard.id, now: Self.t0, unit: { 0.5 })
    let game = "test-game http://h/game/1.json"
    var now = Self.t0
    var dues: [Date?] = []
    for status in [GameStatus.live, .final, .final, .final, .final] {
      dues.append(book.apply(Self.stored([Self.game("1", status)]), to: game, now: now, unit: { 0.5 }).state.nextDue)
      now = now.addingTimeInterval(600)
    }
    #expect(dues[0] == Self.t0.addingTimeInterval(30))
    #expect(dues[1] == Self.t0.addingTimeInterval(600 + 600), "after final: every 10 min")
    #expect(dues[3] != nil)
    #expect(dues[4] == nil, "three polls after the first final one, the target retires")
    let again = book.apply(
      Self.stored([Self.game("1", .final)], discover: ["1"]), to: Self.scoreboard.id, now: now, unit: { 0.5 })
    #expect(again.discovered == 0, "a retired game target is not created again")
    #expect(book.states[game]?.isRetired == true)
  }

  @Test func failuresBackOffAndKeepTheLastGoodGamesAndValidators() {
    var book = ScheduleBook(states: [])
    _ = book.seed([Self.scoreboard], now: Self.t0)
    var good = Self.stored([Self.game("1", .live)])
    good.etag = "\"e1\""
    _ = book.apply(good, to: Self.scoreboard.id, now: Self.t0, unit: { 0.5 })
    let failure = Poller.Result(
      kind: .failed(StatlineError(.network, "reset"), blocked: false), status: nil, etag: nil, bodyHash: nil)
    let first = book.apply(failure, to: Self.scoreboard.id, now: Self.t0, unit: { 0.5 }).state
    let second = book.apply(failure, to: Self.scoreboard.id, now: Self.t0, unit: { 0.5 }).state
    #expect(first.nextDue == Self.t0.addingTimeInterval(30))
    #expect(second.nextDue == Self.t0.addingTimeInterval(60))
    #expect(second.outcome == .failed && second.consecutiveFailures == 2)
    #expect(second.games == [Self.game("1", .live)], "the policy still knows the last good games")
    #expect(second.etag == "\"e1\"", "a failure keeps the validators of the last good page")
    let blocked = Poller.Result(kind: .failed(StatlineError(.blocked, "wall"), blocked: true), status: 403)
    #expect(book.apply(blocked, to: Self.scoreboard.id, now: Self.t0, unit: { 0.5 }).state.outcome == .blocked)
  }

  @Test func theLastSuccessAndItsCadenceAreKeptThroughFailures() {
    var book = ScheduleBook(states: [])
    _ = book.seed([Self.scoreboard], now: Self.t0)
    let stored = book.apply(Self.stored([Self.game("1", .live)]), to: Self.scoreboard.id, now: Self.t0, unit: { 0.9 })
    #expect(stored.state.lastSucceeded == Self.t0)
    #expect(stored.state.cadence == 30, "the policy's live interval, before jitter")
    let unchanged = Poller.Result(kind: .unchanged, status: 304)
    let later = Self.t0.addingTimeInterval(30)
    #expect(book.apply(unchanged, to: Self.scoreboard.id, now: later, unit: { 0.5 }).state.lastSucceeded == later)
    let failure = Poller.Result(kind: .failed(StatlineError(.network, "reset"), blocked: false), status: nil)
    let failed = book.apply(failure, to: Self.scoreboard.id, now: later.addingTimeInterval(30), unit: { 0.5 }).state
    #expect(failed.lastSucceeded == later && failed.lastPolled == later.addingTimeInterval(30))
    #expect(failed.cadence == 30, "a failure's backoff is not the target's cadence")
  }

  @Test func seedingRetiresRemovedTargetsAndRevivesThemWhenListedAgain() {
    var book = ScheduleBook(states: [])
    let other = Target(url: "http://h/scoreboard?d=2", source: "test", parser: "test-scoreboard", role: .discovery)
    _ = book.seed([Self.scoreboard, other], now: Self.t0)
    let removed = book.seed([Self.scoreboard], now: Self.t0)
    #expect(removed.map(\.id) == [other.id] && removed[0].isRetired)
    let revived = book.seed([Self.scoreboard, other], now: Self.t0)
    #expect(revived.map(\.nextDue) == [Self.t0])
  }

  @Test func overdueTargetsAreSpreadAfterARestart() {
    var states: [TargetState] = []
    for index in 0..<10 {
      states.append(
        TargetState(
          target: Target(
            url: "http://h/scoreboard?\(index)", source: "test", parser: "test-scoreboard", role: .discovery),
          nextDue: Self.t0.addingTimeInterval(-3600)))
    }
    var book = ScheduleBook(states: states)
    var units = (0..<10).map { Double($0) / 10 }.makeIterator()
    let spread = book.spreadOverdue(now: Self.t0, window: .seconds(10), unit: { units.next()! })
    #expect(spread.count == 10)
    #expect(book.due(at: Self.t0).count == 1, "only one of ten overdue targets fires at once")
    #expect(book.due(at: Self.t0.addingTimeInterval(10)).count == 10)
  }

  /// The running loop's view of the schedule (a heap, not a pass over every target) agrees with
  /// `due(at:)`: earliest first, up to the limit, never a target being polled, never one twice,
  /// and a target polled again is due at its new time only.
  @Test func takingDueTargetsFromTheHeapAgreesWithTheSchedule() {
    let states = (0..<50).map { index in
      TargetState(
        target: Target(url: "http://h/game/\(index).xml", source: "test", parser: "test-game", role: .game),
        nextDue: Self.t0.addingTimeInterval(Double((index * 37) % 50)))
    }
    var book = ScheduleBook(states: states)
    let now = Self.t0.addingTimeInterval(20)
    let expected = book.due(at: now).map(\.id)
    #expect(expected.count == 21)
    let busy: Set<String> = [expected[1]]
    let first = book.takeDue(at: now, excluding: busy, limit: 5).map(\.id)
    #expect(first == [expected[0]] + expected[2...5], "earliest first, the busy one skipped")
    let rest = book.takeDue(at: now, excluding: busy, limit: 100).map(\.id)
    #expect(rest == Array(expected[6...]), "each once")
    #expect(book.takeDue(at: now, excluding: [], limit: 100).isEmpty, "taken targets wait for their poll")
    #expect(book.nextDue(excluding: []) == Self.t0.addingTimeInterval(21))
    // A polled target comes back at its new time (the poll's result puts it).
    let polled = book.apply(Poller.Result(kind: .unchanged, status: 304), to: expected[0], now: now, unit: { 0.5 })
    guard let again = polled.state.nextDue else {
      Issue.record("a live target polled again has a next due time")
      return
    }
    #expect(again > now)
    #expect(book.takeDue(at: again, excluding: [], limit: 100).map(\.id).contains(expected[0]))
  }

  @Test func imminentGamesPollEveryFiveMinutes() {
    var book = ScheduleBook(states: [])
    _ = book.seed([Self.scoreboard], now: Self.t0)
    var game = Self.game("1", .scheduled)
    game.startTime = "2026-02-16T00:20:00Z"  // 20 minutes after t0
    let state = book.apply(Self.stored([game]), to: Self.scoreboard.id, now: Self.t0, unit: { 0.5 }).state
    #expect(state.nextDue == Self.t0.addingTimeInterval(300))
    #expect(book.summary(at: Self.t0).idle == 1)
  }
}

@Suite struct DiscoveryAuthorityTests {
  @Test func aCalendarsSummaryOfAFollowedGameIsNotStored() {
    var book = ScheduleBook(states: [])
    let scoreboard = ScheduleBookTests.scoreboard
    _ = book.seed([scoreboard], now: ScheduleBookTests.t0)
    let calendar = ScheduleBookTests.stored(
      [ScheduleBookTests.game("1", .live), ScheduleBookTests.game("2", .scheduled)], discover: ["1"])
    let first = book.apply(calendar, to: scoreboard.id, now: ScheduleBookTests.t0, unit: { 0.5 })
    #expect(first.commit.batch?.games.count == 2, "before the game's own feed is stored, the calendar's record is")
    _ = book.apply(
      ScheduleBookTests.stored([ScheduleBookTests.game("1", .live)]), to: "test-game http://h/game/1.json",
      now: ScheduleBookTests.t0, unit: { 0.5 })
    let second = book.apply(calendar, to: scoreboard.id, now: ScheduleBookTests.t0, unit: { 0.5 })
    #expect(second.commit.batch?.games.map(\.id) == ["test:2"], "then only the games nobody follows")
  }
}
