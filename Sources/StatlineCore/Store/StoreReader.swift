import Foundation

/// What a read API asks of a store: read-only queries over the records the job stored
/// (architecture.md#read-api). Implemented by the SQLite store (opened read-only by `statline serve`), the
/// memory store, and the PostgreSQL store to come.
public protocol StoreReader: Sendable {
  /// The highest version in the store: every record answer computed from it is the same until
  /// it moves.
  func version() async throws -> Int64
  /// The version and the schedule's count of commits, read together: an answer that says how
  /// fresh its games are is the same until either moves (or a game's freshness runs out).
  func stamp() async throws -> StoreStamp
  /// When the store last wrote each of these games (games it has no time for are left out).
  func changedAt(gameIds: [String]) async throws -> [String: Date]
  /// Which targets feed which games, and how their polls are going.
  func freshnessBoard() async throws -> FreshnessBoard
  /// The targets whose state changed after the schedule stamp `schedule` (and every host), to
  /// bring a board built at that stamp up to date; nil when the store cannot say (the board is
  /// then built again whole).
  func freshnessChanges(since schedule: Int64) async throws -> FreshnessBoard.Changes?
  /// A canonical game by its id, or the canonical game a source game (by its id) was merged into.
  func game(id: String) async throws -> Game?
  /// The record stored under `id` as it is: a source game's own view, for an operator.
  func sourceGame(id: String) async throws -> Game?
  /// Every source game (not the canonical games), in id order: for an operator's tools
  /// (`statline teams unmatched`).
  func sourceGames() async throws -> [Game]
  /// Canonical games whose sources' finals disagree (`Game.conflict`), newest date first.
  func conflictedGames(limit: Int) async throws -> [Game]
  /// Canonical games of one sport and/or one local date (`YYYY-MM-DD`), in id order.
  func games(sport: Sport?, date: String?) async throws -> [Game]
  /// A team's canonical games (home or away) whose local date starts with `datePrefix` (`2026`,
  /// or nil for all), by date then id.
  func games(team: String, datePrefix: String?) async throws -> [Game]
  /// Teams of one sport (nil: every sport), in id order.
  func teams(sport: Sport?) async throws -> [Team]
  func team(id: String) async throws -> Team?
  /// A canonical team's downloaded logo (architecture.md#team-logos); nil when none is stored.
  func teamLogo(teamId: String) async throws -> TeamLogo?
  func boxScore(gameId: String) async throws -> BoxScore?
  /// The box scores of these games (source or canonical ids, as stored), each with the store
  /// version it was last written at, in one read (a day's preload); games without one are left
  /// out.
  func boxScores(gameIds: [String]) async throws -> [String: StoredBoxScore]
  /// The store version each of these games was last written at (games not stored are left out).
  func gameVersions(ids: [String]) async throws -> [String: Int64]
  /// Every stored week of the polls of one sport and/or one poll (nil: all), by poll, then
  /// season and edition (oldest week first).
  func rankings(sport: Sport?, poll: String?) async throws -> [Ranking]
  /// A game's plays after `sequence` (0: from the first), in order.
  func plays(gameId: String, after sequence: Int, limit: Int) async throws -> [Play]
  /// Every change after `version`, in version order (delta sync).
  func changes(since version: Int64, limit: Int) async throws -> [StoreChange]
  /// When the job last polled a target successfully (nil: never), from the stored schedule.
  func lastSuccessfulPoll() async throws -> Date?
  /// Change events after `sequence`.
  func events(since sequence: Int64, limit: Int) async throws -> [ChangeEvent]
  /// The highest event sequence (0: none yet).
  func lastEventSequence() async throws -> Int64
  /// Each event sink's cursor (the last sequence it has handled).
  func sinkCursors() async throws -> [String: Int64]
  /// The last known breaker state of every host.
  func hosts() async throws -> [HostHealth]
  /// Every target the job knows, retired ones included (the operator's status).
  func targets() async throws -> [TargetState]
  /// The newest captured failures, newest first.
  func captures(limit: Int) async throws -> [CaptureSummary]
}

/// A box score as stored: the record and the store version it was last written at.
public struct StoredBoxScore: Sendable, Equatable {
  public var boxScore: BoxScore
  public var version: Int64

  public init(_ boxScore: BoxScore, version: Int64) {
    self.boxScore = boxScore
    self.version = version
  }
}

/// What an answer cached in memory depends on.
public struct StoreStamp: Sendable, Hashable {
  /// The highest record version.
  public var version: Int64
  /// Moves on every commit that changes a target's state (a poll, good or bad).
  public var schedule: Int64

  public init(version: Int64, schedule: Int64) {
    self.version = version
    self.schedule = schedule
  }
}
