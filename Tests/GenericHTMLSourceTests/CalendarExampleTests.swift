import Foundation
import StatlineCore
import StatlineTesting
import Testing

/// The facts of the real Michigan State calendar (a browser DOM after DataTables ran).
@Suite(.enabled(if: RealPages.available, "set STATLINE_REAL_FIXTURES to read the real pages"))
struct CalendarExampleTests {
  let batch: Batch

  init() throws {
    batch = try runExample(
      "statbroadcast-calendar",
      try RealPages.page(
        "statbroadcast/events-schedule-msu.html", url: "https://www.statbroadcast.com/events/schedule.php?gid=msu"))
  }

  @Test func oneGamePerEvent() {
    #expect(batch.games.count == 25)
    #expect(Set(batch.games.map(\.id)).count == 25)
    #expect(batch.games.allSatisfy { $0.status == .final })
  }

  @Test func theFirstEvent() throws {
    let first = try #require(batch.games.first)
    #expect(first.id == "statbroadcast:601763")
    #expect(first.date == "2025-11-01")
    #expect(first.sport == Sport("volleyball-women"))
    #expect(first.away.team.name == "Michigan St.")
    #expect(first.home.team.name == "Rutgers")
    #expect((first.away.score, first.home.score) == (3, 0))
    #expect(first.venue == "East Lansing, MI")
  }

  @Test func schoolLinksCarryTheEventIdToo() throws {
    // statb.us/v/msu/604646, not statb.us/b/…
    let football = try #require(batch.games.first { $0.id == "statbroadcast:604646" })
    #expect(football.sport == .football)
    #expect(
      (football.away.team.name, football.away.score, football.home.team.name, football.home.score) == (
        "Minnesota", 23, "Michigan St.", 20
      ))
  }

  @Test func gameNumbersAndTiesAreRead() throws {
    let tie = try #require(batch.games.first { $0.id == "statbroadcast:622619" })
    #expect((tie.away.score, tie.home.score) == (1, 1))
    #expect((tie.away.winner, tie.home.winner) == (false, false))
    #expect(tie.home.team.name == "Michigan St.", "the '(Game #9)' suffix is not part of the name")
  }

  @Test func theSidesCaveatTravelsWithTheBatch() {
    #expect(batch.warnings.count == 1)
    #expect(batch.warnings.first?.contains("winner first") == true)
  }
}

/// The server HTML inferred by hand: no DataTables markup, upcoming events without scores.
@Suite struct CalendarServerHTMLTests {
  let batch = try! runExample(
    "statbroadcast-calendar",
    try! handPage(
      "statbroadcast-calendar/server-html/page.html", url: "https://www.statbroadcast.com/events/schedule.php?gid=msu"))

  @Test func lacrosseEventsAndUpcomingGames() {
    #expect(
      batch.games.map(\.sport.rawValue) == [
        "lacrosse-men", "lacrosse-women", "lacrosse-men", "lacrosse-men", "lacrosse-women", "basketball-men",
      ])
    #expect(batch.games.map(\.status) == [.final, .final, .postponed, .scheduled, .scheduled, .unknown])
    let upcoming = batch.games[3]
    #expect((upcoming.away.team.name, upcoming.home.team.name) == ("Michigan St.", "Maryland"))
    #expect(upcoming.away.score == nil)
    #expect(batch.games[4].home.team.name == "Michigan St.", "a trailing note is not part of the name")
  }

  @Test func anEmptyShellIsAnErrorNotAnEmptyCalendar() throws {
    let shell = try handPage(
      "statbroadcast-calendar/rows-loaded-by-script/page.html",
      url: "https://www.statbroadcast.com/events/schedule.php?gid=msu")
    #expect(throws: StatlineError.self) { try runExample("statbroadcast-calendar", shell) }
  }
}
