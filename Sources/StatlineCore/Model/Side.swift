/// Which side of a game: the home team or the visitors.
public enum Side: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
  case home, away

  /// `home` or `away`: written into a refusal's sentence without the reflection that printing
  /// an enum otherwise takes.
  public var description: String { rawValue }

  /// The other side.
  public var opposite: Side { self == .home ? .away : .home }
}
