import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

/// One logo URL per school, chosen the same way by every worker.
@Suite struct TeamLogoChoiceTests {
  static let registry = TeamRegistryTests.registry

  @Test func eachSchoolGetsItsBestFormatAndUnknownTeamsNone() {
    let teams = [
      Team(
        id: "espn:team-153", name: "North Carolina Tar Heels",
        logoURL: "https://a.espncdn.com/i/teamlogos/ncaa/500/153.png"),
      Team(
        id: "ncaa:org-457", name: "North Carolina", ncaaOrgId: "457", logoURL: "https://stats.ncaa.org/logos/457.gif"),
      Team(
        id: "ncaa:com-team-north-carolina", name: "North Carolina", logoURL: "https://www.ncaa.com/sites/unc.svg?v=2"),
      Team(
        id: "espn:team-2005", name: "Air Force Falcons", logoURL: "https://a.espncdn.com/i/teamlogos/ncaa/500/2005.png"),
      Team(
        id: "espn:team-2005", name: "Air Force Falcons",
        logoURL: "https://a.espncdn.com/i/teamlogos/ncaa/500/2005-b.png"),
      Team(id: "ncaa:org-721", name: "Air Force"),
      Team(id: "genericHTML:team-x", name: "A Club Nobody Knows", logoURL: "https://club.example/logo.png"),
    ]
    #expect(
      Self.registry.logoURLs(of: teams) == [
        "team:457": "https://www.ncaa.com/sites/unc.svg?v=2",
        "team:721": "https://a.espncdn.com/i/teamlogos/ncaa/500/2005-b.png",
      ])
    #expect(Self.registry.logoURLs(of: teams.reversed()) == Self.registry.logoURLs(of: teams), "order does not matter")
  }

  @Test func theFormatRankIsReadFromThePath() {
    #expect(TeamRegistry.formatRank("https://x.example/a.SVG") == 0)
    #expect(TeamRegistry.formatRank("https://x.example/a.png?w=500") == 1)
    #expect(TeamRegistry.formatRank("https://x.example/a.jpeg") == 4)
    #expect(TeamRegistry.formatRank("https://x.example/logo?id=svg") == 6)
  }

  @Test func aPageSourceIsResolvedToAnAbsoluteURL() {
    #expect(
      Team.logoURL("/images/457.png", page: "https://stats.ncaa.org/contests/1/box")
        == "https://stats.ncaa.org/images/457.png")
    #expect(Team.logoURL(" https://cdn.example/x.svg ", page: nil) == "https://cdn.example/x.svg")
    #expect(Team.logoURL("data:image/png;base64,AAAA", page: "https://stats.ncaa.org/") == nil)
    #expect(Team.logoURL("x.png", page: nil) == nil)
    #expect(Team.logoURL("", page: "https://stats.ncaa.org/") == nil)
  }
}
