/// The box score of one game: team totals and player lines for both sides.
public struct BoxScore: Codable, Sendable, Hashable {
  public var gameId: String
  public var away: TeamBox
  public var home: TeamBox

  public init(gameId: String, away: TeamBox, home: TeamBox) {
    self.gameId = gameId
    self.away = away
    self.home = home
  }

  public subscript(side: Side) -> TeamBox { side == .home ? home : away }
}

/// One team's half of a box score. Stat keys are those of architecture.md#the-contract (`StatKey`).
public struct TeamBox: Codable, Sendable, Hashable {
  public var totals: [String: Int]
  public var players: [PlayerLine]

  public init(totals: [String: Int] = [:], players: [PlayerLine] = []) {
    self.totals = totals
    self.players = players
  }
}

/// One player's line. `stats` is empty for a player who did not play.
public struct PlayerLine: Codable, Sendable, Hashable {
  /// "First Last", whatever order the page used.
  public var name: String
  @NullEncoded public var number: String?
  @NullEncoded public var position: String?
  @NullEncoded public var starter: Bool?
  public var stats: [String: Int]

  public init(
    name: String, number: String? = nil, position: String? = nil, starter: Bool? = nil,
    stats: [String: Int] = [:]
  ) {
    self.name = name
    self.number = number
    self.position = position
    self.starter = starter
    self.stats = stats
  }
}
