/// A watched target: one URL and the parser that reads it, polled again and again.
public struct Target: Sendable, Hashable, Codable {
  /// What the target is for, which decides how its policy treats finished games.
  public enum Role: String, Sendable, Codable, CaseIterable {
    /// A schedule, calendar or scoreboard: yields game targets, never stops on its own.
    case discovery
    /// One game's page (box score, play-by-play): stops a few polls after the game is final.
    case game
  }

  public var url: String
  public var source: String
  public var parser: String
  public var role: Role

  public init(url: String, source: String, parser: String, role: Role) {
    self.url = url
    self.source = source
    self.parser = parser
    self.role = role
  }

  /// Stable identity: the parser and the URL.
  public var id: String { "\(parser) \(url)" }
}
