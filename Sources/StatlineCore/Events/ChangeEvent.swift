import Foundation

/// One typed change of a game, derived by `ScoreDiffer` when a poll stores a new version of the
/// game, and written in the same transaction (architecture.md#events). The JSON is a contract like the
/// model's (§4): sorted keys, every field present, `null` where it does not apply.
///
/// `sequence` is store-wide and gap-free in commit order; `id` (`evt_<sequence>`) is the
/// event's stable identity, sent as `webhook-id` so receivers can deduplicate.
public struct ChangeEvent: Codable, Sendable, Equatable {
  /// `evt_<sequence>`; empty until the store numbers the event.
  public var id: String
  /// Store-wide, in commit order, from 1; 0 until the store numbers the event.
  public var sequence: Int64
  /// The store version of the game write that caused it.
  public var version: Int64
  public var type: Kind
  /// The game the event is about; for a `ranking.*` event, the ranking's id (poll and week).
  public var gameId: String
  public var sport: Sport
  /// The plugin and parser whose poll stored the change.
  @NullEncoded public var source: String?
  @NullEncoded public var parser: String?
  /// The game's teams (null for a `ranking.*` event).
  @NullEncoded public var away: TeamRef?
  @NullEncoded public var home: TeamRef?
  /// The game's state after the event (null for a `ranking.*` event).
  @NullEncoded public var status: GameStatus?
  /// The period the event happened in (a goal's own period when its play says).
  @NullEncoded public var period: Int?
  @NullEncoded public var periodLabel: String?
  /// Time remaining when it happened (a goal's own clock when its play says).
  @NullEncoded public var clock: String?
  /// The score after the event.
  @NullEncoded public var awayScore: Int?
  @NullEncoded public var homeScore: Int?
  /// The side that scored (goal, scored), took the lead (leadChange), won the set (setEnded) or
  /// the game (final).
  @NullEncoded public var side: Side?
  /// What a `game.scored` added: points (basketball, football) or runs (baseball, softball).
  @NullEncoded public var points: Int?
  /// A goal's scorer and assist, when the same batch's plays say who (matched by running score).
  @NullEncoded public var player: String?
  @NullEncoded public var assist: String?
  /// A goal's annotations (`manUp`, `firstGoal`, …) as its play has them.
  public var details: [String: String]
  /// What the game was before (for `game.corrected`, `game.status`, `game.started`, `game.final`).
  @NullEncoded public var previous: Previous?
  /// The poll's new week, whole (for `ranking.published`), its teams' canonical ids filled in.
  @NullEncoded public var ranking: Ranking?

  /// The game's state before a change.
  public struct Previous: Codable, Sendable, Equatable {
    public var status: GameStatus
    @NullEncoded public var period: Int?
    @NullEncoded public var awayScore: Int?
    @NullEncoded public var homeScore: Int?

    public init(status: GameStatus, period: Int?, awayScore: Int?, homeScore: Int?) {
      self.status = status
      self.period = period
      self.awayScore = awayScore
      self.homeScore = homeScore
    }

    public init(_ game: Game) {
      self.init(status: game.status, period: game.period, awayScore: game.away.score, homeScore: game.home.score)
    }
  }

  /// Event kinds: an open set (names are a contract, like architecture.md#the-contract).
  public struct Kind: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// The first time the store sees a game, with its state then (never a burst of goals).
    public static let discovered = Kind(rawValue: "game.discovered")
    /// Scheduled (or suspended, postponed, unknown) → live.
    public static let started = Kind(rawValue: "game.started")
    /// One per goal, in order, in a sport scored in goals (and one Statline has no profile of).
    public static let goal = Kind(rawValue: "game.goal")
    /// In a sport scored in points or runs (`SportProfile.scoring`), one per side whose score
    /// rose between two versions: `points` says by how much.
    public static let scored = Kind(rawValue: "game.scored")
    /// In a sport scored in sets, a set won: `side`, and the sets each side has won.
    public static let setEnded = Kind(rawValue: "game.setEnded")
    /// A goal that gives a side the lead the other side held last.
    public static let leadChange = Kind(rawValue: "game.leadChange")
    /// A goal that ties the game (other than 0-0).
    public static let tied = Kind(rawValue: "game.tied")
    public static let periodStarted = Kind(rawValue: "game.periodStarted")
    public static let periodEnded = Kind(rawValue: "game.periodEnded")
    /// A period beyond regulation starts.
    public static let overtime = Kind(rawValue: "game.overtime")
    public static let final = Kind(rawValue: "game.final")
    /// Postponed, cancelled, suspended or unknown.
    public static let status = Kind(rawValue: "game.status")
    /// A final game's score changed, or a score went down (a goal taken back).
    public static let corrected = Kind(rawValue: "game.corrected")
    /// More goals between two versions than one poll derives one by one with no plays to tell
    /// them (`ScoreDiffer.unexplainedGoalLimit`): `previous` has the score before the jump (after
    /// any goals the plays told), `details.goals` how many; the score after is the event's.
    public static let scoreJumped = Kind(rawValue: "game.scoreJumped")
    /// Two sources of a canonical game report finals that disagree: `details` names the kept
    /// source game and score (`kept`, `keptScore`) and the other (`other`, `otherScore`).
    public static let conflict = Kind(rawValue: "game.conflict")
    /// A canonical game lost its last source (its teams were corrected and it moved to another
    /// canonical game): `details.into` names that game; the app deletes this one. Nothing else
    /// is derived from a retired game.
    public static let retired = Kind(rawValue: "game.retired")
    /// A poll's new week landed (a week the store did not hold): `ranking` is the week, `gameId`
    /// its id. A week published again, or corrected, gives none.
    public static let rankingPublished = Kind(rawValue: "ranking.published")

    public static let all: [Kind] = [
      .discovered, .started, .goal, .scored, .setEnded, .leadChange, .tied, .periodStarted, .periodEnded, .overtime,
      .final, .status, .corrected, .scoreJumped, .conflict, .retired, .rankingPublished,
    ]

    public init(from decoder: any Decoder) throws {
      rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(rawValue)
    }
  }

  /// An event of `type` about `game` in its current state; the store numbers it.
  public init(_ type: Kind, game: Game, previous: Previous? = nil) {
    id = ""
    sequence = 0
    version = 0
    self.type = type
    gameId = game.id
    sport = game.sport
    away = game.away.team
    home = game.home.team
    status = game.status
    period = game.period
    periodLabel = game.periodLabel
    clock = game.clock
    awayScore = game.away.score
    homeScore = game.home.score
    details = [:]
    self.previous = previous
  }

  /// `ranking.published` for a poll's new week; the store numbers it.
  public init(published ranking: Ranking) {
    id = ""
    sequence = 0
    version = 0
    type = .rankingPublished
    gameId = ranking.id
    sport = ranking.sport
    details = ["poll": ranking.poll, "name": ranking.name]
    if let first = ranking.rows.first {
      details["first"] = first.team.name
      if let previous = first.previous { details["firstPrevious"] = String(previous) }
    }
    self.ranking = ranking
  }

  /// The event as the store keeps it: numbered, with the version and the poll that caused it.
  public func numbered(sequence: Int64, version: Int64, source: String?, parser: String?) -> ChangeEvent {
    var event = self
    event.sequence = sequence
    event.id = "evt_\(sequence)"
    event.version = version
    event.source = source
    event.parser = parser
    return event
  }

  /// The one-line JSON of the event (sorted keys), as the `jsonl` sink writes it and the API serves it.
  public func jsonLine() throws -> Data {
    try Self.lineEncoder.encode(self)
  }

  public static func decode(_ data: Data) throws -> ChangeEvent {
    try JSONDecoder().decode(ChangeEvent.self, from: data)
  }

  static var lineEncoder: JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }
}
