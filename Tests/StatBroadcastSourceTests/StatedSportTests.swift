import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatBroadcastSource

/// A StatCrew file that states its sport by code (issue 55): `<venue sportcode="MBB">` or the
/// root's `sportcode`, with no `gender` anywhere and a target that names no sport, is read as
/// that sport, with a warning saying where it came from.
@Suite struct StatedSportTests {
  static func page(_ text: String) -> Page {
    Page(url: "https://archive.statbroadcast.com/415501.xml", body: Data(text.utf8))
  }

  static let file = try! String(
    contentsOf: PackageRoot.file(
      "Fixtures/StatBroadcast/statbroadcast-game-xml/basketball-men-sportcode-no-gender/page.xml"),
    encoding: .utf8)

  @Test func theVenuesSportCodeNamesTheSport() throws {
    let batch = try LCGameTests.run(Self.page(Self.file))
    #expect(batch.games.first?.sport == .basketballMen && batch.teams.allSatisfy { $0.sport == .basketballMen })
    #expect(
      batch.warnings.contains(
        "the file names no gender: the sport (basketball-men) is read from its <venue sportcode=\"MBB\">"))
    #expect(batch.plays.count == 3 && batch.games.first?.status == .live)
  }

  @Test func theRootsSportCodeToo() throws {
    let moved = Self.file.replacingOccurrences(of: " sportcode=\"MBB\"", with: "")
      .replacingOccurrences(of: "<bbgame source=", with: "<bbgame sportcode=\"WBB\" source=")
    let batch = try LCGameTests.run(Self.page(moved))
    #expect(batch.games.first?.sport == .basketballWomen)
    #expect(batch.warnings.contains { $0.contains("<bbgame sportcode=\"WBB\">") })
  }

  @Test func aGenderWinsAndACodeOfAnotherSportIsNotRead() throws {
    let gendered = Self.file.replacingOccurrences(of: "sportcode=\"MBB\"", with: "sportcode=\"MBB\" gender=\"W\"")
    let women = try LCGameTests.run(Self.page(gendered))
    #expect(women.games.first?.sport == .basketballWomen && !women.warnings.contains { $0.contains("sportcode") })
    let other = try LCGameTests.run(
      Self.page(Self.file.replacingOccurrences(of: "sportcode=\"MBB\"", with: "sportcode=\"WVB\"")))
    #expect(other.games.first?.sport == .unknown, "a volleyball code on a basketball file says nothing: not guessed")
    var hinted = Self.page(Self.file.replacingOccurrences(of: " sportcode=\"MBB\"", with: ""))
    #expect(try LCGameTests.run(hinted).games.first?.sport == .unknown, "without the code nothing names the sport")
    hinted.sport = .basketballWomen
    #expect(try LCGameTests.run(hinted).games.first?.sport == .basketballWomen, "the target's sport, as before")
  }

  /// The root is found after a comment that quotes a tag (`-->` ends it, not the quoted `>`).
  @Test func aCommentQuotingATagDoesNotHideTheRoot() {
    let text = "<?xml version=\"1.0\"?>\n<!-- a note: <venue sportcode=\"MBB\"> -->\n<bbgame>"
    #expect(StatCrewGameParser.root(of: Data(text.utf8)) == "bbgame")
    #expect(StatCrewGameParser.root(of: Data("<!-- unclosed <lcgame>".utf8)) == nil)
  }

  @Test func aCalendarReadsTheSameCodes() {
    #expect(StatCrewSportCode.sport(" mbb ") == .basketballMen && StatCrewSportCode.sport("WLAX") == .lacrosseWomen)
    #expect(StatCrewSportCode.sport("XYZ") == nil && StatCrewSportCode.sport(nil) == nil)
  }
}
