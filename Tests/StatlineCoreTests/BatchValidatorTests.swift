import Testing

@testable import StatlineCore

@Suite struct BatchValidatorTests {
  static func game(
    id: String = "ncaa:1", status: GameStatus = .final, period: Int? = 4, clock: String? = nil,
    date: String? = "2025-02-01", away: Int? = 8, home: Int? = 11, awayPeriods: [Int] = [2, 2, 2, 2],
    homePeriods: [Int] = [3, 3, 3, 2]
  ) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: status, period: period, clock: clock, date: date,
      away: TeamLine(team: TeamRef(id: "ncaa:10", name: "Air Force"), score: away, periodScores: awayPeriods),
      home: TeamLine(team: TeamRef(id: "ncaa:20", name: "Lafayette"), score: home, periodScores: homePeriods))
  }

  func problems(_ batch: Batch) -> [String] { BatchValidator.problems(in: batch) }

  @Test func aConsistentBatchPasses() throws {
    try BatchValidator.validate(Batch(games: [Self.game()]))
  }

  @Test func aDateIsADayTheCalendarHas() {
    for good in ["2026-02-28", "2028-02-29", "2000-02-29", "2026-12-31", "2026-04-30"] {
      #expect(BatchValidator.isDate(good), "\(good)")
    }
    for bad in [
      "2026-02-30", "2026-02-29", "1900-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00",
      "2026-1-01", "+026-01-01", "2026-0a-01", "20260101",
    ] {
      #expect(!BatchValidator.isDate(bad), "\(bad)")
    }
  }

  @Test func anEmptyBatchFails() {
    #expect(problems(Batch()) == ["the page yielded no games, teams, box scores, plays or rankings"])
    #expect(throws: StatlineError.self) { try BatchValidator.validate(Batch()) }
  }

  @Test func scoreMustEqualTheSumOfPeriodScores() {
    let found = problems(Batch(games: [Self.game(home: 12)]))
    #expect(found == ["game ncaa:1: home score 12 is not the sum of its period scores [3, 3, 3, 2]"])
  }

  @Test func liveGameNeedsAPeriod() {
    let found = problems(Batch(games: [Self.game(status: .live, period: nil)]))
    #expect(found == ["game ncaa:1: a live game has no period"])
  }

  /// The home team bats second: in the top of an inning, and in a final whose home half was not
  /// needed, its line is one inning shorter; never longer, and never two short.
  @Test func aHomeLineOneInningShortIsBaseballsTopHalf() {
    func baseball(_ status: GameStatus, period: Int, away: [Int], home: [Int]) -> [String] {
      var game = Self.game(
        status: status, period: period, away: away.reduce(0, +), home: home.reduce(0, +), awayPeriods: away,
        homePeriods: home)
      game.sport = .baseball
      return problems(Batch(games: [game]))
    }
    #expect(baseball(.live, period: 8, away: [0, 0, 0, 0, 0, 1, 0, 1], home: [0, 0, 0, 2, 2, 0, 0]).isEmpty)
    #expect(baseball(.final, period: 9, away: [1, 0, 0, 0, 0, 0, 0, 0, 0], home: [0, 0, 2, 0, 0, 0, 0, 0]).isEmpty)
    #expect(
      baseball(.live, period: 8, away: [0, 0, 0, 0, 0, 1, 0], home: [0, 0, 0, 2, 2, 0, 0, 1]) == [
        "game ncaa:1: the away team has 7 period scores, but the game is in period 8",
        "game ncaa:1: the teams have different numbers of period scores",
      ])
    #expect(
      baseball(.live, period: 8, away: [0, 0, 0, 0, 0, 1, 0, 1], home: [0, 0, 0, 2, 2, 0]) == [
        "game ncaa:1: the home team has 6 period scores, but the game is in period 8",
        "game ncaa:1: the teams have different numbers of period scores",
      ])
    // Quarters are played by both teams: a line one period short is refused.
    #expect(
      problems(Batch(games: [Self.game(home: 9, homePeriods: [3, 3, 3])])) == [
        "game ncaa:1: the home team has 3 period scores, but the game is in period 4",
        "game ncaa:1: the teams have different numbers of period scores",
      ])
  }

  @Test func finalGameNeedsBothScores() {
    let found = problems(Batch(games: [Self.game(away: nil, awayPeriods: [])]))
    #expect(found == ["game ncaa:1: a final game has no away score"])
  }

  @Test func idsMustBeUniqueAndNamespaced() {
    let found = problems(Batch(games: [Self.game(), Self.game(), Self.game(id: "1")]))
    #expect(found.contains("game id 'ncaa:1' appears more than once"))
    #expect(found.contains("id '1' is not namespaced as 'source:native'"))
    let teams = problems(Batch(teams: [Team(id: "ncaa:1", name: "A"), Team(id: "ncaa:1", name: "B")]))
    #expect(teams == ["team id 'ncaa:1' appears more than once"])
    // Compared pairwise up to 32 records, hashed past them: the same answer.
    for count in [12, 32, 33, 40] {
      let many = (0..<count).map { Team(id: "ncaa:\($0 == count - 1 ? 3 : $0)", name: "T\($0)") }
      #expect(problems(Batch(teams: many)) == ["team id 'ncaa:3' appears more than once"], "\(count)")
    }
  }

  @Test func duplicatePlaysAreFoundHoweverThePlaysAreOrdered() {
    func plays(_ keys: [(String, Int)]) -> [Play] {
      keys.map { Play(gameId: $0.0, sequence: $0.1, side: nil, type: .other, text: "x") }
    }
    let cases: [([(String, Int)], [String])] = [
      ([("s:1", 1), ("s:1", 2), ("s:2", 1), ("s:2", 5)], []),
      ([("s:1", 1), ("s:1", 1)], ["play 's:1#1' appears more than once"]),
      ([("s:1", 2), ("s:1", 1)], []),
      ([("s:1", 2), ("s:1", 1), ("s:1", 2)], ["play 's:1#2' appears more than once"]),
      ([("s:1", 1), ("s:2", 1), ("s:1", 2)], []),
      (
        [("s:1", 1), ("s:2", 1), ("s:1", 1), ("s:2", 1)],
        ["play 's:1#1' appears more than once", "play 's:2#1' appears more than once"]
      ),
      ([("s:1", 3), ("s:1", 3), ("s:1", 3)], ["play 's:1#3' appears more than once"]),
      ([], []),
    ]
    for (keys, expected) in cases {
      #expect(BatchValidator.duplicatePlays(plays(keys)) == expected, "\(keys)")
    }
    // Random runs of three games' plays: what hashing every play's key finds.
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let keys = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
        (["s:1", "s:2", "s:3"].randomElement(using: &generator)!, Int.random(in: 1...4, using: &generator))
      }
      let expected = BatchValidator.duplicates(
        keys.map { BatchValidator.PlayKey(gameId: $0.0, sequence: $0.1) }, what: "play")
      #expect(BatchValidator.duplicatePlays(plays(keys)) == expected, "\(keys)")
    }
  }

  @Test func clockDateAndPeriodMustBeWellFormed() {
    let found = problems(
      Batch(games: [Self.game(status: .live, period: 0, clock: "7:5", date: "02/01/2025")]))
    #expect(found.contains("game ncaa:1: period 0 is not 1-based"))
    #expect(found.contains("game ncaa:1: clock '7:5' is not MM:SS"))
    #expect(found.contains("game ncaa:1: date '02/01/2025' is not YYYY-MM-DD"))
  }

  @Test func boxScoreGoalsMustAddUpToTheScore() {
    let box = BoxScore(
      gameId: "ncaa:1",
      away: TeamBox(players: [
        PlayerLine(name: "A B", stats: ["goals": 5]), PlayerLine(name: "C D", stats: ["goals": 2]),
      ]),
      home: TeamBox(players: [PlayerLine(name: "E F", stats: ["goals": 11]), PlayerLine(name: "G H")]))
    let found = problems(Batch(games: [Self.game()], boxScores: [box]))
    #expect(found == ["box score ncaa:1: away players' goals add up to 7, but the score is 8"])
  }

  @Test func failureIsAValidationErrorListingEveryProblem() {
    do {
      try BatchValidator.validate(Batch(games: [Self.game(status: .live, period: nil, home: 1)]))
      Issue.record("expected a validation error")
    } catch {
      #expect(error.kind == .validation)
      #expect(error.reason.contains("a live game has no period"))
      #expect(error.reason.contains("home score 1 is not the sum"))
    }
  }
}
