/// Everything one page yielded, normalized: the unit that is validated and stored
/// (architecture.md#the-contract). `statline replay FILE --json` prints one batch per page.
public struct Batch: Codable, Sendable, Equatable {
  /// The source plugin id (`generic-html`, `statbroadcast`, `ncaa`).
  public var source: String
  /// The parser id that read the page.
  public var parser: String
  /// The page's URL, when known.
  @NullEncoded public var url: String?
  public var games: [Game]
  public var teams: [Team]
  public var boxScores: [BoxScore]
  public var plays: [Play]
  /// Poll weeks (a rankings page): architecture.md#the-contract, rankings.
  public var rankings: [Ranking]
  /// Things the parser noticed but could live with (an unknown column, a skipped row).
  public var warnings: [String]

  public init(
    source: String = "", parser: String = "", url: String? = nil, games: [Game] = [],
    teams: [Team] = [], boxScores: [BoxScore] = [], plays: [Play] = [], rankings: [Ranking] = [],
    warnings: [String] = []
  ) {
    self.source = source
    self.parser = parser
    self.url = url
    self.games = games
    self.teams = teams
    self.boxScores = boxScores
    self.plays = plays
    self.rankings = rankings
    self.warnings = warnings
  }

  /// The batch with only the records of these kinds.
  public func keeping(_ kinds: Set<StoreChange.Kind>) -> Batch {
    var kept = self
    if !kinds.contains(.game) { kept.games = [] }
    if !kinds.contains(.team) { kept.teams = [] }
    if !kinds.contains(.boxScore) { kept.boxScores = [] }
    if !kinds.contains(.play) { kept.plays = [] }
    if !kinds.contains(.ranking) { kept.rankings = [] }
    return kept
  }

  /// True when the page yielded no record at all.
  public var isEmpty: Bool {
    games.isEmpty && teams.isEmpty && boxScores.isEmpty && plays.isEmpty && rankings.isEmpty
  }

  private enum CodingKeys: String, CodingKey {
    case source, parser, url, games, teams, boxScores, plays, rankings, warnings
  }

  /// A batch written before rankings existed (a golden, a capture's replay) has no `rankings`.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    source = try container.decode(String.self, forKey: .source)
    parser = try container.decode(String.self, forKey: .parser)
    _url = try container.decode(NullEncoded<String>.self, forKey: .url)
    games = try container.decode([Game].self, forKey: .games)
    teams = try container.decode([Team].self, forKey: .teams)
    boxScores = try container.decode([BoxScore].self, forKey: .boxScores)
    plays = try container.decode([Play].self, forKey: .plays)
    rankings = try container.decodeIfPresent([Ranking].self, forKey: .rankings) ?? []
    warnings = try container.decode([String].self, forKey: .warnings)
  }
}
