import Foundation
import StatlineCore

/// The NCAA source plugin: stats.ncaa.org (current and legacy layouts) and ncaa.com's data
/// feeds (GraphQL persisted queries, casablanca scoreboards).
public enum NCAASource {
  public static let id = NCAAIds.source

  /// A persisted query's URL pattern.
  static func query(_ operation: String) throws -> URLPattern {
    try URLPattern(#"^https?://sdataprod\.ncaa\.com/\?(.*&)?meta="# + operation + "(&|$)")
  }

  /// Adds the configured hash (`hash.<operation>`) to each GraphQL request.
  static func hashes(_ settings: PluginSettings) -> ParserEntry.Delta {
    let configured = Dictionary(
      (settings.options[id] ?? [:]).compactMap { key, value in
        key.hasPrefix("hash.") ? (String(key.dropFirst(5)), value) : nil
      }
    ) { first, _ in first }
    return ParserEntry.Delta(
      remember: [], datedRequest: { url, _, now in PersistedQuery.request(url, hashes: configured, now: now) })
  }

  /// The box-score and play-by-play targets of a schedule's or scoreboard's games that have
  /// contest pages (`ncaa:6310104`).
  static func contestTargets(_ batch: Batch) -> [DiscoveredTarget] {
    // A contest page is a target only where its parser reads the game's sport: a basketball
    // game gets its play-by-play, a baseball game is stored from the board alone.
    batch.games.flatMap { game -> [DiscoveredTarget] in
      let native = String(game.id.dropFirst(id.count + 1))
      guard !native.isEmpty, native.utf8.allSatisfy({ $0 &- 0x30 < 10 }) else { return [] }
      return [("individual_stats", "ncaa-stats-contest-box"), ("play_by_play", "ncaa-stats-contest-pbp")].filter {
        NCAASports.reads($0.1, game.sport)
      }.map { path, parser in
        DiscoveredTarget(
          gameId: game.id,
          target: Target(
            url: "https://stats.ncaa.org/contests/\(native)/\(path)", source: id, parser: parser, role: .game))
      }
    }
  }

  /// The box-score and play-by-play targets of a legacy schedule's played games.
  static func legacyGameTargets(_ batch: Batch) -> [DiscoveredTarget] {
    batch.games.flatMap { game -> [DiscoveredTarget] in
      guard let native = NCAAIds.number(after: ":game-", in: game.id) else { return [] }
      return [("box_score", "ncaa-legacy-box"), ("play_by_play", "ncaa-legacy-pbp")].filter {
        NCAASports.reads($0.1, game.sport)
      }.map { path, parser in
        DiscoveredTarget(
          gameId: game.id,
          target: Target(url: "https://stats.ncaa.org/game/\(path)/\(native)", source: id, parser: parser, role: .game))
      }
    }
  }

  /// The GraphQL game-centre, play-by-play and box-score targets of an ncaa.com scoreboard's
  /// games, each where its parser reads the game's sport (the game centre writes the game; the
  /// others their plays and box score), at the scoreboard's own origin.
  static func comTargets(_ batch: Batch) -> [DiscoveredTarget] {
    let origin = batch.url.map(PersistedQuery.origin(of:))
    var targets: [DiscoveredTarget] = []
    targets.reserveCapacity(batch.games.count * 2)
    // By index, each parser's sports looked up once: a scoreboard's every game copied (its
    // strings retained) and a table searched by parser name per game were a third of this.
    for index in batch.games.indices {
      let gameId = batch.games[index].id
      let sport = batch.games[index].sport
      guard let contest = NCAAIds.number(after: ":com-", in: gameId) else { continue }
      func add(_ url: String, _ parser: String) {
        targets.append(
          DiscoveredTarget(gameId: gameId, target: Target(url: url, source: id, parser: parser, role: .game)))
      }
      if ComSports.game?.contains(sport) ?? true {
        add(PersistedQuery.gameInfoURL(contestId: contest, origin: origin), "ncaa-gql-game")
      }
      if ComSports.playByPlay?.contains(sport) ?? true {
        let operation = sport == .football ? PersistedQuery.playByPlayFootball : PersistedQuery.playByPlay
        add(PersistedQuery.contestURL(operation: operation, contestId: contest, origin: origin), "ncaa-gql-pbp")
      }
      if ComSports.boxScore?.contains(sport) ?? true, let operation = PersistedQuery.boxScore(for: sport) {
        // With the game's sport: the basketball and soccer queries serve men and women alike.
        targets.append(
          DiscoveredTarget(
            gameId: gameId,
            target: Target(
              url: PersistedQuery.contestURL(operation: operation, contestId: contest, origin: origin), source: id,
              parser: "ncaa-gql-boxscore", role: .game, sport: sport)))
      }
    }
    return targets
  }

  /// The sports each game-centre parser reads (`NCAASports.readBy`; nil: every sport).
  private enum ComSports {
    static let game = NCAASports.readBy["ncaa-gql-game"]
    static let playByPlay = NCAASports.readBy["ncaa-gql-pbp"]
    static let boxScore = NCAASports.readBy["ncaa-gql-boxscore"]
  }

  /// What the engine, the merge and the server must know of the NCAA's sites:
  /// - stats.ncaa.org deny-lists fast clients: one request at a time, 5 s apart;
  /// - two feeds: ncaa.com (`ncaa:com-…`) and stats.ncaa.org (every other `ncaa:` id), the NCAA's
  ///   feeds first for schedule facts, after the scorer's StatCrew file for box scores and plays;
  /// - team ids that carry a school's identity: the legacy site's organisation (`ncaa:org-721`),
  ///   a stats.ncaa.org season team (`ncaa:team-594020`) and ncaa.com's school slug
  ///   (`ncaa:com-team-army`);
  /// - a season is stats.ncaa.org's `academic_year`: season 2026 runs from August 2025 to July
  ///   2026 (spring 2026 lacrosse, the 2025-26 basketball season, fall 2025 football), so it never
  ///   splits a basketball season at New Year.
  public static let facts = SiteFacts(
    hostLimits: ["stats.ncaa.org": HostLimits(concurrency: 1, spacing: .seconds(5))],
    feeds: [
      SourceFeedFact(name: "ncaa.com", idPrefix: "ncaa:com-", precedence: 2, scheduleRank: 1),
      SourceFeedFact(name: "stats.ncaa.org", idPrefix: "ncaa:", precedence: 1, scheduleRank: 0),
    ],
    teamIds: [
      TeamIdFact(idPrefix: NCAAIds.org(""), identity: .ncaaOrg),
      TeamIdFact(idPrefix: NCAAIds.seasonTeam(""), identity: .ncaaSeasonTeam),
      TeamIdFact(idPrefix: NCAAIds.comTeam(""), identity: .ncaaComSlug),
    ],
    seasons: SeasonRule(firstMonth: 8))

  public static let plugin = SourcePlugin(id: id, name: "NCAA", folder: "NCAA", facts: facts) { settings in
    [
      ParserEntry(
        id: "ncaa-stats-contest-box", source: id,
        summary: "stats.ncaa.org contest individual stats / box score (current layout): game, teams, box score",
        format: .html,
        urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/contests/\d+/(individual_stats|box_score)"#)],
        sniffer: { page in
          let head = page.prefix(1 << 20)
          return head.contains("_year_stat_category_") && head.contains("NCAA Statistics")
        },
        check: StatsPage.check, sports: NCAASports.readBy["ncaa-stats-contest-box"], parser: ContestBoxParser(),
        normalizer: ContestBoxNormalizer()),
      ParserEntry(
        id: "ncaa-stats-schedule", source: id,
        summary:
          "stats.ncaa.org team season page (/teams/{id}): schedule and results; box-score targets for played games",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/teams/\d+/?(\?.*)?$"#)],
        sniffer: { page in
          let head = page.prefix(1 << 20)
          return head.contains("Schedule/Results") && head.contains("underline_rows")
        },
        discover: { batch in contestTargets(batch) }, check: StatsPage.check, parser: TeamScheduleParser(),
        normalizer: ScheduleNormalizer()),
      ParserEntry(
        id: "ncaa-stats-team-list", source: id,
        summary:
          "stats.ncaa.org team list (/team/inst_team_list?…): teams of any sport; each team's schedule becomes a target",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/team/inst_team_list"#)],
        sniffer: { page in page.prefix(1 << 20).contains("available_teams_tab") }, check: StatsPage.check,
        discoverRecords: { list in
          list.entries.map { entry in
            DiscoveredTarget(
              discovery: Target(
                url: entry.url, source: id, parser: entry.legacy ? "ncaa-legacy-schedule" : "ncaa-stats-schedule",
                role: .discovery))
          }
        }, parser: TeamListParser(), normalizer: TeamListNormalizer()),
      ParserEntry(
        id: "ncaa-legacy-schedule", source: id,
        summary: "stats.ncaa.org legacy team page (/team/{org}/{year}, table.mytable): schedule and results",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/team/\d+/\d+"#)],
        sniffer: { page in
          let head = page.prefix(1 << 20)
          return head.contains("mytable") && head.contains("Schedule/Results") && head.contains("org_heading")
        },
        discover: { batch in legacyGameTargets(batch) }, check: StatsPage.check, parser: LegacyScheduleParser(),
        normalizer: ScheduleNormalizer()),
      ParserEntry(
        id: "ncaa-stats-contest-pbp", source: id,
        summary: "stats.ncaa.org contest play-by-play (current layout): game and typed plays",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/contests/\d+/play_by_play"#)],
        check: StatsPage.check, carriesEveryPlay: true, sports: NCAASports.readBy["ncaa-stats-contest-pbp"],
        parser: ContestPlaysParser(),
        normalizer: PlaysPageNormalizer<ContestHeader>()),
      ParserEntry(
        id: "ncaa-stats-scoreboard", source: id,
        summary:
          "stats.ncaa.org daily scoreboard (livestream or season-division layout, any sport): games; contest targets for started ones",
        format: .html,
        urlPatterns: [
          try URLPattern(#"^https?://stats\.ncaa\.org/(season_divisions/\d+/)?contests/(livestream_)?scoreboards"#),
          try URLPattern(#"^https?://stats\.ncaa\.org/season_divisions/\d+/scoreboards"#),
        ],
        sniffer: { page in
          let head = page.prefix(1 << 20)
          return head.contains("id=\"contest_") || (head.contains("Scoreboard") && head.contains("target=\"box_score_"))
        },
        discover: { batch in contestTargets(batch) }, check: StatsPage.check, parser: ScoreboardParser(),
        normalizer: ScoreboardNormalizer()),
      ParserEntry(
        id: "ncaa-legacy-box", source: id,
        summary: "stats.ncaa.org legacy box score (/game/box_score/{id}): game, teams, box score",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/game/box_score/\d+"#)],
        check: StatsPage.check, sports: NCAASports.readBy["ncaa-legacy-box"], parser: LegacyBoxParser(),
        normalizer: LegacyBoxNormalizer()),
      ParserEntry(
        id: "ncaa-legacy-pbp", source: id,
        summary: "stats.ncaa.org legacy play-by-play (/game/play_by_play/{id}): game and typed plays",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/game/play_by_play/\d+"#)],
        check: StatsPage.check, carriesEveryPlay: true, sports: NCAASports.readBy["ncaa-legacy-pbp"],
        parser: LegacyPlaysParser(),
        normalizer: PlaysPageNormalizer<LegacyHeader>()),
      ParserEntry(
        id: "ncaa-gql-contests", source: id,
        summary: "ncaa.com GraphQL scoreboard (GetContests_web): games of a day; targets for started games",
        format: .json, urlPatterns: [try query(PersistedQuery.contests)], discover: { batch in comTargets(batch) },
        delta: hashes(settings), check: GraphQLAnswer.check, parser: GraphQLContestsParser(),
        normalizer: GraphQLContestsNormalizer()),
      ParserEntry(
        id: "ncaa-gql-game", source: id,
        summary: "ncaa.com GraphQL game centre (GetGamecenterGameById_web): status, clock, linescore, venue",
        format: .json, urlPatterns: [try query(PersistedQuery.gameInfo)], delta: hashes(settings),
        check: GraphQLAnswer.check, parser: GraphQLContestsParser(), normalizer: GraphQLContestsNormalizer()),
      ParserEntry(
        id: "ncaa-gql-boxscore", source: id,
        summary:
          "ncaa.com GraphQL box score (NCAA_GetGamecenterBoxscoreLacrosseById_web, and basketball's and soccer's "
          + "queries): player and team lines",
        format: .json, urlPatterns: try PersistedQuery.boxScores.map(query),
        sniffer: { page in page.prefix(256).contains("\"boxscore\"") }, delta: hashes(settings),
        check: GraphQLAnswer.check, stores: [.boxScore, .team], sports: NCAASports.readBy["ncaa-gql-boxscore"],
        parser: GraphQLBoxScoreParser(),
        normalizer: GraphQLBoxScoreNormalizer()),
      ParserEntry(
        id: "ncaa-casablanca-scoreboard", source: id,
        summary: "data.ncaa.com casablanca scoreboard JSON (older dates, any sport): games; game-centre targets",
        format: .json, urlPatterns: [try URLPattern(#"^https?://data\.ncaa\.com/casablanca/scoreboard/"#)],
        sniffer: { page in
          let head = page.prefix(512)
          return head.contains("\"inputMD5Sum\"") || (head.contains("\"games\"") && head.contains("\"gameID\""))
        },
        discover: { batch in comTargets(batch) }, parser: CasablancaScoreboardParser(),
        normalizer: CasablancaScoreboardNormalizer()),
      ParserEntry(
        id: "ncaa-gql-pbp", source: id,
        summary:
          "ncaa.com GraphQL play-by-play (NCAA_GetGamecenterPbpGenericById_web, football's "
          + "NCAA_GetGamecenterPbpFootballById_web): game and typed plays",
        format: .json,
        urlPatterns: [try query(PersistedQuery.playByPlay), try query(PersistedQuery.playByPlayFootball)],
        sniffer: { page in page.prefix(256).contains("\"playbyplay\"") },
        delta: hashes(settings), check: GraphQLAnswer.check,
        // The game centre is the game's authority (date, venue, linescore); this page, the plays'.
        stores: [.play, .team], carriesEveryPlay: true, sports: NCAASports.readBy["ncaa-gql-pbp"],
        parser: GraphQLPlayByPlayParser(),
        normalizer: GraphQLPlayByPlayNormalizer()),
      ParserEntry(
        id: "ncaa-com-rankings", source: id,
        summary: "ncaa.com rankings page (media and coaches polls, RPI, NET): the poll's week; the sport's other polls",
        format: .html, urlPatterns: [try URLPattern(#"^https?://(www\.)?ncaa\.com/rankings/[^/]+/[^/]+/[^/?#]+"#)],
        role: .poll,
        discoverRecords: { page in
          (page.otherPolls + page.otherPages).map { url in
            DiscoveredTarget(
              discovery: Target(url: url, source: id, parser: "ncaa-com-rankings", role: .poll, sport: page.sport))
          }
        }, parser: ComRankingsParser(), normalizer: ComRankingsNormalizer()),
    ]
  }
}
