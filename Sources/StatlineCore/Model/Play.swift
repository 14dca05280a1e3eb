/// One play-by-play entry.
public struct Play: Codable, Sendable, Equatable {
  public var gameId: String
  /// Position in the game's play list, from 1.
  public var sequence: Int
  public var period: Int?
  public var clock: String?
  public var side: Side?
  public var type: PlayType
  public var text: String
  public var player: String?
  public var assist: String?
  /// The running score after this play, where the page gives it.
  public var awayScore: Int?
  public var homeScore: Int?

  public init(
    gameId: String, sequence: Int, period: Int? = nil, clock: String? = nil, side: Side? = nil,
    type: PlayType, text: String, player: String? = nil, assist: String? = nil,
    awayScore: Int? = nil, homeScore: Int? = nil
  ) {
    self.gameId = gameId
    self.sequence = sequence
    self.period = period
    self.clock = clock
    self.side = side
    self.type = type
    self.text = text
    self.player = player
    self.assist = assist
    self.awayScore = awayScore
    self.homeScore = homeScore
  }

  enum CodingKeys: String, CodingKey {
    case gameId, sequence, period, clock, side, type, text, player, assist, awayScore, homeScore
  }

  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(gameId, forKey: .gameId)
    try c.encode(sequence, forKey: .sequence)
    try c.encode(period, forKey: .period)
    try c.encode(clock, forKey: .clock)
    try c.encode(side, forKey: .side)
    try c.encode(type, forKey: .type)
    try c.encode(text, forKey: .text)
    try c.encode(player, forKey: .player)
    try c.encode(assist, forKey: .assist)
    try c.encode(awayScore, forKey: .awayScore)
    try c.encode(homeScore, forKey: .homeScore)
  }
}

/// The kinds of play (DESIGN.md §4).
public enum PlayType: String, Codable, Sendable, CaseIterable {
  case goal, shot, save, faceoff, groundBall, turnover, penalty, timeout, clear, drawControl
  case goalieChange, periodStart, periodEnd, other
}
