import Testing

@testable import StatlineCore

/// The validation rules that make a lost goal impossible to miss.
@Suite struct PlayScoringTests {
  /// A 2-1 final: away scores, home scores, away scores.
  static func game(status: GameStatus = .final, sport: Sport = .lacrosseMen) -> Game {
    var game = BatchValidatorTests.game(
      status: status, period: 2, away: 2, home: 1, awayPeriods: [1, 1], homePeriods: [1, 0])
    game.sport = sport
    return game
  }

  static func play(
    _ sequence: Int, _ type: PlayType, _ side: Side?, _ score: (Int, Int)?, player: String? = "Ann Lee",
    text: String? = nil
  ) -> Play {
    Play(
      gameId: "ncaa:1", sequence: sequence, period: 1, side: side, type: type,
      text: text ?? "\(type.rawValue) \(sequence)", player: player, awayScore: score?.0, homeScore: score?.1)
  }

  static let plays = [
    play(1, .faceoff, .away, nil), play(2, .goal, .away, (1, 0)), play(3, .shot, .home, (1, 0)),
    play(4, .goal, .home, (1, 1)), play(5, .goal, .away, (2, 1)),
  ]

  func problems(_ plays: [Play], game: Game = PlayScoringTests.game(), everyPlay: Bool = true) -> [String] {
    BatchValidator.problems(in: Batch(games: [game], plays: plays), everyPlay: everyPlay)
  }

  @Test func aConsistentGamePasses() {
    #expect(problems(Self.plays) == [])
  }

  /// Each game's running score is read at its own last scored play, also when the page gives
  /// two games' plays in turns.
  @Test func theRunningScoreIsEachGamesOwnWhenTheirPlaysAlternate() {
    var other = Self.game()
    other.id = "ncaa:2"
    other.away.score = 0
    other.home.score = 1
    other.away.periodScores = [0, 0]
    other.home.periodScores = [0, 1]
    func theOther(_ play: Play) -> Play {
      var play = play
      play.gameId = "ncaa:2"
      return play
    }
    let interleaved = [
      Self.plays[0], theOther(Self.play(1, .goal, .home, (0, 1))), Self.plays[1], Self.plays[2],
      theOther(Self.play(2, .shot, .away, (0, 1))), Self.plays[3], Self.plays[4],
    ]
    #expect(BatchValidator.runningScores(interleaved, games: ["ncaa:1": Self.game(), "ncaa:2": other]) == [])
    // The second game's last running score disagrees with its final: named for that game alone.
    var wrong = interleaved
    wrong[4] = theOther(Self.play(2, .shot, .away, (0, 2)))
    #expect(
      BatchValidator.runningScores(wrong, games: ["ncaa:1": Self.game(), "ncaa:2": other]) == [
        "game ncaa:2: the plays' running score ends at 0-2, but the score is 0-1"
      ])
  }

  @Test func aScoreThatChangesOnAPlayThatIsNotAGoalFailsNamingThePlay() {
    var plays = Self.plays
    plays[3] = Self.play(4, .other, .home, (1, 1), player: nil, text: "GOAL (MAN-UP) by HOME Lee, Ann.")
    let found = problems(plays, everyPlay: false)
    #expect(
      found == [
        "game ncaa:1: play 4 ('GOAL (MAN-UP) by HOME Lee, Ann.') changes the running score from 1-0 to 1-1 "
          + "but reads as other, not a goal"
      ])
  }

  @Test func aGameWhosePlaysComeInSeveralRunsKeepsItsRunningScoreAcrossThem() {
    func other(_ sequence: Int, _ score: (Int, Int)) -> Play {
      var play = Self.play(sequence, .shot, .home, score)
      play.gameId = "ncaa:2"
      return play
    }
    let otherGame = BatchValidatorTests.game(
      id: "ncaa:2", status: .live, period: 1, away: 0, home: 0, awayPeriods: [0], homePeriods: [0])
    let interleaved = [
      Self.plays[0], Self.plays[1], other(1, (0, 0)), Self.plays[2], other(2, (0, 0)), Self.plays[3],
      Self.plays[4],
    ]
    let batch = Batch(games: [Self.game(), otherGame], plays: interleaved)
    // Game 1's shot at 1-0 after game 2's plays continues its own 1-0, not game 2's 0-0.
    #expect(BatchValidator.problems(in: batch).filter { $0.contains("running score") } == [])
    var changed = interleaved
    changed[3] = Self.play(3, .shot, .home, (2, 0))
    #expect(
      BatchValidator.problems(in: Batch(games: [Self.game(), otherGame], plays: changed)).contains {
        $0.contains("play 3 ('shot 3') changes the running score from 1-0 to 2-0")
      })
  }

  @Test func theRunningScoreStartsAtNilNil() {
    let found = problems([Self.play(1, .shot, .away, (1, 0))], game: Self.game(status: .live), everyPlay: false)
    #expect(found.contains { $0.contains("play 1 ('shot 1') changes the running score from 0-0 to 1-0") }, "\(found)")
  }

  @Test func aLacrosseGoalNamesItsScorer() {
    var plays = Self.plays
    plays[1].player = nil
    #expect(problems(plays) == ["game ncaa:1: play 2 ('goal 2') is a goal that names no scorer"])
    var other = Self.game()
    other.sport = Sport("hockey-men")
    #expect(problems(plays, game: other) == [], "only lacrosse goals are always credited to a player")
  }

  @Test func aFinalGameOnAPageWithEveryPlayMustAddUpItsGoalPlays() {
    // The last goal was lost without a running score to show it (a page that prints none).
    var plays = Self.plays.map { play -> Play in
      var play = play
      (play.awayScore, play.homeScore) = (nil, nil)
      return play
    }
    plays[4] = Self.play(5, .other, .away, nil, player: nil)
    #expect(
      problems(plays) == [
        "game ncaa:1: the final score is 2-1, but its goal plays add up to 1-1 (a goal whose text was not read?)"
      ])
    #expect(problems(plays, everyPlay: false) == [], "a page that does not carry every play is not counted")
    #expect(problems(plays, game: Self.game(status: .live)) == [], "a live game's plays may lag its score")
  }

  @Test func aGoalForNeitherSideOnAPageWithEveryPlayFails() {
    var plays = Self.plays
    plays[4].side = nil
    #expect(problems(plays) == ["game ncaa:1: play 5 ('goal 5') is a goal for neither side"])
  }
}
