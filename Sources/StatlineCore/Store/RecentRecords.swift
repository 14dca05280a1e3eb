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
public struct RecentRecords: Sendable {
  public static let defaultLimit = 1_000_000

  struct Key: Hashable {
    var kind: StoreChange.Kind
    var id: String
  }

  struct Remembered {
    var digest: Int
    var hash: Int64
  }

  private var records: [Key: Remembered] = [:]
  private var games: [String: Game] = [:]
  public let limit: Int

  public init(limit: Int = RecentRecords.defaultLimit) {
    self.limit = limit
  }

  public var count: Int { records.count }

  /// The stored JSON's hash when `record` equals the one last remembered under its kind and id.
  public func unchangedHash(_ kind: StoreChange.Kind, _ id: String, _ record: StoreRecord) -> Int64? {
    guard let remembered = records[Key(kind: kind, id: id)] else { return nil }
    if case .game(let game) = record {
      return games[id] == game ? remembered.hash : nil
    }
    return remembered.digest == record.hashValue ? remembered.hash : nil
  }

  /// The hash last remembered under `kind` and `id`: what the store held when this process
  /// last wrote or read the record.
  public func rememberedHash(_ kind: StoreChange.Kind, _ id: String) -> Int64? {
    records[Key(kind: kind, id: id)]?.hash
  }

  /// The game last remembered under `id`.
  public func game(_ id: String) -> Game? { games[id] }

  public mutating func remember(_ kind: StoreChange.Kind, _ id: String, _ record: StoreRecord, hash: Int64) {
    if records.count >= limit {
      records.removeAll(keepingCapacity: true)
      games.removeAll(keepingCapacity: true)
    }
    if case .game(let game) = record {
      // Compared whole, so no digest.
      games[id] = game
      records[Key(kind: kind, id: id)] = Remembered(digest: 0, hash: hash)
    } else {
      records[Key(kind: kind, id: id)] = Remembered(digest: record.hashValue, hash: hash)
    }
  }
}
