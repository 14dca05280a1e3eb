import StatlineCore

/// A canonical game as the merge makes it: the game the app sees, and which source record each
/// part comes from.
public struct MergedGame: Sendable, Equatable, Codable {
  /// Two feeds' finals that disagree: the kept one is the higher-precedence feed's.
  public struct Conflict: Sendable, Equatable, Codable {
    public var kept: String
    public var keptScore: String
    public var other: String
    public var otherScore: String
  }

  /// The canonical game: its id, canonical teams, and each field by the merge's rules.
  public var game: Game
  /// The source game whose status, score, period and clock the game shows.
  public var liveSource: String
  /// Every source game joined to it, by precedence.
  public var sources: [String]
  public var conflict: Conflict?
}
