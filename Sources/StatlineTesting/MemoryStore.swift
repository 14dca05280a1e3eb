import StatlineCore

/// A deterministic in-memory `Store`, for tests and as the reference the contract suite checks.
public actor MemoryStore: ScheduleStore {
  private struct Key: Hashable {
    var kind: StoreChange.Kind
    var id: String
  }

  private var current: [Key: StoreChange] = [:]
  private var version: Int64 = 0
  private var states: [String: TargetState] = [:]
  private var hostStates: [String: HostHealth] = [:]
  /// How many poll commits reached the store.
  public private(set) var commits = 0

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

  public func targets() async throws -> [TargetState] { states.values.sorted { $0.id < $1.id } }

  public func commit(_ poll: PollCommit) async throws -> StoreWrite {
    commits += 1
    var write = StoreWrite(written: 0, unchanged: 0, version: version)
    if let batch = poll.batch { write = try await self.write(batch) }
    for state in poll.states { states[state.id] = state }
    for host in poll.hosts { hostStates[host.host] = host }
    return write
  }

  public func hosts() async throws -> [HostHealth] { hostStates.values.sorted { $0.host < $1.host } }
}
