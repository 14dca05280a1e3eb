import Foundation
import StatlineCanonical
import StatlineCore

/// Canonical games (architecture.md#canonical-games): a batch's source games are merged into the canonical games
/// they belong to before the write, and both land in the write's transaction. The store is its
/// file's only writer, so what the step reads cannot change before the write commits.
extension SQLiteStore {
  /// The batch with its source games stamped with their canonical ids and the canonical games
  /// they change appended, and its rankings' teams resolved. A source game equal to the one
  /// this store last wrote is only stamped.
  func canonicalized(_ batch: Batch, at time: Date) throws(StatlineError) -> Batch {
    guard canonical.merges else { return try merged(batch, at: time) }
    return try canonical.meter.measure { () throws(StatlineError) in try merged(batch, at: time) }
  }

  private func merged(_ batch: Batch, at time: Date) throws(StatlineError) -> Batch {
    var batch = canonical.resolvingRankings(batch)
    guard !batch.games.isEmpty, canonical.merges else { return batch }
    var stamping = CanonicalStep.Stamping(batch.games) { recent.game($0) }
    // What this process wrote is read from memory (it is the file's only writer); the rest from the file.
    let (written, times) = (recent, changedTimes)
    let known = { (id: String) -> CanonicalStep.StoredSource? in
      guard let game = written.game(id), let time = times[id] else { return nil }
      return CanonicalStep.StoredSource(game: game, changedAt: time)
    }
    let (sources, canonical) = try Self.merge(
      stamping.pending, placed: stamping.placed, at: time, step: canonical, on: connection, known: known)
    stamping.stamp(sources)
    batch.games = stamping.games + canonical
    return batch
  }

  /// `step.run` with its reads answered by `connection`.
  static func merge(
    _ games: [Game], placed: [String: String] = [:], at time: Date, step: CanonicalStep,
    on connection: SQLiteConnection, known: (String) -> CanonicalStep.StoredSource? = { _ in nil }
  ) throws(StatlineError) -> (sources: [Game], canonical: [Game]) {
    func read(_ ids: [String]) throws(StatlineError) -> [String: CanonicalStep.StoredSource] {
      var found: [String: CanonicalStep.StoredSource] = [:]
      var unknown: [String] = []
      for id in ids {
        if let game = known(id) { found[id] = game } else { unknown.append(id) }
      }
      guard !unknown.isEmpty else { return found }
      return found.merging(try sourceGames(unknown, on: connection)) { first, _ in first }
    }
    return try step.run(
      games, placed: placed, at: time,
      candidates: { (ids) throws(StatlineError) in try read(ids).values.map(\.game) },
      stored: { (ids) throws(StatlineError) in try read(ids) })
  }

  /// The stored games under `ids`, with when each last changed.
  static func sourceGames(_ ids: [String], on connection: SQLiteConnection) throws(StatlineError)
    -> [String: CanonicalStep.StoredSource]
  {
    var found: [String: CanonicalStep.StoredSource] = [:]
    let statement = try connection.statement("SELECT json, changed_at FROM games WHERE id = ?")
    for id in ids {
      statement.bind(id)
      defer { statement.reset() }
      guard try statement.step(), let game = try storedGame(statement.text(0), on: connection) else { continue }
      let changed = statement.isNull(1) ? nil : Date(timeIntervalSince1970: statement.double(1))
      found[id] = CanonicalStep.StoredSource(game: game, changedAt: changed)
    }
    return found
  }

  private static func storedGame(_ json: String, on connection: SQLiteConnection) throws(StatlineError) -> Game? {
    guard case .game(let game) = try RecordRow.decode(.game, Data(json.utf8), path: connection.path) else {
      return nil
    }
    return game
  }

  /// Gives every source game stored before canonical games existed (schema 6 and earlier) its
  /// canonical game, in one transaction and without events (they happened before), and asks
  /// every delta-sync cursor from before to resync: the records it synced are now listed under
  /// canonical ids.
  static func assignCanonicalIds(step: CanonicalStep, on connection: SQLiteConnection) throws(StatlineError) {
    // Done once, in the transaction that gives the ids: later opens read one row.
    guard try connection.integer("SELECT canonical_ids FROM store_version WHERE id = 1") == 0 else { return }
    let statement = try connection.statement(
      """
      SELECT json FROM games WHERE id NOT LIKE 'game:%' AND json_extract(json, '$.canonicalId') IS NULL ORDER BY id
      """)
    var games: [Game] = []
    while try statement.step() {
      if let game = try storedGame(statement.text(0), on: connection) { games.append(game) }
    }
    statement.reset()
    guard !games.isEmpty else {
      try connection.execute("UPDATE store_version SET canonical_ids = 1 WHERE id = 1")
      return
    }
    try connection.transaction { () throws(StatlineError) in
      var version = try connection.integer("SELECT version FROM store_version WHERE id = 1")
      let floor = version + 1
      for game in games {
        let changed = try sourceGames([game.id], on: connection)[game.id]?.changedAt ?? Date()
        let merged = try merge([game], at: changed, step: step, on: connection)
        for record in merged.sources + merged.canonical {
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
