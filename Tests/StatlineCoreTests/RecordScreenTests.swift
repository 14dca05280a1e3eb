import Testing

@testable import StatlineCore

/// Validation refuses a record, not a page (architecture.md#failure).
@Suite struct RecordScreenTests {
  static func game(_ id: String, away: Int = 2, home: Int = 1, awayName: String = "Army") -> Game {
    BatchValidatorTests.game(
      id: id, away: away, home: home, awayPeriods: [away, 0, 0, 0], homePeriods: [home, 0, 0, 0]
    )
    .with { $0.away.team.name = awayName }
  }

  static func goal(_ game: String, _ sequence: Int, _ side: Side, _ away: Int, _ home: Int, player: String? = "A B")
    -> Play
  {
    Play(
      gameId: game, sequence: sequence, period: 1, side: side, type: .goal, text: "GOAL by X \(player ?? "")",
      player: player, awayScore: away, homeScore: home)
  }

  /// However a page orders its plays (a game at a time or mixed, with repeats anywhere), the
  /// screen keeps each play's first copy and refuses every later one, as a set of keys would.
  @Test func repeatedPlaysAreRefusedWhereverTheyComeAndTheFirstCopiesKept() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      let count = Int.random(in: 1...12, using: &generator)
      let plays = (0..<count).map { _ in
        var play = Self.goal(
          ["ncaa:1", "ncaa:2"].randomElement(using: &generator)!, Int.random(in: 1...5, using: &generator), .away, 0, 0)
        (play.type, play.awayScore, play.homeScore) = (.other, nil, nil)
        return play
      }
      var seen = Set<String>()
      let expected = plays.filter { seen.insert("\($0.gameId)#\($0.sequence)").inserted }
      let screened = PlayScoring.screen(plays, games: [:], everyPlay: false)
      #expect(screened.kept == expected, "\(plays.map { "\($0.gameId)#\($0.sequence)" })")
      #expect(screened.refused.count == plays.count - expected.count)
    }
  }

  @Test func aCleanBatchIsReturnedAsItIs() throws {
    let batch = Batch(games: [Self.game("ncaa:1")])
    #expect(try BatchValidator.screen(batch) == batch)
  }

  @Test func aGameThatBreaksARuleIsRefusedAloneAndNamed() throws {
    let batch = Batch(games: [Self.game("ncaa:1"), Self.game("ncaa:2", awayName: "")])
    let screened = try BatchValidator.screen(batch)
    #expect(screened.games.map(\.id) == ["ncaa:1"])
    #expect(BatchValidator.refusals(of: screened) == ["refused: game ncaa:2: the away team has no name"])
  }

  /// A score or a period no game of the sport can reach is the page or its parser gone wrong: the
  /// game is refused, named with the limit, and the rest of the page is stored.
  @Test func aScoreOrPeriodBeyondTheSportIsRefusedAlone() throws {
    let huge = Self.game("ncaa:2", away: 2_000_000)
    var late = Self.game("ncaa:3")
    late.period = 2_000_000
    let screened = try BatchValidator.screen(Batch(games: [Self.game("ncaa:1"), huge, late]))
    #expect(screened.games.map(\.id) == ["ncaa:1"])
    let refusals = BatchValidator.refusals(of: screened)
    #expect(refusals.first == "refused: game ncaa:2: away score 2000000 is beyond the 99 a lacrosse-men side can score")
    #expect(refusals.contains("refused: game ncaa:3: period 2000000 is beyond the 16 a lacrosse-men game can reach"))
    // The sport's limit, not a number for all: a basketball side's 150 is a score.
    var basketball = Self.game("ncaa:4", away: 150)
    basketball.sport = .basketballMen
    basketball.period = 2
    basketball.away.periodScores = [150, 0]
    basketball.home.periodScores = [1, 0]
    #expect(BatchValidator.problems(in: basketball).isEmpty)
    // A sport without a profile is bounded too, more widely.
    var unknown = Self.game("ncaa:5", away: 10_001)
    unknown.sport = .unknown
    #expect(
      BatchValidator.problems(in: unknown) == [
        "game ncaa:5: away score 10001 is beyond the 10000 a unknown side can score"
      ])
  }

  /// The screening names what it refused and kept unread as values, the same the batch's
  /// warnings say, so the poll reads them without parsing text back.
  @Test func theScreeningNamesItsRefusalsAsValues() throws {
    var shot = Self.goal("ncaa:1", 2, .home, 1, 1, player: nil)
    shot.type = .other
    let plays = [Self.goal("ncaa:1", 1, .away, 1, 0), shot, Self.goal("ncaa:1", 3, .away, 2, 1)]
    let batch = Batch(games: [Self.game("ncaa:1"), Self.game("ncaa:2", awayName: "")], plays: plays)
    let screening = try BatchValidator.screening(batch, everyPlay: true)
    #expect(screening.refused == ["game ncaa:2: the away team has no name"])
    #expect(screening.unread.count == 1 && screening.unread[0].hasPrefix("game ncaa:1: play 2"))
    #expect(screening.partial == BatchValidator.refusals(of: screening.batch))
    #expect(screening.batch == (try BatchValidator.screen(batch, everyPlay: true)))
    #expect(try BatchValidator.screening(Batch(games: [Self.game("ncaa:1")])).partial.isEmpty)
  }

  @Test func aBoxScoreThatDoesNotAddUpIsRefusedAndItsGameStored() throws {
    let box = BoxScore(
      gameId: "ncaa:1", away: TeamBox(players: [PlayerLine(name: "A B", stats: [StatKey.goals: 5])]),
      home: TeamBox(players: []))
    let screened = try BatchValidator.screen(Batch(games: [Self.game("ncaa:1")], boxScores: [box]))
    #expect(screened.games.count == 1 && screened.boxScores.isEmpty)
    #expect(BatchValidator.refusals(of: screened).first?.contains("players' goals add up to 5") == true)
  }

  @Test func aGoalProvedByTheScoreIsStoredUnreadForTheSideWhoseScoreRose() throws {
    var shot = Self.goal("ncaa:1", 2, .home, 1, 1, player: nil)
    shot.type = .other
    shot.text = "GOAL!!! (unreadable)"
    let plays = [Self.goal("ncaa:1", 1, .away, 1, 0), shot, Self.goal("ncaa:1", 3, .away, 2, 1)]
    let screened = try BatchValidator.screen(Batch(games: [Self.game("ncaa:1")], plays: plays), everyPlay: true)
    let unread = screened.plays[1]
    #expect(unread.type == .goal && unread.side == .home && unread.player == nil && unread.isUnread)
    #expect(unread.text == "GOAL!!! (unreadable)", "the text as printed")
    #expect(BatchValidator.refusals(of: screened).first?.hasPrefix("unread: game ncaa:1: play 2") == true)
    #expect(BatchValidator.problems(in: screened, everyPlay: true).isEmpty, "a store takes it as it is")
  }

  /// Refused plays leave the others in their order, and a play changed (stored unread) after
  /// them is the one kept: the screen shares the page's plays and copies only what it changes.
  @Test func playsRefusedAndChangedAmongOthersKeepTheirOrder() throws {
    var both = Self.goal("ncaa:1", 2, .away, 2, 1)
    both.type = .other
    var rose = Self.goal("ncaa:1", 4, .home, 2, 2, player: nil)
    rose.type = .other
    let plays = [Self.goal("ncaa:1", 1, .away, 1, 0), both, Self.goal("ncaa:1", 1, .away, 1, 0), rose]
    let page = Batch(games: [Self.game("ncaa:1", away: 2, home: 2)], plays: plays)
    let screened = try BatchValidator.screen(page)
    #expect(screened.plays.map(\.sequence) == [1, 4])
    #expect(screened.plays[0] == plays[0], "a play nothing changed is kept as it is")
    #expect(screened.plays[1].type == .goal && screened.plays[1].side == .home && screened.plays[1].isUnread)
    let refusals = BatchValidator.refusals(of: screened)
    #expect(refusals.contains { $0.contains("play 2") && $0.contains("which no play does") }, "\(refusals)")
    #expect(refusals.contains { $0.contains("play 1") && $0.contains("appears more than once") }, "\(refusals)")
    #expect(page.plays == plays, "the page's own plays are not changed")
  }

  /// On 3,000 random pages (one to three games of three sports, some broken, and their plays in
  /// runs or mixed, with repeats, unread goals and scores that move every way), whatever the
  /// screen keeps passes validation whole, and its plays are the page's, in the page's order.
  @Test func whatTheScreenKeepsAlwaysPassesValidation() {
    var generator = SystemRandomNumberGenerator()
    func random(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
    var (screenedPages, refusedPlays) = (0, 0)
    for _ in 0..<3_000 {
      let ids = (1...random(1...3)).map { "ncaa:\($0)" }
      let games = ids.map { id in
        var game = Self.game(id, away: random(0...3), home: random(0...3))
        game.sport = [.lacrosseMen, .basketballMen, .soccerWomen][random(0...2)]
        if random(0...5) == 0 { game.away.team.name = "" }
        if random(0...5) == 0 { game.away.periodScores = [9] }
        return game
      }
      var score: [String: (Int, Int)] = [:]
      let plays = (0..<random(0...10)).map { _ -> Play in
        let id = ids[random(0...(ids.count - 1))]
        var (away, home) = score[id] ?? (0, 0)
        switch random(0...3) {
        case 0: away += random(0...2)
        case 1: home += random(0...2)
        default: break
        }
        score[id] = (away, home)
        var play = Self.goal(id, random(1...8), [.away, .home][random(0...1)], away, home)
        play.type = [.goal, .other, .shot, .score][random(0...3)]
        if random(0...3) == 0 { play.player = nil }
        if random(0...4) == 0 { (play.awayScore, play.homeScore) = (nil, nil) }
        return play
      }
      let everyPlay = random(0...1) == 0
      guard let screened = try? BatchValidator.screen(Batch(games: games, plays: plays), everyPlay: everyPlay)
      else { continue }
      screenedPages += 1
      refusedPlays += plays.count - screened.plays.count
      let problems = BatchValidator.problems(in: screened, everyPlay: everyPlay)
      #expect(problems.isEmpty, "\(problems) of \(plays.map { "\($0.gameId)#\($0.sequence)" })")
      // Kept plays are a subsequence of the page's (by game and number).
      var rest = plays[...]
      for kept in screened.plays {
        guard let at = rest.firstIndex(where: { $0.gameId == kept.gameId && $0.sequence == kept.sequence }) else {
          Issue.record("play \(kept.gameId)#\(kept.sequence) is not the page's, or out of its order")
          break
        }
        rest = rest[(at + 1)...]
      }
    }
    #expect(screenedPages > 1_000 && refusedPlays > 1_000, "not vacuous: \(screenedPages) pages, \(refusedPlays) plays")
  }

  @Test func aGamesPlaysThatLoseAGoalAreRefusedTogetherAndTheGameStored() throws {
    // The final is 2-1 but the plays hold only two goals: a goal was lost without a running score.
    let plays = [Self.goal("ncaa:1", 1, .away, 1, 0), Self.goal("ncaa:1", 2, .away, 2, 0)]
    let screened = try BatchValidator.screen(Batch(games: [Self.game("ncaa:1")], plays: plays), everyPlay: true)
    #expect(screened.games.count == 1 && screened.plays.isEmpty)
    #expect(BatchValidator.refusals(of: screened).contains { $0.contains("(the game's 2 plays are refused)") })
  }

  @Test func aPageWhereNothingPassesOrThatIsEmptyStillFails() {
    #expect(throws: StatlineError.self) { try BatchValidator.screen(Batch()) }
    let bad = Batch(games: [Self.game("ncaa:1", awayName: ""), Self.game("nonamespace")])
    do {
      _ = try BatchValidator.screen(bad)
      Issue.record("nothing passes: the page fails")
    } catch {
      #expect(error.kind == .validation && error.reason.contains("the away team has no name"))
      #expect(error.reason.contains("id 'nonamespace' is not namespaced"))
    }
  }
}

extension Game {
  func with(_ change: (inout Game) -> Void) -> Game {
    var copy = self
    change(&copy)
    return copy
  }
}

/// In a sport scored in points, a row whose running score proves a basket is kept as what the
/// score proves: a `score` play of the points the score rose by, never a goal.
@Suite struct PointsScreenTests {
  @Test func anUnreadBasketIsAScoreOfItsPoints() throws {
    let game = Game(
      id: "ncaa:1", sport: .basketballMen, status: .live, period: 1,
      away: TeamLine(team: TeamRef(name: "A"), score: 3), home: TeamLine(team: TeamRef(name: "H"), score: 0))
    let play = Play(
      gameId: "ncaa:1", sequence: 1, period: 1, clock: "19:00", side: nil, type: .other, text: "something new",
      player: nil, assist: nil, awayScore: 3, homeScore: 0, details: [:])
    let batch = try BatchValidator.screen(Batch(games: [game], plays: [play]), everyPlay: true)
    let kept = try #require(batch.plays.first)
    #expect(kept.type == .score && kept.details["points"] == "3" && kept.side == .away && kept.isUnread)
    #expect(batch.warnings.contains { $0.contains("stored as a score for the away side") })
  }
}
