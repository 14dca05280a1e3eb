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
    return ParserEntry.Delta(remember: []) { url, _ in PersistedQuery.request(url, hashes: configured) }
  }

  /// The box-score and play-by-play targets of a schedule's games that have contest pages.
  static func contestTargets(_ batch: Batch) -> [DiscoveredTarget] {
    batch.games.flatMap { game -> [DiscoveredTarget] in
      let native = String(game.id.dropFirst(id.count + 1))
      if native.allSatisfy(\.isNumber) {
        return [
          DiscoveredTarget(
            gameId: game.id,
            target: Target(
              url: "https://stats.ncaa.org/contests/\(native)/individual_stats", source: id,
              parser: "ncaa-stats-contest-box",
              role: .game)),
          DiscoveredTarget(
            gameId: game.id,
            target: Target(
              url: "https://stats.ncaa.org/contests/\(native)/play_by_play", source: id,
              parser: "ncaa-stats-contest-pbp",
              role: .game)),
        ]
      }
      return []
    }
  }

  /// The box-score and play-by-play targets of a legacy schedule's played games.
  static func legacyGameTargets(_ batch: Batch) -> [DiscoveredTarget] {
    batch.games.flatMap { game -> [DiscoveredTarget] in
      guard let native = NCAAIds.number(after: ":game-", in: game.id) else { return [] }
      return [("box_score", "ncaa-legacy-box"), ("play_by_play", "ncaa-legacy-pbp")].map { path, parser in
        DiscoveredTarget(
          gameId: game.id,
          target: Target(url: "https://stats.ncaa.org/game/\(path)/\(native)", source: id, parser: parser, role: .game))
      }
    }
  }

  public static let plugin = SourcePlugin(id: id, name: "NCAA", folder: "NCAA") { settings in
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
        parser: ContestBoxParser(), normalizer: ContestBoxNormalizer()),
      ParserEntry(
        id: "ncaa-stats-schedule", source: id,
        summary:
          "stats.ncaa.org team season page (/teams/{id}): schedule and results; box-score targets for played games",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/teams/\d+/?(\?.*)?$"#)],
        sniffer: { page in
          let head = page.prefix(1 << 20)
          return head.contains("Schedule/Results") && head.contains("underline_rows")
        },
        discover: { batch in contestTargets(batch) }, parser: TeamScheduleParser(), normalizer: ScheduleNormalizer()),
      ParserEntry(
        id: "ncaa-stats-team-list", source: id,
        summary: "stats.ncaa.org team list (/team/inst_team_list?…): teams; each team's schedule becomes a target",
        format: .html, urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/team/inst_team_list"#)],
        sniffer: { page in page.prefix(1 << 20).contains("available_teams_tab") },
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
        discover: { batch in legacyGameTargets(batch) }, parser: LegacyScheduleParser(),
        normalizer: ScheduleNormalizer()),
      ParserEntry(
        id: "ncaa-gql-pbp", source: id,
        summary: "ncaa.com GraphQL play-by-play (NCAA_GetGamecenterPbpGenericById_web): game and typed plays",
        format: .json, urlPatterns: [try query(PersistedQuery.playByPlay)],
        sniffer: { page in page.prefix(256).contains("\"playbyplay\"") },
        delta: hashes(settings), check: GraphQLAnswer.check,
        parser: GraphQLPlayByPlayParser(), normalizer: GraphQLPlayByPlayNormalizer()),
    ]
  }
}
