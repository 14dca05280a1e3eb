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

  public static let plugin = SourcePlugin(id: id, name: "NCAA", folder: "NCAA") { settings in
    [
      ParserEntry(
        id: "ncaa-contest-box", source: id,
        summary: "stats.ncaa.org contest individual stats / box score (current layout): game, teams, box score",
        format: .html,
        urlPatterns: [try URLPattern(#"^https?://stats\.ncaa\.org/contests/\d+/(individual_stats|box_score)"#)],
        sniffer: { page in
          let head = page.prefix(1 << 20)
          return head.contains("_year_stat_category_") && head.contains("NCAA Statistics")
        },
        parser: ContestBoxParser(), normalizer: ContestBoxNormalizer()),
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
