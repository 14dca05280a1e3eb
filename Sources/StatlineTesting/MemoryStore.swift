import StatlineCore

/// A deterministic in-memory `Store`, for tests and as the reference the contract suite checks.
public actor MemoryStore: Store {
  private struct Key: Hashable {
    var kind: StoreChange.Kind
    var id: String
  }

  private var current: [Key: StoreChange] = [:]
  private var version: Int64 = 0

  public init() {}

  public func write(_ batch: Batch) async throws -> StoreWrite {
    try BatchValidator.validate(batch)
    var written = 0
    var unchanged = 0
    for (kind, id, record) in StoreRecord.records(of: batch) {
      let key = Key(kind: kind, id: id)
      if current[key]?.record == record {
        unchanged += 1
        continue
      }
      version += 1
      written += 1
      current[key] = StoreChange(version: version, kind: kind, id: id, record: record)
    }
    return StoreWrite(written: written, unchanged: unchanged, version: version)
  }

  public func changes(since version: Int64, limit: Int) async throws -> [StoreChange] {
    Array(current.values.filter { $0.version > version }.sorted { $0.version < $1.version }.prefix(limit))
  }
}
