/// How a source team was found in the registry: which pass matched, and on what.
public struct TeamResolution: Sendable, Hashable {
  /// The passes, in the order they are tried (architecture.md#canonical-games).
  public enum Pass: String, Sendable, Codable, CaseIterable {
    /// An alias the configuration gives (`teams.aliases`), by source id or by name.
    case configured
    /// An id the page gives: an NCAA org id, a season-team id, an ESPN id, an ncaa.com slug.
    case id
    /// The name, compared by `TeamName`'s rules.
    case name
    /// Another name the school goes by (ESPN's display name or location, an earlier NCAA name,
    /// ESPN's abbreviation), when no other school goes by it too.
    case alias
  }

  public var team: CanonicalTeam
  public var pass: Pass
  /// What matched, for an operator: "org id 457", "name 'north carolina'".
  public var matched: String
}
