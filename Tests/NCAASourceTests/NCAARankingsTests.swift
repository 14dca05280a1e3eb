import Foundation
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import NCAASource

/// ncaa.com rankings pages (hand-written from what other public scrapers describe: no real page
/// is saved here), read by their header's words.
@Suite struct NCAARankingsTests {
  static let parser = "ncaa-com-rankings"

  static func page(_ folder: String) throws -> Page {
    try PageLoader.load(PackageRoot.file("Fixtures/NCAA/ncaa-com-rankings/\(folder)").path)
  }

  static func week(_ folder: String) throws -> (Ranking, [DiscoveredTarget], Batch) {
    let entry = try NCAARun.entry(parser)
    let (_, discovered) = try entry.processDiscovering(try page(folder))
    let batch = try PagePipeline.run(try page(folder), with: entry)
    return (try #require(batch.rankings.first), discovered, batch)
  }

  @Test func aMediaPollReadsVotesOffTheSchoolTiesAndOthersReceivingVotes() throws {
    let (week, discovered, batch) = try Self.week("media-poll-with-votes-and-ties")
    #expect(week.id == "ncaa:com-lacrosse-men-d1-inside-lacrosse@2026/2026-03-01")
    #expect(week.name == "Inside Lacrosse Men's DI Media Poll" && week.sport == .lacrosseMen)
    #expect(week.through == "2026-03-01" && week.season == 2026 && week.week == nil && week.part == nil)
    #expect(week.rows.map(\.team.name).prefix(3) == ["Duke", "Notre Dame", "Cornell"], "votes off the names")
    #expect(week.rows.map(\.firstPlaceVotes).prefix(4) == [15, 4, 1, nil])
    #expect(week.rows.first?.team.id == "ncaa:com-team-duke", "the school's link gives its ncaa.com slug")
    #expect(week.rows.map(\.rank) == [1, 2, 3, 4, 4, 6, 7, 8, 9, 10])
    #expect(week.rows.filter(\.tied).map(\.team.name) == ["Princeton", "Syracuse"])
    #expect(week.rows[5].previous == nil && week.rows[8].previous == nil, "NR and a blank are unranked")
    #expect(week.rows[0].points == 500 && week.rows[0].record == "5-0" && week.rows[0].previous == 2)
    #expect(week.othersReceivingVotes.map(\.team.name) == ["Maryland", "Georgetown", "Denver"])
    #expect(week.othersReceivingVotes.map(\.points) == [12, 5, 2])
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    #expect(
      discovered.map(\.target.url) == [
        "https://www.ncaa.com/rankings/lacrosse-men/d1/usila-coaches",
        "https://www.ncaa.com/rankings/lacrosse-men/d1/ncaa-mens-lacrosse-rpi",
      ], "the drop-down's other polls: one target per poll")
    #expect(discovered.allSatisfy { $0.target.role == .poll && $0.target.parser == Self.parser && $0.gameId == nil })
  }

  @Test func aCoachesPollInAnotherColumnOrderKeepsQualifiersAndReceivedVotes() throws {
    let (week, _, _) = try Self.week("coaches-poll-other-column-order")
    #expect(week.poll == "ncaa:com-lacrosse-men-d1-usila-coaches" && week.name == "USILA Coaches Poll")
    #expect(week.rows.map(\.team.name) == ["Notre Dame", "Duke", "St. Joseph's (PA)", "Miami (OH)"])
    #expect(week.rows.map(\.firstPlaceVotes) == [12, 7, nil, nil], "from the First Place Votes column")
    #expect(week.rows.map(\.points) == [380, 370, 300, 10] && week.rows.map(\.record).first == "4-1")
    #expect(week.rows.map(\.previous) == [1, 2, nil, nil])
    #expect(week.rows[3].values["PREVIOUS"] == "RV", "what a previous rank that is no number said is kept")
  }

  @Test func anRPIPageKeepsItsOwnColumnsByHeader() throws {
    let (week, _, _) = try Self.week("rpi")
    #expect(week.poll == "ncaa:com-lacrosse-men-d1-ncaa-mens-lacrosse-rpi")
    let duke = try #require(week.rows.first)
    #expect(duke.points == nil && duke.record == "5-0" && duke.previous == 2)
    #expect(
      duke.values == ["CONFERENCE": "ACC", "ROAD": "2-0", "NEUTRAL": "1-0", "HOME": "2-0", "NON DIV I": "0-0"])
  }

  @Test func aPagedPollsLaterPageIsAPartAndFindsTheOtherPages() throws {
    let (week, discovered, _) = try Self.week("paged-poll-second-page")
    #expect(
      week.part == 2 && week.id == "ncaa:com-basketball-men-d1-ncaa-mens-basketball-net-rankings@2026/2026-02-26/p2")
    #expect(week.weekId == "ncaa:com-basketball-men-d1-ncaa-mens-basketball-net-rankings@2026/2026-02-26")
    #expect(week.rows.map(\.rank) == [51, 52, 53] && week.sport == .basketballMen)
    let base = "https://www.ncaa.com/rankings/basketball-men/d1/ncaa-mens-basketball-net-rankings"
    #expect(
      Set(discovered.map(\.target.url)) == [
        base, base + "/p3", "https://www.ncaa.com/rankings/basketball-men/d1/associated-press",
      ])
  }

  @Test func aPageWithoutAPollOrWithoutARankColumnIsRefusedSayingWhat() throws {
    let none = try NCAAHandWrittenTests.failure("ncaa-com-rankings/page-without-a-poll", parser: Self.parser)
    #expect(none.reason == "the page has no poll table")
    let header = try NCAAHandWrittenTests.failure("ncaa-com-rankings/header-without-a-rank-column", parser: Self.parser)
    #expect(header.reason.contains("no table's header has a rank column") && header.reason.contains("POS"))
  }

  @Test func anUndatedPollIsNamedUndatedWithAWarningAndTakesTheFetchDaysSeason() throws {
    var page = try Self.page("rpi")
    page.body = Data(
      String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: "Through Games MAR. 1, 2026", with: "").utf8)
    let batch = try PagePipeline.run(page, with: try NCAARun.entry(Self.parser))
    #expect(batch.rankings.first?.edition == "undated" && batch.rankings.first?.season == 2026)
    #expect(batch.warnings.contains { $0.contains("no 'Through Games' date") })
  }

  @Test(
    arguments: [
      ("Through Games JAN. 5, 2026", "2026-01-05"), ("Through Games March 1, 2026", "2026-03-01"),
      ("Through Games Sept. 28, 2025", "2025-09-28"), ("Through Games FEB. 30, 2026", nil), ("Through Games", nil),
    ] as [(String, String?)])
  func throughDates(_ text: String, _ date: String?) {
    #expect(ComDate.date(in: text) == date)
  }

  /// The store resolves every school of the hand-written polls to a canonical team.
  @Test func theRegistryResolvesEverySchoolOfThePolls() async throws {
    for folder in [
      "media-poll-with-votes-and-ties", "coaches-poll-other-column-order", "rpi", "paged-poll-second-page",
    ] {
      let store = MemoryStore()
      _ = try await store.write(try PagePipeline.run(try Self.page(folder), with: try NCAARun.entry(Self.parser)))
      for week in try await store.rankings(sport: nil, poll: nil) {
        for (team, canonical) in week.namedTeams {
          #expect(canonical != nil, "\(folder): \(team.name) does not resolve")
        }
      }
    }
  }
}
