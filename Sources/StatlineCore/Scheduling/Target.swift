/// A watched target: one URL and the parser that reads it, polled again and again.
public struct Target: Sendable, Hashable, Codable {
  /// What the target is for, which decides how its policy treats finished games.
  public enum Role: String, Sendable, Codable, CaseIterable {
    /// A schedule, calendar or scoreboard: yields game targets, never stops on its own.
    case discovery
    /// One game's page (box score, play-by-play): stops a few polls after the game is final.
    case game
    /// A weekly poll's page: checked daily, and hourly on the day its poll usually appears.
    case poll
  }

  public var url: String { didSet { id = Self.id(parser, url) } }
  public var source: String
  public var parser: String { didSet { id = Self.id(parser, url) } }
  public var role: Role
  /// The sport the page that found the target gave its game (a calendar row's `WVB`), for a page
  /// that may not say it itself (a StatCrew file without a gender); not part of the identity.
  public var sport: Sport?
  /// Stable identity: the parser and the URL (kept, not recomputed: the scheduler asks often).
  public private(set) var id: String

  public init(url: String, source: String, parser: String, role: Role, sport: Sport? = nil) {
    self.url = url
    self.source = source
    self.parser = parser
    self.role = role
    self.sport = sport
    id = Self.id(parser, url)
  }

  private enum CodingKeys: String, CodingKey { case url, source, parser, role, sport }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.init(
      url: try container.decode(String.self, forKey: .url), source: try container.decode(String.self, forKey: .source),
      parser: try container.decode(String.self, forKey: .parser), role: try container.decode(Role.self, forKey: .role),
      sport: try container.decodeIfPresent(Sport.self, forKey: .sport))
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(url, forKey: .url)
    try container.encode(source, forKey: .source)
    try container.encode(parser, forKey: .parser)
    try container.encode(role, forKey: .role)
    try container.encodeIfPresent(sport, forKey: .sport)
  }

  private static func id(_ parser: String, _ url: String) -> String { FastText.joined(parser, " ", url) }
}
