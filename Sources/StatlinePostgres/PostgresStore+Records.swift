import Foundation
import PostgresNIO
import StatlineCommit
import StatlineCore

extension PostgresStore: Store {
  public func write(_ batch: Batch) async throws -> StoreWrite {
    let batch = try planner.screened(batch)
    let now = Date()
    let (write, plan) = try await transaction("cannot write the batch") { connection in
      try await self.write(batch, at: now, on: connection)
    }
    remember(plan)
    return eventBell.ring(after: write)
  }

  /// Remembers the rows of a committed plan.
  func remember(_ plan: CommitPlan?) {
    guard let plan else { return }
    recent.withLock { recent in planner.remember(plan, in: &recent) }
  }

  /// Plans a screened batch under the store's version lock and writes it through
  /// `statline_commit`, as every write; the caller holds the transaction.
  ///
  /// Versions are handed out under the row lock of `store_version` (`FOR UPDATE`), taken before
  /// anything is read and held to the commit. A second writer waits at that line until the
  /// first commits, then reads the first's versions: so versions (and event sequences, numbered
  /// under the same lock) become visible in the order they were handed out, and delta sync never
  /// skips a record that commits late. Nothing the plan read can change before it commits.
  func write(_ batch: Batch?, at time: Date, on connection: PostgresConnection) async throws
    -> (StoreWrite, CommitPlan?)
  {
    // A commit without records (a failed poll, a state written every 5 minutes) numbers
    // nothing, so it takes no lock: it must not queue behind every worker's writes.
    guard let batch, !batch.isEmpty else {
      let version =
        try await connection.query("SELECT version FROM store_version WHERE id = 1", logger: logger).collect().first?
        .decode(Int64.self) ?? 0
      return (StoreWrite(written: 0, unchanged: 0, version: version), nil)
    }
    let version =
      try await connection.query("SELECT version FROM store_version WHERE id = 1 FOR UPDATE", logger: logger)
      .collect().first?.decode(Int64.self) ?? 0
    // Read after the lock (a statement that waited for it still has its snapshot from before).
    var reads = PostgresReads(store: self, connection: connection, trustsMemory: false)
    let plan = try await planner.plan(batch, at: time, on: &reads)
    var written = version
    if !plan.changed.isEmpty {
      switch try await OneStatementCommit(plan, holding: false, encode: encodeEvent).call(
        lease: nil, tag: nil, permits: [], at: time, on: connection, logger: logger)
      {
      case .written(let version): written = version
      case .leaseLost, .changedMeanwhile:
        throw StatlineError(.store, "statline_commit refused a commit made under the store's lock")
      }
    }
    return (plan.write(version: written), plan)
  }

  /// Delta sync carries canonical games (the source games they merge are for operators:
  /// `sourceGame(id:)`), and every team, box score, play and ranking.
  public func changes(since version: Int64, limit: Int) async throws -> [StoreChange] {
    let path = location.description
    if version > 0 {
      let floor = try await perform("cannot read changes") { connection in
        try await connection.query("SELECT resync_below FROM store_version WHERE id = 1", logger: logger).collect()
          .first?.decode(Int64.self) ?? 0
      }
      if version < floor { throw StoreResync(cursor: version, floor: floor) }
    }
    return try await perform("cannot read changes") { connection in
      var result: [StoreChange] = []
      for try await (kind, id, version, json) in try await connection.query(
        """
        SELECT kind, id, version, json FROM (
          SELECT 'game' AS kind, id, version, json::text AS json FROM games
            WHERE version > \(version) AND starts_with(id, 'game:')
          UNION ALL SELECT 'team', id, version, json::text FROM teams WHERE version > \(version)
          UNION ALL SELECT 'boxScore', game_id, version, json::text FROM box_scores WHERE version > \(version)
          UNION ALL SELECT 'play', game_id || '#' || sequence, version, json::text FROM plays WHERE version > \(version)
          UNION ALL SELECT 'ranking', id, version, json::text FROM rankings WHERE version > \(version)
        ) AS c ORDER BY version LIMIT \(limit)
        """, logger: logger
      ).decode((String, String, Int64, String).self) {
        guard let kind = StoreChange.Kind(rawValue: kind) else { continue }
        result.append(
          StoreChange(
            version: version, kind: kind, id: id, record: try RecordRow.decode(kind, Data(json.utf8), path: path)))
      }
      return result
    }
  }

  /// The highest version in the store.
  public func version() async throws -> Int64 {
    try await perform("cannot read the store version") { connection in
      try await connection.query("SELECT version FROM store_version WHERE id = 1", logger: logger).collect().first?
        .decode(Int64.self) ?? 0
    }
  }
}
