import Foundation
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import NCAASource

/// The logos stats.ncaa.org's scoreboards and contest headers show are kept on their teams
/// (architecture.md#team-logos), read from each team's own row or header cell.
@Suite(.enabled(if: RealPages.available)) struct NCAALogoTests {
  @Test func theRealScoreboardsTeamsKeepTheirRowsLogo() throws {
    let batch = try NCAARun.batch(
      try RealPages.page(
        "ncaa-stats/scoreboard-mbb-d1-2025-11-11.html",
        url: "https://stats.ncaa.org/season_divisions/18703/scoreboards?game_date=11/11/2025"))
    let logos = batch.teams.compactMap(\.logoURL)
    #expect(!batch.teams.isEmpty && logos.count == batch.teams.count, "every team with an NCAA page shows a logo")
    #expect(logos.allSatisfy { $0.hasPrefix("https://web2.ncaa.org/ncaa_style/img/All_Logos/sm//") })
    #expect(!logos.contains { $0.contains("/assets/ncaa-") }, "the page's own NCAA mark is no team's")
    // Texas Tech at Illinois: the All_Logos number is the school's org id (700, 301).
    let game = try #require(batch.games.first { $0.id == "ncaa:6479639" })
    let away = try #require(batch.teams.first { $0.id == game.away.team.id })
    let home = try #require(batch.teams.first { $0.id == game.home.team.id })
    #expect(away.logoURL == "https://web2.ncaa.org/ncaa_style/img/All_Logos/sm//700.gif")
    #expect(home.logoURL == "https://web2.ncaa.org/ncaa_style/img/All_Logos/sm//301.gif")
    #expect(Set(logos).count == logos.count, "each team its own")
  }

  @Test func theRealPlayByPlaysHeaderGivesBothTeamsTheirLogo() throws {
    let page = try RealPages.page(
      "ncaa-stats/pbp-6479639-mbb-texastech-at-illinois.html",
      url: "https://stats.ncaa.org/contests/6479639/play_by_play")
    let batch = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-contest-pbp"))
    let byName = Dictionary(batch.teams.map { ($0.shortName ?? $0.name, $0.logoURL) }) { first, _ in first }
    #expect(byName["Texas Tech"] == "https://web2.ncaa.org/ncaa_style/img/All_Logos/sm//700.gif", "\(byName)")
    #expect(byName["Illinois"] == "https://web2.ncaa.org/ncaa_style/img/All_Logos/sm//301.gif", "\(byName)")
  }
}
