import Foundation
import StatlineCommit
import StatlineCore

/// Canonical games (architecture.md#canonical-games) for a file stored before they existed.
extension SQLiteStore {
  /// Gives every source game stored before canonical games existed (schema 6 and earlier) its
  /// canonical game, in one transaction and without events (they happened before), and asks
  /// every delta-sync cursor from before to resync: the records it synced are now listed under
  /// canonical ids.
  static func assignCanonicalIds(planner: CommitPlanner, on connection: SQLiteConnection) throws(StatlineError) {
    // Done once, in the transaction that gives the ids: later opens read one row.
    guard try connection.integer("SELECT canonical_ids FROM store_version WHERE id = 1") == 0 else { return }
    let statement = try connection.statement(
      """
      SELECT json FROM games WHERE id NOT LIKE 'game:%' AND json_extract(json, '$.canonicalId') IS NULL ORDER BY id
      """)
    var games: [Game] = []
    while try statement.step() {
      if let game = try SQLiteReads.storedGame(statement.text(0), on: connection) { games.append(game) }
    }
    statement.reset()
    guard !games.isEmpty else {
      try connection.execute("UPDATE store_version SET canonical_ids = 1 WHERE id = 1")
      return
    }
    try connection.transaction { () throws(StatlineError) in
      var version = try connection.integer("SELECT version FROM store_version WHERE id = 1")
      let floor = version + 1
      var reads = SQLiteFileReads(connection: connection)
      for game in games {
        let changed = try SQLiteReads.storedGames([game.id], on: connection)[game.id]?.changedAt ?? Date()
        let merged = try planner.canonicalized(Batch(games: [game]), at: changed, on: &reads).batch
        for record in merged.games {
          version += 1
          try upsert(
            try RecordRow(kind: .game, id: record.id, record: .game(record)), version: version, at: changed,
            on: connection)
        }
      }
      try connection.statement(
        "UPDATE store_version SET version = ?, resync_below = ?, canonical_ids = 1 WHERE id = 1"
      ).bind(version, floor).run()
    }
  }
}
