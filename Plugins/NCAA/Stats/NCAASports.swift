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

  /// "Men's Lacrosse", "Women&#39;s Lacrosse" (as printed), "Men's Basketball".
  static func sport(name: String) -> Sport? {
    let lowered = name.lowercased().replacingOccurrences(of: "&#39;", with: "'")
    let women = lowered.contains("women")
    if lowered.contains("lacrosse") { return women ? .lacrosseWomen : .lacrosseMen }
    if lowered.contains("basketball") { return women ? .basketballWomen : .basketballMen }
    return nil
  }

  static func isLacrosse(_ sport: Sport) -> Bool { sport == .lacrosseMen || sport == .lacrosseWomen }

  /// The sports whose team schedule pages (current and legacy) are read: a team list of another
  /// sport lists its teams but discovers no schedules (there would be nothing to read in them).
  static func hasSchedules(_ sport: Sport) -> Bool { isLacrosse(sport) }
}
