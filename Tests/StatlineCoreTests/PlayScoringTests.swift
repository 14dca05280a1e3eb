import StatlineCore
import Testing

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
