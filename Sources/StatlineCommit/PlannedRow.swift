import StatlineCore

/// A record of a batch on its way into a store: its key and hash, and its JSON unless the
/// record equals the one this process last remembered (then the JSON is made only if the
/// store's copy differs and the row is written).
public struct PlannedRow: Sendable {
  public var kind: StoreChange.Kind
  public var id: String
  public var record: StoreRecord
  public var hash: Int64
  /// Nil when the hash came from memory (`RecentRecords.unchangedHashes`).
  public var json: String?

  public init(_ row: RecordRow) {
    self.init(kind: row.kind, id: row.id, record: row.record, hash: row.hash, json: row.json)
  }

  public init(kind: StoreChange.Kind, id: String, record: StoreRecord, hash: Int64, json: String?) {
    self.kind = kind
    self.id = id
    self.record = record
    self.hash = hash
    self.json = json
  }

  public var key: RecordKey { RecordKey(kind, id) }
  public var gameId: String { record.gameId(orId: id) }
  public var sequence: Int { record.sequence }

  /// The row with its JSON (encoded now when it came from memory).
  public func encoded() throws(StatlineError) -> RecordRow {
    if let json { return RecordRow(kind: kind, id: id, record: record, json: json, hash: hash) }
    return try RecordRow(kind: kind, id: id, record: record)
  }

  /// A canonical game: what events speak of, and what the merge's meter measures.
  public var isCanonicalGame: Bool { kind == .game && id.hasPrefix(Game.canonicalPrefix) }
}
