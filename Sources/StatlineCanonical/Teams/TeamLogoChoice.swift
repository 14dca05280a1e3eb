import StatlineCore

/// Which of the logos a school's pages show Statline keeps (architecture.md#team-logos): one per
/// canonical team, chosen the same way by every worker, so the keepers of a cluster agree.
extension TeamRegistry {
  /// The logo URL of each canonical team some stored source team of it shows one for. Among
  /// several, the best format wins (SVG, then PNG, WebP, JPEG, GIF, then any other), then the
  /// URL that sorts first. A team the registry does not know as a school gets none.
  public func logoURLs(of teams: [Team]) -> [String: String] {
    var chosen: [String: String] = [:]
    for team in teams {
      guard let url = team.logoURL, let school = resolve(SourceTeam(team))?.team else { continue }
      if let current = chosen[school.id], !Self.logo(url, isBetterThan: current) { continue }
      chosen[school.id] = url
    }
    return chosen
  }

  static func logo(_ url: String, isBetterThan other: String) -> Bool {
    let (rank, otherRank) = (formatRank(url), formatRank(other))
    return rank != otherRank ? rank < otherRank : url < other
  }

  /// Lower is better: by the file name's extension.
  static func formatRank(_ url: String) -> Int {
    let path = url.split(separator: "?").first.map(String.init)?.lowercased() ?? ""
    let order = [".svg", ".png", ".webp", ".jpg", ".jpeg", ".gif"]
    return order.firstIndex { path.hasSuffix($0) } ?? order.count
  }
}
