import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatBroadcastSource

/// StatCrew volleyball (`<vbgame>`): the score is sets won, the periods each set's points, the
/// rallies `score` plays with the set's running points; men's or women's from the file's gender,
/// else `volleyball`, never a guess.
struct VolleyballXMLTests {
  static func run(_ page: Page) throws -> Batch { try LCGameTests.run(page) }

  static func edited(_ name: String, _ edit: (String) -> String) throws -> Page {
    var page = try LCGameTests.fixture(name)
    page.body = Data(edit(String(decoding: page.body, as: UTF8.self)).utf8)
    return page
  }

  @Test func aMensMatchLiveInTheFourthSetIsReadWhole() throws {
    let batch = try Self.run(try LCGameTests.fixture("volleyball-men-live-fourth-set"))
    let game = try #require(batch.games.first)
    #expect(game.id == "statbroadcast:655101" && game.sport == .volleyballMen)
    #expect(game.status == .live && game.period == 4 && game.periodLabel == "Set 4" && game.clock == nil)
    #expect(game.away.score == 2 && game.home.score == 1 && game.away.periodScores == [25, 22, 25, 12])
    #expect(game.venue == "Covelli Center", "the file's arena")
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.map(\.name) == ["Jan Kowalski", "Tomas Reyes"], "no TEAM row, no one who sat")
    #expect(box.away.players[0].stats["kills"] == 18 && box.away.players[0].stats["points"] == 23)
    #expect(box.away.players[1].stats["points"] == nil, "4.5 points: a half is left out")
    #expect(batch.warnings.contains { $0.contains("Tomas Reyes 4.5") })
    #expect(box.home.totals["digs"] == 45 && box.away.totals["blockAssists"] == 10)
    #expect(batch.teams.first { $0.name == "Ohio St." }?.ncaaOrgId == "518")
    let rallies = batch.plays.filter { $0.type == .score }
    #expect(rallies.map(\.side) == [.away, .home] && rallies.allSatisfy { $0.period == 4 })
    #expect(rallies.last.map { ($0.awayScore, $0.homeScore) } ?? (nil, nil) == (12, 14), "the set's points")
    #expect(batch.plays.first { $0.type == .timeout }?.text == "Timeout Ohio St.")
    #expect(rallies.map { $0.details["server"] } == ["Tomas Reyes", "Tomas Reyes"], "with or without the comma")
  }

  @Test func aFileWithoutAGenderIsVolleyballAndSaysSo() throws {
    let batch = try Self.run(
      try Self.edited("volleyball-men-live-fourth-set") { $0.replacingOccurrences(of: #" gender="M""#, with: "") })
    #expect(batch.games.first?.sport == .volleyball && batch.games.first?.sport.profile?.scoring == .sets)
    #expect(batch.warnings.contains { $0.contains("does not say men's or women's") })
  }

  @Test func aScoreThatIsNotTheSetsWonIsRefused() throws {
    let page = try Self.edited("volleyball-men-live-fourth-set") {
      $0.replacingOccurrences(
        of: #"<linescore line="25,22,25,12" score="2">"#, with: #"<linescore line="25,22,25,12" score="3">"#)
    }
    let batch = try Self.run(page)
    #expect(batch.games.isEmpty, "the match is refused, by name")
    #expect(batch.warnings.contains { $0.contains("away score 3 is not the sets it won (2)") }, "\(batch.warnings)")
  }

  @Test func aFinalWhoseRalliesDoNotAddUpToItsSetsIsRefused() throws {
    // Complete, but the file holds only the fourth set's rallies: the sets' points cannot be checked.
    let page = try Self.edited("volleyball-men-live-fourth-set") {
      $0.replacingOccurrences(of: #"<status vscore="2""#, with: #"<status complete="Y" vscore="2""#)

    }
    let batch = try Self.run(page)
    #expect(batch.games.isEmpty && batch.plays.isEmpty, "the match and its rallies are refused, by name")
    #expect(
      batch.warnings.contains { $0.contains("set 1 ended 25-21, but its rallies add up to 0-0") }, "\(batch.warnings)")
  }

  @Test(.enabled(if: RealPages.available)) func theRealMatchIsMiamiThreeSetsToTwoAtNorthCarolina() throws {
    var page = try RealPages.page("statcrew/vbgame-wvb-miami-at-unc-2025-11-29.xml", url: "")
    page.url = nil
    let batch = try Self.run(page)
    let game = try #require(batch.games.first)
    #expect(game.id == "statbroadcast:game-6394637", "the file's own game id (an NCAA contest id)")
    #expect(game.sport == .volleyball && game.status == .final && game.periodLabel == "Final" && game.period == 5)
    #expect(game.away.score == 3 && game.home.score == 2 && game.away.winner == true)
    #expect(game.away.periodScores == [20, 23, 25, 25, 15] && game.home.periodScores == [25, 25, 23, 20, 10])
    #expect(game.venue == "Carmichael Arena" && game.attendance == 2176)
    #expect(batch.plays.count == 237)
    for (set, (away, home)) in zip(game.away.periodScores, game.home.periodScores).enumerated() {
      let rallies = batch.plays.filter { $0.type == .score && $0.period == set + 1 }
      #expect(rallies.filter { $0.side == .away }.count == away && rallies.filter { $0.side == .home }.count == home)
    }
  }
}

/// A file that does not say men's or women's takes the sport its target was found with (the
/// calendar row), and only a sport of its own kind.
struct StatCrewSportHintTests {
  @Test func aFileWithoutAGenderTakesItsTargetsSportOfTheSameKind() throws {
    var page = try VolleyballXMLTests.edited("volleyball-men-live-fourth-set") {
      $0.replacingOccurrences(of: #" gender="M""#, with: "")
    }
    page.sport = .volleyballWomen
    let batch = try LCGameTests.run(page)
    #expect(batch.games.first?.sport == .volleyballWomen && batch.teams.allSatisfy { $0.sport == .volleyballWomen })
    #expect(!batch.warnings.contains { $0.contains("does not say") })
    page.sport = .soccerWomen
    #expect(try LCGameTests.run(page).games.first?.sport == .volleyball, "another sport's hint is not taken")
    // The file's own gender wins over the hint.
    var stated = try LCGameTests.fixture("volleyball-men-live-fourth-set")
    stated.sport = .volleyballWomen
    #expect(try LCGameTests.run(stated).games.first?.sport == .volleyballMen)
  }

  @Test func aTargetKeepsItsSportThroughTheStoreAndOldTargetsHaveNone() throws {
    let target = Target(
      url: "https://archive.statbroadcast.com/1.xml", source: "statbroadcast", parser: "statbroadcast-game-xml",
      role: .game, sport: .soccerMen)
    let decoded = try JSONDecoder().decode(Target.self, from: try JSONEncoder().encode(target))
    #expect(decoded == target && decoded.sport == .soccerMen)
    let old = #"{"url":"https://archive.statbroadcast.com/1.xml","source":"statbroadcast","parser":"p","role":"game"}"#
    #expect(try JSONDecoder().decode(Target.self, from: Data(old.utf8)).sport == nil)
  }
}
