import Testing

@testable import StatlineCore

/// No number a page prints is read past ±999,999,999, and validation adds up with a checked sum:
/// a corrupt page is refused or read without what it garbled, and never stops the process.
struct GameTextBoundsTests {
  @Test func numbersPastTheLargestAreNotRead() {
    #expect(GameText.int("999999999") == 999_999_999 && GameText.int(" -999999999 ") == -999_999_999)
    for text in ["1000000000", "-1000000000", "9000000000000000000", " 99999999999 ", "99999999999999999999"] {
      #expect(GameText.int(text) == nil, "\(text)")
    }
    #expect(GameText.count("999,999,999") == 999_999_999 && GameText.count("1,000,000,000") == nil)
    #expect(GameText.clock("999:59") == "999:59" && GameText.clock("1000:00") == nil)
    #expect(GameText.clock("99999999999999999:00") == nil && GameText.seconds("99999999999999999:00") == nil)
  }

  @Test func validationAddsUpWithoutOverflow() {
    #expect(BatchValidator.checkedSum([1, 2, 3]) == 6 && BatchValidator.checkedSum([]) == 0)
    #expect(BatchValidator.checkedSum([Int.max, 1]) == nil && BatchValidator.checkedSum([Int.min, -1]) == nil)
    var game = BatchValidatorTests.game(away: 8, awayPeriods: [Int.max, Int.max, 2, 2])
    game.home.periodScores = [3, 3, 3, 2]
    let problems = BatchValidator.problems(in: Batch(games: [game]))
    #expect(problems.contains { $0.contains("away score 8 is not the sum of its period scores") }, "\(problems)")
  }
}
