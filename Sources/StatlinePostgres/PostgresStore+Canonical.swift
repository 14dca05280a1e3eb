import Foundation
import PostgresNIO
import StatlineCommit
import StatlineCore

/// Canonical games (architecture.md#canonical-games) for a database stored before they existed.
/// (How a poll's games are merged on a shared database: `CommitPlanner` plans it, `PostgresReads`
/// answers its reads, `OneStatementCommit` checks them at commit.)
extension PostgresStore {
  /// Gives every source game stored before canonical games existed its canonical game, without
  /// events, and asks every delta-sync cursor from before to resync. Runs after the migration
  /// that added `resync_below`, under the migration's lock.
  func assignCanonicalIds(on connection: PostgresConnection) async throws {
    // Done once, in the transaction that gives the ids: later starts read one row.
    let done =
      try await connection.query("SELECT canonical_ids FROM store_version WHERE id = 1", logger: logger).collect()
      .first?.decode(Bool.self) ?? true
    guard !done else { return }
    var games: [Game] = []
    for try await json in try await connection.query(
      """
      SELECT json::text FROM games WHERE NOT starts_with(id, 'game:') AND NOT (json ? 'canonicalId') ORDER BY id
      """, logger: logger
    ).decode(String.self) {
      if case .game(let game) = try RecordRow.decode(.game, Data(json.utf8), path: location.description) {
        games.append(game)
      }
    }
    guard !games.isEmpty else {
      try await connection.query("UPDATE store_version SET canonical_ids = true WHERE id = 1", logger: logger)
      return
    }
    let rows = try await connection.withTransaction(logger: logger) { connection in
      let version =
        try await connection.query("SELECT version FROM store_version WHERE id = 1 FOR UPDATE", logger: logger)
        .collect().first?.decode(Int64.self) ?? 0
      let floor = version + 1
      var written: Set<String> = []
      for game in games {
        var reads = PostgresReads(store: self, connection: connection, trustsMemory: false)
        let merged = try await planner.canonicalized(Batch(games: [game]), at: Date(), on: &reads).batch
        var commit = OneStatementCommit()
        for record in merged.games {
          let row = try RecordRow(kind: .game, id: record.id, record: .game(record))
          commit.written += 1
          commit.rows.append(row, version: Int64(commit.written))
          written.insert(row.id)
        }
        // Each game's reads must see the ones before it: written as they come, by the one writer.
        _ = try await commit.call(
          lease: nil, tag: nil, permits: [], at: Date(), on: connection, logger: logger)
      }
      try await connection.query(
        "UPDATE store_version SET resync_below = \(floor), canonical_ids = true WHERE id = 1", logger: logger)
      return written.count
    }
    logger.info("gave stored games their canonical ids", metadata: ["store": "\(location)", "records": "\(rows)"])
  }
}
