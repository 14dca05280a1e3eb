import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatBroadcastSource

/// StatCrew football (`<fbgame>`): the In-Arena Utility writes no `<status>`, so the state is
/// concluded from the file and said; each score is one `score` play with its points, a try folded
/// into its touchdown; a safety is the defense's score.
struct FootballXMLTests {
  static func run(_ page: Page) throws -> Batch { try LCGameTests.run(page) }

  static func edited(_ edit: (String) -> String) throws -> Page {
    var page = try LCGameTests.fixture("football-live-third-quarter")
    page.body = Data(edit(String(decoding: page.body, as: UTF8.self)).utf8)
    return page
  }

  @Test func aGameLiveInTheThirdQuarterIsReadWhole() throws {
    let batch = try Self.run(try LCGameTests.fixture("football-live-third-quarter"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .football && game.status == .live && game.period == 3 && game.clock == "08:12")
    #expect(game.periodLabel == "3rd Quarter" && game.away.score == 9 && game.home.periodScores == [0, 7, 0])
    #expect(batch.warnings.contains { $0.contains("no <status>; live in 3rd Quarter") })
    let scores = batch.plays.filter { $0.type == .score }
    #expect(scores.map(\.side) == [.away, .home, .away])
    #expect(scores.map { $0.details["points"] } == ["7", "7", "2"], "touchdowns with their tries; a safety")
    #expect(scores[0].details["try"] == "1" && scores[0].awayScore == 7 && scores[0].homeScore == 0)
    let tries = batch.plays.filter { $0.details["kind"] == "try" }
    #expect(tries.allSatisfy { $0.type == .other && $0.awayScore == nil }, "folded into the touchdown")
    #expect(batch.plays.first { $0.type == .timeout }?.text == "Timeout Army, clock 08:12.")
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.map(\.name) == ["Back Quarter", "Backer Line"] && box.away.players[0].starter == true)
    #expect(box.away.players[0].stats["rushingYards"] == 88 && box.home.players[1].stats["receivingTouchdowns"] == 1)
    #expect(box.away.totals["passingYards"] == 61 && box.away.players[1].stats["sacks"] == 1)
  }

  @Test func anEndTimeMakesItFinalAndNoPlaysMakeItScheduled() throws {
    let ended = try Self.run(
      try Self.edited { $0.replacingOccurrences(of: #"start="12:00 PM""#, with: #"start="12:00 PM" end="03:31 PM""#) })
    let final = try #require(ended.games.first, "\(ended.warnings)")
    #expect(final.status == .final && final.periodLabel == "Final" && final.away.winner == true)
    #expect(ended.warnings.contains { $0.contains("final because the venue gives the time the game ended (03:31 PM)") })
    let before = try Self.run(
      try Self.edited {
        $0.replacing(#/<plays>.*</plays>/#.dotMatchesNewlines(), with: "<plays></plays>")
          .replacingOccurrences(of: #"line="7,0,2" score="9""#, with: #"line="" score="""#)
          .replacingOccurrences(of: #"line="0,7,0" score="7""#, with: #"line="" score="""#)
          .replacing(#/<lineprd [^>]*/>/#, with: "")
      })
    let scheduled = try #require(before.games.first, "\(before.warnings)")
    #expect(scheduled.status == .scheduled && scheduled.away.score == nil)
  }

  @Test(.enabled(if: RealPages.available)) func theRealGameIsDukeThirtyTwoAtNorthCarolinaTwentyFive() throws {
    var page = try RealPages.page("statcrew/fbgame-duke-at-unc-2025-11-22.xml", url: "")
    page.url = nil
    let batch = try Self.run(page)
    let game = try #require(batch.games.first)
    #expect(game.id == "statbroadcast:game-6387650" && game.status == .final && game.period == 4)
    #expect(game.away.score == 32 && game.home.score == 25 && game.away.periodScores == [7, 10, 7, 8])
    #expect(game.away.team.abbreviation == "DU", "the trailing space of 'DU ' trimmed")
    let scores = batch.plays.filter { $0.type == .score }
    #expect(scores.filter { $0.side == .away }.count == 5 && scores.filter { $0.side == .home }.count == 4)
    #expect(scores.compactMap { Int($0.details["points"] ?? "") }.reduce(0, +) == 57)
    #expect(scores.filter { $0.details["try"] == "2" }.count == 2, "two two-point conversions")
    #expect(batch.plays.count == 208)
  }
}
