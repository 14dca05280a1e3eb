import Foundation
import StatlineCore
import StatlineTesting
import Testing

/// The facts of the real Air Force 2025 schedule page, checked by eye against the page and
/// asserted here, not only through the golden.
@Suite(.enabled(if: RealPages.available, "set STATLINE_REAL_FIXTURES to read the real pages"))
struct NCAAScheduleExampleTests {
  let batch: Batch

  init() throws {
    batch = try runExample(
      "ncaa-team-schedule",
      try RealPages.page("ncaa-stats/team-594020-schedule-mlax-2025.html", url: "https://stats.ncaa.org/teams/594020"))
  }

  func game(_ id: String) throws -> Game { try #require(batch.games.first { $0.id == id }) }

  @Test func oneGamePerScheduleRowAndNoRankingRows() {
    #expect(batch.games.count == 16)
    #expect(!batch.games.contains { $0.away.team.name.contains("Percentage") || $0.home.team.name.contains("Offense") })
    #expect(batch.teams == [Team(id: "ncaa:594020", name: "Air Force", sport: .lacrosseMen)])
  }

  @Test func theFirstGameIsAnAwayLossAtLafayette() throws {
    let first = try #require(batch.games.first)
    #expect(first.id == "ncaa:6310104")
    #expect(first.date == "2025-02-01")
    #expect(first.status == .final)
    #expect(first.away.team == TeamRef(id: "ncaa:594020", name: "Air Force"))
    #expect(first.home.team == TeamRef(id: "ncaa:593962", name: "Lafayette"))
    #expect((first.away.score, first.home.score) == (8, 11))
    #expect((first.away.winner, first.home.winner) == (false, true))
    #expect(first.attendance == 213)
    #expect(first.neutralSite == false)
  }

  @Test func aHomeGamePutsAirForceAtHome() throws {
    let denver = try game("ncaa:6310059")
    #expect(denver.home.team.name == "Air Force")
    #expect(denver.away.team.name == "Denver")
    #expect((denver.away.score, denver.home.score) == (14, 8))
  }

  @Test func theOvertimeGameIsTheFifthPeriodAndTheOtherFinalsTheFourth() throws {
    let utah = try game("ncaa:6310153")
    #expect(utah.period == 5)
    #expect(utah.periodLabel == "1 OT")
    #expect((utah.away.team.name, utah.away.score, utah.home.score) == ("Utah", 15, 16))
    let finals = batch.games.filter { $0.status == .final }
    #expect(finals.count == 15 && finals.filter { $0.id != utah.id }.allSatisfy { $0.period == 4 })
    #expect(batch.games.filter { $0.status != .final }.allSatisfy { $0.period == nil }, "not played: no period")
  }

  @Test func neutralSitesAreFlaggedWithTheirCity() throws {
    let neutral = batch.games.filter { $0.neutralSite == true }
    #expect(neutral.map(\.id) == ["ncaa:6310130", "ncaa:6380947"])
    #expect(neutral.map(\.venue) == ["Wilmette, IL", "Jacksonville, FL"])
    // A note that is not a "@City" line is not a neutral site.
    let jacksonville = try game("ncaa:6380948")
    #expect(jacksonville.neutralSite == false)
    #expect(jacksonville.home.rank == 2)
    #expect(jacksonville.home.team.name == "Jacksonville")
  }

  @Test func theUnplayedGameIsScheduledWithoutScores() throws {
    let last = try #require(batch.games.last)
    #expect(last.status == .scheduled)
    #expect(last.id == "ncaa:team-594020-2025-05-07")
    #expect(last.home.team == TeamRef(id: "ncaa:594007", name: "Robert Morris"))
    #expect(last.away.score == nil && last.home.score == nil && last.attendance == nil)
    #expect(batch.games.filter { $0.status == .final }.count == 15)
  }
}

/// The hand-written edge cases: statuses that are not W/L, a team without a page, a neutral note.
@Suite struct NCAAScheduleEdgeCaseTests {
  let batch = try! runExample(
    "ncaa-team-schedule",
    try! handPage("ncaa-team-schedule/edge-cases/page.html", url: "https://stats.ncaa.org/teams/614511"))

  @Test func statusesAreMappedNeverGuessed() {
    #expect(
      batch.games.map(\.status) == [.final, .final, .cancelled, .postponed, .final, .final, .unknown, .scheduled])
  }

  @Test func aMultipleOvertimeLossAway() throws {
    let hopkins = try #require(batch.games.first { $0.id == "ncaa:6500002" })
    #expect(hopkins.period == 6)
    #expect(hopkins.periodLabel == "2 OT")
    #expect(hopkins.away.team.name == "Navy")
    #expect(hopkins.home.rank == 5)
  }

  @Test func anOpponentWithoutAPageIsNamedFromText() throws {
    let game = try #require(batch.games.first { $0.id == "ncaa:6500005" })
    #expect(game.away.team == TeamRef(id: nil, name: "St. Francis (IL)"))
  }

  @Test func aNeutralSiteWithANoteKeepsOnlyTheCity() throws {
    let game = try #require(batch.games.first { $0.id == "ncaa:6500004" })
    #expect(game.neutralSite == true)
    #expect(game.venue == "Baltimore, MD")
    #expect(game.attendance == 3950)
  }
}
