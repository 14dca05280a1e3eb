import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import NCAASource

/// Legacy stats.ncaa.org pages (issue 55): the sport their links state when nothing else does,
/// and the game facts wherever their key/value table sits.
@Suite struct LegacyStatedFactsTests {
  static let box = "ncaa-legacy-box/basketball-sport-only-in-links-2018"
  static let plays = "ncaa-legacy-pbp/basketball-sport-only-in-links-2018"

  @Test func theLinksSportCodeNamesTheSportOfTheBoxAndThePlays() throws {
    for (folder, parser) in [(Self.box, "ncaa-legacy-box"), (Self.plays, "ncaa-legacy-pbp")] {
      let batch = try NCAAHandWrittenTests.batch(folder, parser: parser)
      let game = try #require(batch.games.first)
      #expect(game.sport == .basketballMen, "\(folder)")
      #expect(
        batch.warnings.contains(
          "the page names its sport only in its links (sport_code=MBB): the sport is basketball-men"))
      #expect(game.status == .final && game.period == 2, "two halves filled: a men's final, not live")
      #expect(game.date == "2018-02-08" && game.attendance == 21_750 && (game.away.score, game.home.score) == (74, 82))
    }
    let box = try NCAAHandWrittenTests.batch(Self.box, parser: "ncaa-legacy-box")
    #expect(box.boxScores.first?.home.players.count == 2)
  }

  @Test func linksThatDisagreeOrATargetsSportStateNoLinkSport() throws {
    var page = try NCAAHandWrittenTests.page(Self.box)
    let text = String(decoding: page.body, as: UTF8.self)
    page.body = Data(
      text.replacingOccurrences(of: "sport_code=MBB&amp;academic_year", with: "sport_code=WBB&amp;academic_year").utf8)
    let mixed = try NCAAHandWrittenTests.run(page, parser: "ncaa-legacy-box")
    #expect(mixed.games.first?.sport == .unknown && !mixed.warnings.contains { $0.contains("sport_code") })
    var hinted = try NCAAHandWrittenTests.page(Self.box)
    hinted.sport = .basketballMen
    let batch = try NCAAHandWrittenTests.run(hinted, parser: "ncaa-legacy-box")
    #expect(batch.games.first?.sport == .basketballMen && !batch.warnings.contains { $0.contains("sport_code") })
  }

  @Test func theFactsAreReadFromATableWithoutTheClass() throws {
    let batch = try NCAAHandWrittenTests.batch(
      "ncaa-legacy-box/facts-table-without-class-2020", parser: "ncaa-legacy-box")
    let game = try #require(batch.games.first)
    #expect(game.date == "2020-02-01" && game.attendance == 1_311 && game.venue == "West Point, N.Y. (Michie Stadium)")
    #expect(game.sport == .lacrosseMen && game.status == .final)
  }

  @Test func aFactInOneCellIsReadToo() throws {
    var page = try NCAAHandWrittenTests.page("ncaa-legacy-box/facts-table-without-class-2020")
    let text = String(decoding: page.body, as: UTF8.self)
    page.body = Data(
      text.replacingOccurrences(
        of: "<td class=\"boldtext\"><b>Attendance:</b></td><td>1,311</td>", with: "<td>Attendance: 2,024</td>"
      ).utf8)
    #expect(try NCAAHandWrittenTests.run(page, parser: "ncaa-legacy-box").games.first?.attendance == 2_024)
  }
}
