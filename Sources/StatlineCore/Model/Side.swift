/// Which side of a game: the home team or the visitors.
public enum Side: String, Codable, Sendable, CaseIterable {
  case home, away

  /// The other side.
  public var opposite: Side { self == .home ? .away : .home }
}
