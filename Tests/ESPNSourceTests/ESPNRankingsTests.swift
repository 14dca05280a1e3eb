import Foundation
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import ESPNSource

/// ESPN's rankings: the site API's answer (hand-written, modelled on ESPN's public answers),
/// the real core-API weeks (`FACTS.json` checks those too), and what is refused.
@Suite struct ESPNRankingsTests {
  static func entry() throws -> ParserEntry {
    try #require(try ESPNSource.plugin.parsers(PluginSettings()).first { $0.id == "espn-rankings" })
  }

  static func page(_ folder: String) throws -> Page {
    try PageLoader.load(PackageRoot.file("Fixtures/ESPN/espn-rankings/\(folder)").path)
  }

  @Test func theSiteAPIsPollsAreReadWithTiesVotesAndOthersReceivingVotes() throws {
    let batch = try PagePipeline.run(try Self.page("mens-lacrosse-site-api"), with: try Self.entry())
    #expect(batch.rankings.map(\.poll) == ["espn:mens-college-lacrosse-il", "espn:mens-college-lacrosse-usila"])
    let media = try #require(batch.rankings.first)
    #expect(media.id == "espn:mens-college-lacrosse-il@2026/t2-w04" && media.name == "Inside Lacrosse Media Poll")
    #expect(media.sport == .lacrosseMen && media.season == 2026 && media.week == 4, "lacrosse's ESPN season is its own")
    #expect(media.rows.map(\.rank) == [1, 2, 3, 4, 4, 6])
    #expect(media.rows.map(\.tied) == [false, false, false, true, true, false], "two at 4 are tied")
    let duke = try #require(media.rows.first)
    #expect(duke.team == TeamRef(id: "espn:team-150", name: "Duke Blue Devils", abbreviation: "DUKE"))
    #expect(duke.points == 500 && duke.firstPlaceVotes == 16 && duke.record == "5-0" && duke.previous == 2)
    #expect(media.rows.last?.previous == nil, "ESPN's previous 0 is unranked, not rank 0")
    #expect(media.othersReceivingVotes.map(\.points) == [12, 5])
    #expect(media.othersReceivingVotes.first?.team.id == "espn:team-120")
    #expect(batch.warnings.isEmpty)
  }

  @Test func aFallSportsESPNSeasonIsTheAcademicYearItEndsIn() throws {
    let page = Page(
      url:
        "https://sports.core.api.espn.com/v2/sports/football/leagues/college-football/seasons/2025/types/2/weeks/1/rankings/1",
      body: Data(
        #"{"name":"AP Top 25","type":"ap","occurrence":{"number":1,"type":"week"},"ranks":[{"current":1,"team":{"$ref":"http://sports.core.api.espn.com/v2/sports/football/leagues/college-football/seasons/2025/teams/194"}}]}"#
          .utf8))
    let batch = try PagePipeline.run(page, with: try Self.entry())
    let week = try #require(batch.rankings.first)
    #expect(week.season == 2026 && week.edition == "t2-w01", "college football 2025 is fall 2025: season 2026")
    #expect(week.rows.first?.team == TeamRef(id: "espn:team-194", name: "ESPN team 194"), "no teams list: the id stays")
  }

  /// Every school the polls name is one the registry knows (a store resolves them as it writes).
  @Test func theRegistryResolvesEverySchoolOfThePolls() async throws {
    var pages = [try Self.page("mens-lacrosse-site-api")]
    if RealPages.available {
      pages.append(try RealPages.page("espn/espn-core-cfb-rankings-2025-week5-ap-coaches-top3.json", url: ""))
      pages[1].url = nil
    }
    for page in pages {
      let store = MemoryStore()
      _ = try await store.write(try PagePipeline.run(page, with: try Self.entry()))
      let stored = try await store.rankings(sport: nil, poll: nil)
      #expect(!stored.isEmpty)
      for week in stored {
        for (team, canonical) in week.namedTeams {
          #expect(canonical != nil, "\(week.id): \(team.name) (\(team.id ?? "")) does not resolve")
        }
      }
    }
    let store = MemoryStore()
    _ = try await store.write(try PagePipeline.run(try Self.page("mens-lacrosse-site-api"), with: try Self.entry()))
    let media = try #require(try await store.rankings(sport: .lacrosseMen, poll: "espn:mens-college-lacrosse-il").first)
    #expect(
      media.rows.map(\.canonicalTeamId) == ["team:193", "team:513", "team:167", "team:554", "team:688", "team:725"])
  }

  @Test(arguments: [
    (
      #"{"rankings":[]}"#, "https://site.api.espn.com/apis/site/v2/sports/lacrosse/mens-college-lacrosse/rankings",
      "holds no poll"
    ),
    (
      #"{"rankings":[{"name":"X","ranks":[],"season":{"year":2026,"type":2}}]}"#,
      "https://site.api.espn.com/apis/site/v2/sports/rugby/college-rugby/rankings",
      "'college-rugby' is not one Statline knows"
    ),
    (
      #"{"rankings":[{"name":"X","ranks":[]}]}"#,
      "https://site.api.espn.com/apis/site/v2/sports/lacrosse/mens-college-lacrosse/rankings", "no poll says its season"
    ),
    (
      #"{"rankings":[{"name":"X","ranks":[],"season":{"year":2026,"type":2}}]}"#, "https://example.test/rankings.json",
      "name an ESPN league"
    ),
  ])
  func whatIsNotAPollIsRefusedSayingWhy(_ body: String, _ url: String, _ reason: String) throws {
    let page = Page(url: url, body: Data(body.utf8))
    #expect {
      _ = try PagePipeline.run(page, with: try Self.entry())
    } throws: { error in
      "\(error)".contains(reason)
    }
  }

  /// Points no `Int` holds (the fuzzer's find: a trap) are left out and named; the rank stays.
  @Test func pointsThatAreNoNumberOfPointsAreLeftOutNamed() throws {
    var page = try Self.page("mens-lacrosse-site-api")
    let text = String(decoding: page.body, as: UTF8.self)
    let first = try #require(text.range(of: #""points": 500.0"#))
    page.body = Data(text.replacingCharacters(in: first, with: #""points": 5e300"#).utf8)
    let batch = try PagePipeline.run(page, with: try Self.entry())
    #expect(batch.warnings.contains { $0.contains("points (5e+300)") && $0.contains("left out") }, "\(batch.warnings)")
    let row = try #require(batch.rankings.first?.rows.first)
    #expect(row.rank == 1 && row.points == nil)
  }

  @Test func aWeekWithNoRankedTeamIsRefusedNotStoredEmpty() throws {
    let page = Page(
      url: "https://site.api.espn.com/apis/site/v2/sports/lacrosse/mens-college-lacrosse/rankings",
      body: Data(#"{"rankings":[{"name":"IL","type":"il","ranks":[],"season":{"year":2026,"type":2}}]}"#.utf8))
    #expect {
      _ = try PagePipeline.run(page, with: try Self.entry())
    } throws: { error in
      "\(error)".contains("no team is ranked")
    }
  }
}
