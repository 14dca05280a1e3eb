import StatlineCore

/// NCAA sport codes (`MLA`, `WLA`, …) and names ("Men's Lacrosse") → the model's sports.
enum NCAASports {
  /// stats.ncaa.org's and ncaa.com's sport codes.
  static let byCode: [String: Sport] = [
    "MLA": .lacrosseMen, "WLA": .lacrosseWomen, "MBB": .basketballMen, "WBB": .basketballWomen,
    "MBA": .baseball, "WSB": .softball, "MFB": .football, "MSO": .soccerMen, "WSO": .soccerWomen,
    "WFH": .fieldHockey, "WVB": .volleyballWomen, "MVB": .volleyballMen, "MIH": .iceHockeyMen,
    "WIH": .iceHockeyWomen,
  ]

  static func sport(code: String?) -> Sport? { code.flatMap { byCode[$0.uppercased()] } }

  /// ncaa.com's sport slug (`basketball-men`, `football`, `lacrosse-women`): the model's id
  /// where it is one of the codes' sports.
  static func sport(slug: String?) -> Sport? {
    guard let slug, !slug.isEmpty else { return nil }
    let sport = Sport(slug.lowercased())
    return byCode.values.contains(sport) ? sport : nil
  }

  /// "Men's Lacrosse", "Women&#39;s Lacrosse" (as printed), "Men's Basketball", "Baseball",
  /// "Field Hockey", "Women's Volleyball": the sport of a selected option or heading.
  static func sport(name: String) -> Sport? {
    let lowered = name.lowercased().replacingOccurrences(of: "&#39;", with: "'")
    let women = lowered.contains("women")
    let men = !women && lowered.contains("men")
    func either(_ womens: Sport, _ mens: Sport) -> Sport? { women ? womens : men ? mens : nil }
    if lowered.contains("lacrosse") { return women ? .lacrosseWomen : .lacrosseMen }
    if lowered.contains("basketball") { return women ? .basketballWomen : .basketballMen }
    if lowered.contains("field hockey") { return .fieldHockey }
    if lowered.contains("ice hockey") { return either(.iceHockeyWomen, .iceHockeyMen) }
    if lowered.contains("softball") { return .softball }
    if lowered.contains("baseball") { return .baseball }
    if lowered.contains("football") { return .football }
    if lowered.contains("soccer") { return either(.soccerWomen, .soccerMen) }
    if lowered.contains("volleyball") { return either(.volleyballWomen, .volleyballMen) }
    return nil
  }

  static func isLacrosse(_ sport: Sport) -> Bool { sport == .lacrosseMen || sport == .lacrosseWomen }

  static let lacrosse: Set<Sport> = [.lacrosseMen, .lacrosseWomen]
  /// Every sport the codes name: the box scores read each sport's columns (`BoxFamily`).
  static let every = Set(byCode.values)
  /// The sports whose play-by-play is read by its running score (`ScoredPlayRows`), not a
  /// grammar: every one but lacrosse and basketball.
  static let byRunningScore = every.subtracting(lacrosseAndBasketball)
  /// The sports whose play-by-play and box scores the plugin reads (lacrosse's grammar and
  /// columns, basketball's).
  static let lacrosseAndBasketball: Set<Sport> = [.lacrosseMen, .lacrosseWomen, .basketballMen, .basketballWomen]

  /// The sports each page kind reads, by parser; a parser not named reads every sport (its
  /// records do not depend on it). Discovery makes a game target only for a parser that reads
  /// the game's sport, so a basketball game on a scoreboard gets its play-by-play target and no
  /// box-score target that could only fail.
  static let readBy: [String: Set<Sport>] = [
    "ncaa-stats-contest-box": every,
    // The legacy header is known for lacrosse's and basketball's line scores only (a `Total`
    // column): its other sports' games get no target until a real page shows their header.
    "ncaa-legacy-box": lacrosseAndBasketball,
    // The sports with an ncaa.com box-score query known (`PersistedQuery.boxScore(for:)`).
    "ncaa-gql-boxscore": every.filter { PersistedQuery.boxScore(for: $0) != nil },
    // ncaa.com's play-by-play query is known for lacrosse and basketball (real answers) and
    // football (its own query, seen in a public script): the other sports' answers are read when
    // polled, but discovery makes no target of them until one is seen.
    "ncaa-legacy-pbp": lacrosse, "ncaa-stats-contest-pbp": every,
    "ncaa-gql-pbp": lacrosseAndBasketball.union([.football]),
  ]

  /// Whether `parser` reads pages of `sport`.
  static func reads(_ parser: String, _ sport: Sport) -> Bool { readBy[parser]?.contains(sport) ?? true }
}
