import Foundation
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import ESPNSource

@Suite struct ESPNSourceTests {
  static let goldens = GoldenCases([ESPNSource.plugin])

  @Test(arguments: Self.goldens.cases(plugin: "ESPN"))
  func golden(_ fixture: FixtureCase) {
    Self.goldens.expectPasses(fixture)
  }

  static func entry(_ settings: PluginSettings = PluginSettings()) throws -> ParserEntry {
    try #require(try ESPNSource.plugin.parsers(settings).first { $0.id == "espn-scoreboard" })
  }

  static func page(_ folder: String) throws -> Page {
    try PageLoader.load(PackageRoot.file("Fixtures/ESPN/espn-scoreboard/\(folder)").path)
  }

  /// The hand-written lacrosse day: a final, an overtime final at a neutral site, a live game, an
  /// unplayed one and a postponed one, each as ESPN's states and details say.
  @Test func aLacrosseDayIsReadWithEveryState() throws {
    let batch = try PagePipeline.run(try Self.page("mens-lacrosse-day"), with: try Self.entry())
    #expect(batch.games.count == 5 && batch.games.allSatisfy { $0.sport == .lacrosseMen && $0.date == "2026-03-14" })
    let final = try #require(batch.games.first { $0.id == "espn:401700001" })
    #expect(final.status == .final && final.period == 4 && final.periodLabel == "Final")
    #expect(final.away.team.name == "Army Black Knights" && final.away.score == 11 && final.away.winner == false)
    #expect(final.home.team.id == "espn:team-153" && final.home.score == 14 && final.home.rank == 5)
    #expect(final.home.periodScores == [3, 4, 2, 5] && final.home.record == "6-1" && final.attendance == 2411)
    #expect(final.startTime == "2026-03-14T16:00:00Z" && final.venue == "Dorrance Field")
    let overtime = try #require(batch.games.first { $0.id == "espn:401700002" })
    #expect(overtime.period == 5 && overtime.periodLabel == "Final/OT" && overtime.neutralSite == true)
    let live = try #require(batch.games.first { $0.id == "espn:401700003" })
    #expect(live.status == .live && live.period == 3 && live.clock == "07:32" && live.periodLabel == "3rd Quarter")
    #expect(live.away.score == 6 && live.home.score == 7 && live.home.winner == nil)
    let unplayed = try #require(batch.games.first { $0.id == "espn:401700004" })
    #expect(unplayed.status == .scheduled && unplayed.away.score == nil && unplayed.period == nil)
    #expect(unplayed.clock == nil && unplayed.away.periodScores.isEmpty && unplayed.attendance == nil)
    #expect(batch.games.first { $0.id == "espn:401700005" }?.status == .postponed, "state post, but postponed")
    #expect(batch.teams.count == 10 && batch.teams.allSatisfy { $0.id.hasPrefix("espn:team-") })
    let hopkins = try #require(batch.teams.first { $0.id == "espn:team-118" })
    #expect(hopkins.name == "Johns Hopkins Blue Jays" && hopkins.shortName == "Johns Hopkins", "ESPN's location")
  }

  /// A board with a live game is polled at the live cadence; it asks for no game pages.
  @Test func theBoardIsADiscoveryTargetThatAsksForNothing() throws {
    let entry = try Self.entry()
    #expect(entry.discovers)
    let batch = try PagePipeline.run(try Self.page("mens-lacrosse-day"), with: entry)
    #expect(entry.discover?(batch).isEmpty == true)
    let now = Date(timeIntervalSince1970: 1_773_511_200)
    #expect(
      SchedulingPolicy.default.next(.init(role: .discovery, games: batch.games, now: now)) == .after(.seconds(30)))
  }

  @Test func anUnknownLeagueIsRefusedNamingItUntilItsSportIsConfigured() throws {
    var page = try Self.page("mens-lacrosse-day")
    let text = String(decoding: page.body, as: UTF8.self).replacingOccurrences(
      of: "mens-college-lacrosse", with: "mens-college-rugby")
    page.body = Data(text.utf8)
    page.url = page.url?.replacingOccurrences(of: "mens-college-lacrosse", with: "mens-college-rugby")
    let error = #expect(throws: StatlineError.self) { try PagePipeline.run(page, with: try Self.entry()) }
    #expect(error?.kind == .unsupported && error?.reason.contains("'mens-college-rugby'") == true)
    #expect(error?.hint?.contains("league.mens-college-rugby") == true)
    let configured = try Self.entry(PluginSettings(options: ["espn": ["league.mens-college-rugby": "rugby-men"]]))
    #expect(try PagePipeline.run(page, with: configured).games.allSatisfy { $0.sport == Sport("rugby-men") })
  }

  @Test func anEventWithoutBothCompetitorsIsLeftOutAndNamed() throws {
    var page = try Self.page("mens-lacrosse-day")
    let text = String(decoding: page.body, as: UTF8.self).replacingOccurrences(
      of: #""homeAway": "away""#, with: #""homeAway": "visitor""#)
    page.body = Data(text.utf8)
    #expect(throws: StatlineError.self, "no event has an away competitor: nothing passes") {
      try PagePipeline.run(page, with: try Self.entry())
    }
  }

  /// A period score no `Int` holds (found by the fuzzer: it trapped) leaves that team's line
  /// score out, named; the game and its score stay.
  @Test func aPeriodScoreThatIsNoNumberOfPointsLeavesTheLineScoreOutNamed() throws {
    var page = try Self.page("mens-lacrosse-day")
    let text = String(decoding: page.body, as: UTF8.self)
    let first = try #require(text.range(of: #""value": 3.0"#))
    page.body = Data(text.replacingCharacters(in: first, with: #""value": 3e300"#).utf8)
    let batch = try PagePipeline.run(page, with: try Self.entry())
    #expect(batch.warnings.contains { $0.contains("period scores") && $0.contains("left out") }, "\(batch.warnings)")
    let game = try #require(batch.games.first)
    #expect(game.home.periodScores.isEmpty && game.home.score != nil, "the line score left out, the score kept")
    #expect(!game.away.periodScores.isEmpty)
  }

  @Test func theDayComesFromTheURLElseFromTheStartInUSEasternTime() {
    #expect(ESPNScoreboardParser.day(inURL: "https://site.api.espn.com/x/scoreboard?dates=20251126") == "2025-11-26")
    #expect(ESPNScoreboardParser.day(inURL: "https://site.api.espn.com/x/scoreboard?dates=20251126-20251130") == nil)
    #expect(ESPNTime.easternDate("2025-11-27T04:59Z") == "2025-11-26", "11:59 PM EST")
    #expect(ESPNTime.easternDate("2026-03-15T03:30Z") == "2026-03-14", "11:30 PM EDT, after the change")
    #expect(ESPNTime.easternDate("2026-03-08T06:30Z") == "2026-03-08", "1:30 AM EST, before 2 a.m.")
    #expect(ESPNTime.easternDate("2026-03-08T04:30Z") == "2026-03-07", "11:30 PM EST the evening before")
    #expect(ESPNTime.iso("2025-11-26T16:00Z") == "2025-11-26T16:00:00Z")
  }
}
