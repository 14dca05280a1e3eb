import StatlineCore

/// NCAA sport codes (`MLA`, `WLA`, …) and names ("Men's Lacrosse") → the model's sports.
enum NCAASports {
  static let byCode: [String: Sport] = [
    "MLA": .lacrosseMen, "WLA": .lacrosseWomen, "MBB": .basketballMen, "WBB": .basketballWomen,
  ]

  static func sport(code: String?) -> Sport? { code.flatMap { byCode[$0.uppercased()] } }

  /// "Men's Lacrosse", "Women&#39;s Lacrosse" (as printed), "Men's Basketball".
  static func sport(name: String) -> Sport? {
    let lowered = name.lowercased().replacingOccurrences(of: "&#39;", with: "'")
    let women = lowered.contains("women")
    if lowered.contains("lacrosse") { return women ? .lacrosseWomen : .lacrosseMen }
    if lowered.contains("basketball") { return women ? .basketballWomen : .basketballMen }
    return nil
  }

  static func isLacrosse(_ sport: Sport) -> Bool { sport == .lacrosseMen || sport == .lacrosseWomen }
}
