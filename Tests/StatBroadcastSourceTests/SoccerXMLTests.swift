import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatBroadcastSource

/// StatCrew soccer and field hockey (`<sogame>`): told apart by the file's `<show fhk>` or its
/// periods, never by the root; men's or women's soccer from the gender, else `soccer`; a file
/// without a complete flag final only when its last play ends a period past regulation with one
/// side ahead.
struct SoccerXMLTests {
  static func run(_ page: Page) throws -> Batch { try LCGameTests.run(page) }

  static func edited(_ edit: (String) -> String) throws -> Page {
    var page = try LCGameTests.fixture("field-hockey-live-third-quarter")
    page.body = Data(edit(String(decoding: page.body, as: UTF8.self)).utf8)
    return page
  }

  @Test func aFieldHockeyGameLiveInTheThirdQuarterIsReadWhole() throws {
    let batch = try Self.run(try LCGameTests.fixture("field-hockey-live-third-quarter"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .fieldHockey && game.status == .live && game.period == 3)
    #expect(game.periodLabel == "3rd Quarter" && game.clock == "37:10", "the match minute, as the file writes it")
    #expect(game.away.score == 2 && game.home.score == 1 && game.away.periodScores == [1, 0, 1])
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.map(\.name) == ["Ana Keeper", "Bea Striker", "Cara Mid"], "no bench, no TEAM row")
    #expect(box.away.players[1].stats["goals"] == 2 && box.away.players[1].stats["yellowCards"] == 1)
    #expect(box.away.players[0].stats["saves"] == 3 && box.away.players[0].stats["secondsPlayed"] == 37 * 60)
    #expect(box.away.totals["corners"] == 6 && box.home.totals["goalsAllowed"] == 2)
    let goals = batch.plays.filter { $0.type == .goal }
    #expect(goals.map(\.player) == ["Bea Striker", "Eve Forward", "Bea Striker"])
    #expect(goals[0].assist == "Cara Mid" && goals.map(\.side) == [.away, .home, .away])
    #expect(goals.last.map { ($0.awayScore, $0.homeScore) } ?? (nil, nil) == (2, 1))
    #expect(batch.plays.first { $0.type == .penalty }?.details["card"] == "yellow")
    #expect(batch.plays.first { $0.type == .shot }?.player == "Cara Mid", "the name ends at its second comma")
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
  }

  @Test func aWomensSoccerMatchAtHalftimeIsLiveBetweenTheHalves() throws {
    let page = try Self.edited {
      $0.replacingOccurrences(of: #"fhk="1""#, with: #"fhk="0""#)
        .replacingOccurrences(of: #"<rules prds="4" minutes="15""#, with: #"<rules prds="2" minutes="45""#)
        .replacingOccurrences(of: #"attend="812""#, with: #"attend="812" gender="W""#)
        .replacingOccurrences(of: #"line="1,0,1" score="2""#, with: #"line="1" score="1""#)
        .replacingOccurrences(of: #"line="0,1,0" score="1""#, with: #"line="0" score="0""#)
        .replacing(#/<lineprd prd="[23]"[^>]*/>/#, with: "")
        .replacingOccurrences(of: #"<status period="3" clock="37:10""#, with: #"<status period="1" clock="45:00""#)
        .replacing(#/<period number="2">.*</period>\s*</plays>/#.dotMatchesNewlines(), with: "</plays>")
        .replacingOccurrences(of: #"g="2" a="0" pts="4""#, with: #"g="1" a="0" pts="2""#)
        .replacingOccurrences(of: #"g="1" a="0" pts="2" sh="4""#, with: #"g="0" a="0" pts="0" sh="4""#)
    }
    let batch = try Self.run(page)
    let game = try #require(batch.games.first, "\(batch.warnings)")
    #expect(game.sport == .soccerWomen && game.status == .live && game.period == 1 && game.periodLabel == "Halftime")
    #expect(game.away.score == 1 && game.home.score == 0)
  }

  @Test func aSogameThatIsNeitherSoccerNorFieldHockeyIsUnsupported() throws {
    let page = try Self.edited {
      $0.replacingOccurrences(of: #" fhk="1""#, with: "").replacingOccurrences(of: #"prds="4""#, with: #"prds="3""#)
    }
    let error = #expect(throws: StatlineError.self) { try Self.run(page) }
    #expect(error?.kind == .unsupported && error?.description.contains("neither soccer") == true)
  }

  @Test func aFinalWithoutACompleteFlagNeedsAWinnerAfterRegulation() throws {
    // The third quarter ends with North Carolina ahead: not regulation's end, still live.
    let third = try Self.edited {
      $0.replacingOccurrences(
        of: #"text="GOAL by UNC Striker, Bea." hscore="1" vscore="2" />"#,
        with:
          #"text="GOAL by UNC Striker, Bea." hscore="1" vscore="2" /><play number="8" vh="H" clock="45:00" action="END-PRD" text="End of period [45:00]." />"#
      )
    }
    let live = try #require(try Self.run(third).games.first)
    #expect(live.status == .live && live.periodLabel == "End of 3rd Quarter")
    // The same page as the fourth quarter's end: final, and said.
    let fourth = try Self.edited {
      $0.replacingOccurrences(of: #"<period number="3">"#, with: #"<period number="4">"#)
        .replacingOccurrences(
          of: #"text="GOAL by UNC Striker, Bea." hscore="1" vscore="2" />"#,
          with:
            #"text="GOAL by UNC Striker, Bea." hscore="1" vscore="2" /><play number="8" vh="H" clock="60:00" action="END-PRD" text="End of period [60:00]." />"#
        )
        .replacingOccurrences(of: #"line="1,0,1" score="2""#, with: #"line="1,0,0,1" score="2""#)
        .replacingOccurrences(of: #"line="0,1,0" score="1""#, with: #"line="0,1,0,0" score="1""#)
        // Without its period lines the line attribute says the periods.
        .replacing(#/<lineprd [^>]*/>/#, with: "")
        .replacingOccurrences(of: #"<status period="3""#, with: #"<status period="4""#)
    }
    let batch = try Self.run(fourth)
    let final = try #require(batch.games.first, "\(batch.warnings)")
    #expect(final.status == .final && final.periodLabel == "Final" && final.away.winner == true)
    #expect(batch.warnings.contains { $0.contains("no complete flag; final because its last play ends 4th Quarter") })
  }

  @Test(.enabled(if: RealPages.available)) func theRealMatchIsWashingtonThreeNCStateTwoAfterAGoldenGoal() throws {
    var page = try RealPages.page("statcrew/sogame-msoc-washington-vs-ncstate-2025-12-15.xml", url: "")
    page.url = nil
    let batch = try Self.run(page)
    let game = try #require(batch.games.first)
    #expect(game.id == "statbroadcast:game-6489860" && game.sport == .soccer && game.neutralSite == true)
    #expect(game.status == .final && game.period == 3 && game.periodLabel == "Final/OT" && game.away.winner == true)
    #expect(game.away.periodScores == [1, 1, 1] && game.home.periodScores == [0, 2, 0])
    #expect(batch.plays.count == 95 && batch.plays.filter { $0.type == .goal }.count == 5)
    #expect(batch.plays.last { $0.type == .goal }?.player == "Harrison Bertos")
    #expect(batch.boxScores.first?.away.players.count == 15 && batch.boxScores.first?.home.players.count == 14)
    #expect(batch.boxScores.first?.away.totals["shots"] == 13 && batch.boxScores.first?.home.totals["shots"] == 17)
  }
}
