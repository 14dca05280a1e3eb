/// Where normalized batches land, and what the app delta-syncs from (architecture.md#a-poll, #failure).
///
/// One transaction per batch; a record is rewritten only when its content changed, and each
/// write takes the next store-wide version. `changes(since:limit:)` returns records in version
/// order (since 0 = everything). The SQLite and PostgreSQL stores implement this;
/// `StatlineTesting` has an in-memory one and the contract suite every store must pass.
public protocol Store: Sendable {
  func write(_ batch: Batch) async throws -> StoreWrite
  func changes(since version: Int64, limit: Int) async throws -> [StoreChange]
}

/// What one batch write did.
public struct StoreWrite: Sendable, Equatable {
  /// Records whose content changed (or were new), each now at a new version.
  public var written: Int
  /// Records identical to what the store held: not rewritten, no new version.
  public var unchanged: Int
  /// The highest version in the store after the write.
  public var version: Int64
  /// The change events the write derived, counted by type.
  public var events: [ChangeEvent.Kind: Int]

  public init(written: Int, unchanged: Int, version: Int64, events: [ChangeEvent.Kind: Int] = [:]) {
    self.written = written
    self.unchanged = unchanged
    self.version = version
    self.events = events
  }
}

/// One changed record, as delta sync sees it.
public struct StoreChange: Sendable, Equatable, Codable {
  public enum Kind: String, Sendable, Codable, CaseIterable { case game, team, boxScore, play, ranking }

  public var version: Int64
  public var kind: Kind
  /// The record's id: a game or team id, a box score's game id, `gameId#sequence` for a play,
  /// a ranking's id (poll and week).
  public var id: String
  public var record: StoreRecord

  public init(version: Int64, kind: Kind, id: String, record: StoreRecord) {
    self.version = version
    self.kind = kind
    self.id = id
    self.record = record
  }
}

/// A stored record of any kind.
public enum StoreRecord: Sendable, Hashable, Codable {
  case game(Game)
  case team(Team)
  case boxScore(BoxScore)
  case play(Play)
  case ranking(Ranking)

  /// Every record of a batch with its kind and id, in batch order.
  public static func records(of batch: Batch) -> [(kind: StoreChange.Kind, id: String, record: StoreRecord)] {
    batch.games.map { (.game, $0.id, .game($0)) } + batch.teams.map { (.team, $0.id, .team($0)) }
      + batch.boxScores.map { (.boxScore, $0.gameId, .boxScore($0)) }
      + batch.plays.map { (.play, "\($0.gameId)#\($0.sequence)", .play($0)) }
      + batch.rankings.map { (.ranking, $0.id, .ranking($0)) }
  }

  /// The record at `index` of `records(of: batch)`, without listing the others.
  public static func record(at index: Int, of batch: Batch) -> (kind: StoreChange.Kind, id: String, record: StoreRecord)
  {
    var index = index
    if index < batch.games.count { return (.game, batch.games[index].id, .game(batch.games[index])) }
    index -= batch.games.count
    if index < batch.teams.count { return (.team, batch.teams[index].id, .team(batch.teams[index])) }
    index -= batch.teams.count
    if index < batch.boxScores.count {
      return (.boxScore, batch.boxScores[index].gameId, .boxScore(batch.boxScores[index]))
    }
    index -= batch.boxScores.count
    if index < batch.plays.count {
      let play = batch.plays[index]
      return (.play, "\(play.gameId)#\(play.sequence)", .play(play))
    }
    let ranking = batch.rankings[index - batch.plays.count]
    return (.ranking, ranking.id, .ranking(ranking))
  }
}
