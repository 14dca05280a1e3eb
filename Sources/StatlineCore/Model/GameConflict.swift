/// Two sources' finals of one game that disagree (architecture.md#canonical-games): the merge keeps the
/// higher-precedence source's, never averages or flips between them, and says so.
public struct GameConflict: Codable, Sendable, Hashable {
  /// The source game whose final the canonical game shows, and its score (`away-home`).
  public var kept: String
  public var keptScore: String
  /// The source game that disagrees, and its score.
  public var other: String
  public var otherScore: String

  public init(kept: String, keptScore: String, other: String, otherScore: String) {
    self.kept = kept
    self.keptScore = keptScore
    self.other = other
    self.otherScore = otherScore
  }
}
