import Foundation
import StatlineCore

/// A record's kind and id: how a unit of work reads and writes it.
public struct RecordKey: Hashable, Sendable {
  public var kind: StoreChange.Kind
  public var id: String

  public init(_ kind: StoreChange.Kind, _ id: String) {
    self.kind = kind
    self.id = id
  }
}

/// A game as the store holds it: the record, the hash of its stored JSON, and when its record
/// last changed.
public struct StoredGame: Sendable {
  public var game: Game
  public var hash: Int64
  public var changedAt: Date?

  public init(game: Game, hash: Int64, changedAt: Date?) {
    self.game = game
    self.hash = hash
    self.changedAt = changedAt
  }
}

/// What the store holds under a row's key: the hash of its JSON, and for a canonical game the
/// record (what its events are derived against), when asked for.
public struct StoredRecord: Sendable {
  public var hash: Int64
  public var game: Game?

  public init(hash: Int64, game: Game?) {
    self.hash = hash
    self.game = game
  }
}

/// The reads a store answers for `CommitPlanner` synchronously (architecture.md#a-poll): SQLite
/// inside its one writer, the memory store. Nothing here writes; the store writes the plan.
public protocol CommitReads {
  /// Lends `body` what this process remembers of the records it last wrote (`RecentRecords`).
  func remembered<Value>(_ body: (RecentRecords) -> Value) -> Value
  /// True when what this process remembers is what the store holds: it is the store's only
  /// writer, or nothing touched the poll's records since it wrote them.
  var trustsMemory: Bool { get }
  /// The games stored under `ids` (absent ones are left out; more may be answered).
  mutating func games(_ ids: [String]) throws(StatlineError) -> [String: StoredGame]
  /// What the store holds under each row's key; with `games`, each canonical game's record too.
  mutating func records(of rows: [PlannedRow], games: Bool) throws(StatlineError) -> [RecordKey: StoredRecord]
  /// Each game's latest events, newest first (enough to find who led last).
  mutating func recentEvents(of gameIds: [String]) throws(StatlineError) -> [String: [ChangeEvent]]
}

/// `CommitReads` answered over a network (PostgreSQL): the same reads, asynchronously.
public protocol AsyncCommitReads {
  func remembered<Value>(_ body: (RecentRecords) -> Value) -> Value
  var trustsMemory: Bool { get }
  mutating func games(_ ids: [String]) async throws -> [String: StoredGame]
  mutating func records(of rows: [PlannedRow], games: Bool) async throws -> [RecordKey: StoredRecord]
  mutating func recentEvents(of gameIds: [String]) async throws -> [String: [ChangeEvent]]
}
