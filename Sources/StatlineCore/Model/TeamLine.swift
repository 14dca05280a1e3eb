/// A team as a game refers to it.
public struct TeamRef: Codable, Sendable, Equatable {
  /// Namespaced id (`ncaa:593962`), or nil when the page gives none.
  public var id: String?
  public var name: String
  public var abbreviation: String?

  public init(id: String? = nil, name: String, abbreviation: String? = nil) {
    self.id = id
    self.name = name
    self.abbreviation = abbreviation
  }

  enum CodingKeys: String, CodingKey { case id, name, abbreviation }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(id, forKey: .id)
    try c.encode(name, forKey: .name)
    try c.encode(abbreviation, forKey: .abbreviation)
  }
}

/// One side of a game: who, the score, and how they got there.
public struct TeamLine: Codable, Sendable, Equatable {
  public var team: TeamRef
  public var score: Int?
  /// One entry per period played, overtime periods included.
  public var periodScores: [Int]
  /// The record as the page shows it ("8-7", "0-1, Conf 0-0").
  public var record: String?
  public var rank: Int?
  public var winner: Bool?

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

  enum CodingKeys: String, CodingKey { case team, score, periodScores, record, rank, winner }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(team, forKey: .team)
    try c.encode(score, forKey: .score)
    try c.encode(periodScores, forKey: .periodScores)
    try c.encode(record, forKey: .record)
    try c.encode(rank, forKey: .rank)
    try c.encode(winner, forKey: .winner)
  }
}
