import Foundation
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import ESPNSource

/// The logo each competitor's `team.logo` names is kept on the team (architecture.md#team-logos).
@Suite struct ESPNLogoTests {
  @Test func theHandWrittenDaysTeamsKeepTheirLogos() throws {
    let batch = try PagePipeline.run(try ESPNSourceTests.page("mens-lacrosse-day"), with: try ESPNSourceTests.entry())
    let unc = try #require(batch.teams.first { $0.id == "espn:team-153" })
    #expect(unc.logoURL == "https://a.espncdn.com/i/teamlogos/ncaa/500/153.png")
    #expect(batch.teams.allSatisfy { $0.logoURL?.hasPrefix("https://a.espncdn.com/i/teamlogos/ncaa/500/") == true })
  }

  @Test func aCompetitorWithoutALogoHasNone() throws {
    var page = try ESPNSourceTests.page("mens-lacrosse-day")
    let text = String(decoding: page.body, as: UTF8.self)
    page.body = Data(
      text.replacingOccurrences(of: "\"https://a.espncdn.com/i/teamlogos/ncaa/500/153.png\"", with: "\"\"").utf8)
    let batch = try PagePipeline.run(page, with: try ESPNSourceTests.entry())
    #expect(batch.teams.first { $0.id == "espn:team-153" }?.logoURL == nil, "an empty logo is none")
  }

  @Test(.enabled(if: RealPages.available)) func theRealBoardsTeamsKeepTheirLogos() throws {
    let page = try RealPages.page(
      "espn/espn-scoreboard-mbb-2025-11-26-live.json",
      url: "https://site.api.espn.com/apis/site/v2/sports/basketball/mens-college-basketball/scoreboard?dates=20251126")
    let batch = try PagePipeline.run(page, with: try ESPNSourceTests.entry())
    #expect(batch.teams.count == 144)
    let troy = try #require(batch.teams.first { $0.id == "espn:team-2653" })
    #expect(troy.name == "Troy Trojans" && troy.logoURL == "https://a.espncdn.com/i/teamlogos/ncaa/500/2653.png")
    // Four small colleges ESPN has no logo for: their competitors carry no `logo` at all.
    let without = batch.teams.filter { $0.logoURL == nil }.map(\.id).sorted()
    #expect(without == ["espn:team-111902", "espn:team-128256", "espn:team-2384", "espn:team-3242"])
  }
}
