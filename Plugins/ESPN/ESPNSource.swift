import StatlineCore

/// The ESPN source plugin: the public site API's scoreboard
/// (`site.api.espn.com/apis/site/v2/sports/{sport}/{league}/scoreboard?dates=YYYYMMDD`), the same
/// JSON for every sport, read as a discovery and live-score target: a board with a live game is
/// polled at the live cadence; and its rankings (`ESPNRankingsParser`), each poll's week a
/// ranking record, polled as a poll page. It asks for no game pages: ESPN's summary endpoint (box score,
/// plays) is not read, for want of a real saved answer to test it on.
public enum ESPNSource {
  public static let id = "espn"

  /// One feed, after the scorer's file and the NCAA's in both rankings; its team ids
  /// (`espn:team-153`) are ESPN's own, which the team registry holds.
  public static let facts = SiteFacts(
    feeds: [SourceFeedFact(name: "espn", idPrefix: "espn:", precedence: 3, scheduleRank: 3)],
    teamIds: [TeamIdFact(idPrefix: "\(id):team-", identity: .espn)])

  public static let plugin = SourcePlugin(id: id, name: "ESPN", folder: "ESPN", facts: facts) { settings in
    let leagues = ESPNLeagues.leagues(settings)
    return [
      ParserEntry(
        id: "espn-scoreboard", source: id,
        summary: "ESPN site-API scoreboard (any sport whose league is known or configured): games and teams",
        format: .json,
        urlPatterns: [try URLPattern(#"^https?://site\.api\.espn\.com/apis/site/v2/sports/[^/]+/[^/]+/scoreboard"#)],
        sniffer: { page in
          let head = page.prefix(4096)
          return head.contains("\"leagues\"") && head.contains("espn")
        },
        discover: { _ in [] }, sports: Set(leagues.values),
        parser: ESPNScoreboardParser(leagues: leagues), normalizer: ESPNScoreboardNormalizer()),
      ParserEntry(
        id: "espn-rankings", source: id,
        summary: "ESPN rankings (site API, or the core API's weekly polls): each poll's week, ranks with teams",
        format: .json,
        urlPatterns: [
          try URLPattern(#"^https?://site\.api\.espn\.com/apis/site/v2/sports/[^/]+/[^/]+/rankings"#),
          try URLPattern(#"^https?://sports\.core\.api\.espn\.com/v2/sports/[^/]+/leagues/[^/]+/.*rankings"#),
        ],
        sniffer: { page in
          let head = page.prefix(4096)
          return head.contains("\"ranks\"") && head.contains("espn")
        },
        role: .poll, parser: ESPNRankingsParser(leagues: leagues), normalizer: ESPNRankingsNormalizer()),
    ]
  }
}
