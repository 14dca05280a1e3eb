/// One play-by-play entry.
public struct Play: Codable, Sendable, Hashable {
  public var gameId: String
  /// Position in the game's play list, from 1.
  public var sequence: Int
  @NullEncoded public var period: Int?
  /// The period as the page names it ("1st Half", "2nd Quarter", "Overtime(1)"), where it does.
  @NullEncoded public var periodLabel: String?
  @NullEncoded public var clock: String?
  @NullEncoded public var side: Side?
  public var type: PlayType
  public var text: String
  @NullEncoded public var player: String?
  @NullEncoded public var assist: String?
  /// The running score after this play, where the page gives it.
  @NullEncoded public var awayScore: Int?
  @NullEncoded public var homeScore: Int?
  /// What else the play says, by key: `result` of a shot or clear (`wide`, `high`, `blocked`,
  /// `post`, `crossbar`, `saved`, `good`, `failed`), `goalie` who saved, `causedBy` of a
  /// turnover, `foul` and `seconds` of a penalty; a goal's annotations one key each (`manUp`,
  /// `firstGoal`, `emptyNet`, … set to "true") and all of them as printed in `note`
  /// ("MAN-UP, FIRST GOAL").
  public var details: [String: String]

  public init(
    gameId: String, sequence: Int, period: Int? = nil, periodLabel: String? = nil, clock: String? = nil,
    side: Side? = nil,
    type: PlayType, text: String, player: String? = nil, assist: String? = nil,
    awayScore: Int? = nil, homeScore: Int? = nil, details: [String: String] = [:]
  ) {
    self.details = details
    self.gameId = gameId
    self.sequence = sequence
    self.period = period
    self.periodLabel = periodLabel
    self.clock = clock
    self.side = side
    self.type = type
    self.text = text
    self.player = player
    self.assist = assist
    self.awayScore = awayScore
    self.homeScore = homeScore
  }
}

/// The kinds of play (architecture.md#the-contract).
public enum PlayType: String, Codable, Sendable, CaseIterable {
  case goal, shot, save, faceoff, groundBall, turnover, penalty, timeout, clear, drawControl
  case goalieChange, periodStart, periodEnd, other
  /// A score that is not a goal (a basket or free throw, a run): `details.points` says how many.
  case score
}
