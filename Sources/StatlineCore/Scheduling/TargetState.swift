import Foundation

/// Everything the scheduler remembers about one watched target between polls, kept in the
/// store so that a restart resumes the schedule instead of polling everything at once.
public struct TargetState: Sendable, Equatable, Codable {
  /// How the last poll ended.
  public enum Outcome: String, Sendable, Codable, CaseIterable {
    /// Not polled yet.
    case new
    /// Parsed, validated and stored.
    case stored
    /// A 304, or a body identical to the last one: no parse, no write.
    case unchanged
    /// The fetch, the parse or the validation failed; the store kept its last good data.
    case failed
    /// A wall, a challenge, a refusal or an open circuit: reported, never forced.
    case blocked
    /// The page does not exist yet (an archive that has not got the game): backed off, the
    /// host not charged.
    case absent
  }

  public var target: Target
  /// When the target is due next; nil once it is retired.
  public var nextDue: Date?
  public var lastPolled: Date?
  /// When a poll last succeeded (stored or unchanged): what freshness and readiness read.
  public var lastSucceeded: Date?
  /// The seconds the policy put between the last good poll and the next one, before jitter:
  /// a game fed by this target is stale when no poll has succeeded for twice this.
  public var cadence: Double?
  public var outcome: Outcome
  /// The last error, as `StatlineError` describes it.
  public var lastError: String?
  /// The last stored page's refused records and unread plays, in short (`3 refused or unread:
  /// …`); nil when it was read whole. A partial poll is a success: the rest was stored.
  public var partial: String?
  public var consecutiveFailures: Int
  /// Polls made since every game of the target was final.
  public var pollsSinceFinal: Int
  /// The games of the last good batch, which the policy reads.
  public var games: [Game]
  /// A poll page's latest week's through-date (`YYYY-MM-DD`), when it gives one: the day after
  /// it is the day the poll usually appears (`SchedulingPolicy.pollDay`).
  public var pollThrough: String?
  /// Validators for the next conditional GET, and the hash of the last parsed body.
  public var etag: String?
  public var lastModified: String?
  public var bodyHash: UInt64?
  /// Response headers a parser's delta protocol keeps between polls (`filetime`).
  public var remembered: [String: String]?
  /// Requests made with what was remembered since the last full one (`ParserEntry.Delta.fullEvery`).
  public var deltaPolls: Int?
  /// The discovery target that created this one, if any.
  public var discoveredBy: String?
  /// The game this target follows (for game targets made by discovery).
  public var gameId: String?

  public init(
    target: Target, nextDue: Date?, discoveredBy: String? = nil, gameId: String? = nil
  ) {
    self.target = target
    self.nextDue = nextDue
    self.lastPolled = nil
    self.outcome = .new
    self.lastError = nil
    self.consecutiveFailures = 0
    self.pollsSinceFinal = 0
    self.games = []
    self.discoveredBy = discoveredBy
    self.gameId = gameId
  }

  public var id: String { target.id }

  /// A retired target is never polled again (a game target a few polls after its game ended).
  public var isRetired: Bool { nextDue == nil }

  /// Live when one of its games is live.
  public var isLive: Bool { games.contains { $0.status == .live } }
}

/// A target that a discovery page asks for. A game target (with its game's id) is created once
/// the game has started (never for a scheduled, postponed or cancelled game); a discovery
/// target (no game id: a team list asking for each team's schedule) is created at once. The
/// engine never revives a target it has retired.
public struct DiscoveredTarget: Sendable, Equatable {
  public var gameId: String?
  public var target: Target

  public init(gameId: String, target: Target) {
    self.gameId = gameId
    self.target = target
  }

  /// A discovery target (a schedule, a calendar) found by another discovery page.
  public init(discovery target: Target) {
    self.gameId = nil
    self.target = target
  }
}
