/// A team as a game refers to it.
public struct TeamRef: Codable, Sendable, Hashable {
  /// Namespaced id (`ncaa:593962`), or nil when the page gives none.
  @NullEncoded public var id: String?
  public var name: String
  @NullEncoded public var abbreviation: String?

  public init(id: String? = nil, name: String, abbreviation: String? = nil) {
    self.id = id
    self.name = name
    self.abbreviation = abbreviation
  }
}

/// One side of a game: who, the score, and how they got there.
public struct TeamLine: Codable, Sendable, Hashable {
  public var team: TeamRef
  @NullEncoded public var score: Int?
  /// One entry per period played, overtime periods included.
  public var periodScores: [Int]
  /// The record as the page shows it ("8-7", "0-1, Conf 0-0").
  @NullEncoded public var record: String?
  @NullEncoded public var rank: Int?
  /// Where `rank` came from when the game's page printed none: the id of the poll's week
  /// (`Ranking.id`) the read API took it from (the sport's primary poll). Null when the page
  /// printed the rank, or there is none.
  @NullEncoded public var rankSource: String?
  @NullEncoded public var winner: Bool?

  public init(
    team: TeamRef, score: Int? = nil, periodScores: [Int] = [], record: String? = nil,
    rank: Int? = nil, winner: Bool? = nil
  ) {
    self.team = team
    self.score = score
    self.periodScores = periodScores
    self.record = record
    self.rank = rank
    self.winner = winner
  }
}
