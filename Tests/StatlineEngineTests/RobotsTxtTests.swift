import StatlineEngine
import Testing

@Suite struct RobotsTxtTests {
  let robots = RobotsTxt(
    """
    # comment
    User-agent: *
    Disallow: /contests/
    Allow: /contests/livestream_scoreboards
    Disallow: /*.pdf$
    Crawl-delay: 5

    User-agent: statline
    User-agent: otherbot
    Disallow: /private
    Allow: /private/ok

    User-agent: badbot
    Disallow: /
    """)

  @Test func theWildcardGroupAppliesToUnnamedAgents() {
    let agent = "SomeClient/1.0"
    #expect(!robots.isAllowed("/contests/6310104/box_score", userAgent: agent))
    #expect(robots.isAllowed("/contests/livestream_scoreboards?sport_code=MLA", userAgent: agent), "longest match wins")
    #expect(!robots.isAllowed("/files/box.pdf", userAgent: agent))
    #expect(robots.isAllowed("/files/box.pdf?x=1", userAgent: agent), "$ anchors the end")
    #expect(robots.isAllowed("/teams/594020", userAgent: agent))
    #expect(robots.crawlDelay(userAgent: agent) == 5)
  }

  @Test func ourOwnGroupReplacesTheWildcard() {
    let agent = "Statline/0.1 (+https://example.test/statline)"
    #expect(robots.isAllowed("/contests/6310104/box_score", userAgent: agent))
    #expect(!robots.isAllowed("/private/data", userAgent: agent))
    #expect(robots.isAllowed("/private/ok/x", userAgent: agent))
    #expect(robots.crawlDelay(userAgent: agent) == nil)
    #expect(!robots.isAllowed("/anything", userAgent: "BadBot/2"))
  }

  @Test func emptyOrMissingRulesAllowEverything() {
    #expect(RobotsTxt("").isAllowed("/x", userAgent: "statline"))
    #expect(RobotsTxt("User-agent: *\nDisallow:\n").isAllowed("/x", userAgent: "statline"))
  }
}
