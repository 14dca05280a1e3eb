import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatBroadcastSource

/// StatCrew baseball and softball (`<bsgame>`): runs per inning, extra innings, pitching in
/// outs, each scoring plate appearance one `score` play with its runs and the running score.
struct BaseballXMLTests {
  static func run(_ page: Page) throws -> Batch { try LCGameTests.run(page) }

  @Test func aSoftballGameLiveInTheBottomOfTheFifthIsReadWhole() throws {
    let batch = try Self.run(try LCGameTests.fixture("softball-live-bottom-fifth"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .softball && game.status == .live && game.period == 5 && game.clock == nil)
    #expect(game.periodLabel == "Bottom 5th" && game.away.score == 3 && game.home.score == 2)
    #expect(game.away.periodScores == [0, 2, 0, 1, 0] && game.away.rank == 4)
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.map(\.name) == ["Ava Hitter", "Bea Batter", "Cy Pitcher"], "not the one who sat")
    #expect(box.away.players[0].stats["homeRuns"] == 1 && box.away.players[0].stats["runs"] == 2)
    #expect(box.away.players[2].stats["outsPitched"] == 13, "4.1 innings are 13 outs")
    #expect(box.away.totals["leftOnBase"] == 4 && box.away.totals["errors"] == 0)
    let scores = batch.plays.filter { $0.type == .score }
    #expect(scores.map(\.side) == [.home, .away, .away, .home])
    #expect(scores.map { $0.details["points"] } == ["1", "2", "1", "1"])
    #expect(scores.map { "\($0.awayScore ?? -1)-\($0.homeScore ?? -1)" } == ["0-1", "2-1", "3-1", "3-2"])
    #expect(scores[1].player == "Ava Hitter" && scores[1].text.hasPrefix("Hitter,Ava homered"))
    #expect(batch.plays.last?.type == .other && batch.plays.last?.player == nil, "a substitution")
  }

  @Test func outsAreCountedFromInningsPitched() {
    #expect(
      GameText.outs(innings: "6.2") == 20 && GameText.outs(innings: "0.1") == 1 && GameText.outs(innings: "9") == 27)
    #expect(
      GameText.outs(innings: "6.3") == nil && GameText.outs(innings: "") == nil && GameText.outs(innings: "x") == nil)
  }

  @Test func aFileThatSaysNeitherGenderNorInningsIsUnknownAndSaysSo() throws {
    var page = try LCGameTests.fixture("softball-live-bottom-fifth")
    page.body = Data(
      String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: #" gender="W" schedinn="7""#, with: "")
        .utf8)
    let batch = try Self.run(page)
    #expect(batch.games.first?.sport == .unknown)
    #expect(batch.warnings.contains { $0.contains("baseball or softball is unknown") })
  }

  @Test(.enabled(if: RealPages.available)) func theRealGameIsNorthCarolinaFourIndianaThreeInEleven() throws {
    var page = try RealPages.page("statcrew/bsgame-mbase-indiana-at-unc-2026-02-14-g2.xml", url: "")
    page.url = nil
    let batch = try Self.run(page)
    let game = try #require(batch.games.first)
    #expect(game.id == "statbroadcast:game-6988d76ca4c73d31020b6015" && game.sport == .baseball)
    #expect(game.status == .final && game.period == 11 && game.periodLabel == "Final/11" && game.home.winner == true)
    #expect(
      game.away.periodScores == [1, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0] && game.home.score == 4 && game.home.rank == 11)
    #expect(batch.plays.count == 117 && batch.plays.last?.player == "Macon Winslow")
    let scores = batch.plays.filter { $0.type == .score }
    #expect(scores.filter { $0.side == .away }.count == 2 && scores.filter { $0.side == .home }.count == 3)
    #expect(batch.boxScores.first?.away.players.count == 16 && batch.boxScores.first?.home.totals["leftOnBase"] == 15)
  }
}
