/// What a store remembers of the records this process last wrote, so that a record equal to it is
/// known unchanged without being encoded to JSON and hashed: on a live poll most records (the
/// plays, the box lines) did not change since the last one, and encoding them was most of the
/// poll's cost.
///
/// Games are kept whole (the score differ compares a game with the previous one); every other
/// record only as a 64-bit digest of its value (`Hasher`, SipHash seeded per process) beside the
/// hash of its stored JSON. A thousand live games of 270 records each then cost tens of MB, not
/// their values, and fit under the bound (when it is reached the memory is cleared, and the next
/// polls encode again). A digest is as strong as the 64-bit JSON hash the stores compare anyway.
///
/// The memory is kept per game: a game's box score and plays (a play by its sequence, as its id
/// `gameId#sequence` says) sit beside it, so checking a poll's 270 records looks the game up once
/// and its plays in a small table, not 270 string keys in a table of every game's records.
public struct RecentRecords: Sendable {
  public static let defaultLimit = 1_000_000

  struct Remembered {
    var digest: Int
    var hash: Int64
  }

  /// One game's records, as remembered.
  struct GameRecords {
    var game: (value: Game, hash: Int64)?
    var boxScore: Remembered?
    var plays: [Int: Remembered] = [:]
  }

  private var games: [String: GameRecords] = [:]
  private var teams: [String: Remembered] = [:]
  private var rankings: [String: Remembered] = [:]
  /// How many records are remembered.
  public private(set) var count = 0
  public let limit: Int

  public init(limit: Int = RecentRecords.defaultLimit) {
    self.limit = limit
  }

  /// The stored JSON's hash when `record` equals the one last remembered under its kind and id.
  public func unchangedHash(_ kind: StoreChange.Kind, _ id: String, _ record: StoreRecord) -> Int64? {
    switch (kind, record) {
    case (.game, .game(let value)): hash(of: value, in: games[id])
    case (.boxScore, .boxScore(let value)): hash(of: value, in: games[id])
    case (.play, .play(let value)): hash(of: value, in: games[value.gameId]?.plays)
    case (.team, .team(let value)): hash(of: value, id: id)
    case (.ranking, .ranking(let value)): hash(of: value, id: id)
    default: nil
    }
  }

  /// `unchangedHash` of every record of `batch`, in `StoreRecord.records(of:)` order, read from
  /// the batch's arrays: no record is wrapped or given its id string to be checked.
  public func unchangedHashes(of batch: Batch) -> [Int64?] {
    var hashes: [Int64?] = []
    hashes.reserveCapacity(batch.games.count + batch.teams.count + batch.boxScores.count + batch.plays.count)
    for game in batch.games { hashes.append(hash(of: game, in: games[game.id])) }
    for team in batch.teams { hashes.append(hash(of: team, id: team.id)) }
    for box in batch.boxScores { hashes.append(hash(of: box, in: games[box.gameId])) }
    // A game's plays come together: its memory is looked up once for them.
    var last: (id: String, plays: [Int: Remembered]?)?
    for play in batch.plays {
      if last?.id != play.gameId { last = (play.gameId, games[play.gameId]?.plays) }
      hashes.append(hash(of: play, in: last?.plays))
    }
    for ranking in batch.rankings { hashes.append(hash(of: ranking, id: ranking.id)) }
    return hashes
  }

  private func hash(of game: Game, in memory: GameRecords?) -> Int64? {
    guard let remembered = memory?.game, remembered.value == game else { return nil }
    return remembered.hash
  }

  private func hash(of box: BoxScore, in memory: GameRecords?) -> Int64? {
    guard let remembered = memory?.boxScore, remembered.digest == box.hashValue else { return nil }
    return remembered.hash
  }

  private func hash(of play: Play, in plays: [Int: Remembered]?) -> Int64? {
    guard let remembered = plays?[play.sequence], remembered.digest == play.hashValue else { return nil }
    return remembered.hash
  }

  private func hash(of team: Team, id: String) -> Int64? {
    guard let remembered = teams[id], remembered.digest == team.hashValue else { return nil }
    return remembered.hash
  }

  private func hash(of ranking: Ranking, id: String) -> Int64? {
    guard let remembered = rankings[id], remembered.digest == ranking.hashValue else { return nil }
    return remembered.hash
  }

  /// The hash last remembered under `kind` and `id` (`record` is the record of that id: a play
  /// is found by its game and sequence): what the store held when this process last wrote or
  /// read the record.
  public func rememberedHash(_ kind: StoreChange.Kind, _ id: String, _ record: StoreRecord) -> Int64? {
    switch (kind, record) {
    case (.team, _): return teams[id]?.hash
    case (.ranking, _): return rankings[id]?.hash
    case (.game, _): return games[id]?.game?.hash
    case (.boxScore, _): return games[id]?.boxScore?.hash
    case (.play, .play(let play)): return games[play.gameId]?.plays[play.sequence]?.hash
    case (.play, _): return nil
    }
  }

  /// The game last remembered under `id`.
  public func game(_ id: String) -> Game? {
    // Read in place (`values[index]`), not through the keyed subscript, which copies the game's
    // whole memory (its plays' table too) to hand back one value.
    guard let index = games.index(forKey: id) else { return nil }
    return games.values[index].game?.value
  }

  public mutating func remember(_ kind: StoreChange.Kind, _ id: String, _ record: StoreRecord, hash: Int64) {
    if count >= limit {
      games.removeAll(keepingCapacity: true)
      teams.removeAll(keepingCapacity: true)
      rankings.removeAll(keepingCapacity: true)
      count = 0
    }
    var added = false
    switch (kind, record) {
    case (.team, .team(let value)):
      added = teams.updateValue(Remembered(digest: value.hashValue, hash: hash), forKey: id) == nil
    case (.ranking, .ranking(let value)):
      added = rankings.updateValue(Remembered(digest: value.hashValue, hash: hash), forKey: id) == nil
    case (.game, .game(let value)):
      // Compared whole, so no digest.
      added = games[id, default: GameRecords()].game == nil
      games[id, default: GameRecords()].game = (value, hash)
    case (.boxScore, .boxScore(let value)):
      added = games[id, default: GameRecords()].boxScore == nil
      games[id, default: GameRecords()].boxScore = Remembered(digest: value.hashValue, hash: hash)
    case (.play, .play(let value)):
      added =
        games[value.gameId, default: GameRecords()].plays.updateValue(
          Remembered(digest: value.hashValue, hash: hash), forKey: value.sequence) == nil
    default:
      return
    }
    if added { count += 1 }
  }
}
