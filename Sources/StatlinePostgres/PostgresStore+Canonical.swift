import Foundation
import PostgresNIO
import StatlineCanonical
import StatlineCore

/// Canonical games on a shared database (architecture.md#canonical-games). The step reads the canonical games a
/// batch's source games could join and the source games those hold (one query), then works out
/// the merge.
///
/// Two workers that see two sources of one game at once both make the same canonical id (it is
/// a function of the sport, the date and the teams), and each commit checks that every game the
/// merge read is still as it was read, a canonical game it found absent included
/// (`CanonicalReads`, passed to `statline_commit` as held hashes). The second to commit finds
/// the first's canonical game, writes nothing, reads again and joins it: one canonical game,
/// merged from both sources. Under the write lock (the locked path) nothing can change between
/// the read and the write.
extension PostgresStore {
  /// What the step read: the hash of each game it found, and the canonical ids it looked up and
  /// found absent.
  struct CanonicalReads {
    var found: [String: (hash: Int64, game: Game)] = [:]
    var absent: Set<String> = []
  }

  /// The batch with its source games stamped and the canonical games they change appended, and
  /// what was read to make it. A source game equal to the one this process last wrote is only
  /// stamped.
  ///
  /// - Parameter remembered: the poll's target was last committed by this process and nothing
  ///   touched it since (`OneStatementCommit`'s first try): a game its canonical game holds
  ///   alone is merged from what this process wrote (`rememberedAlone`), without a read.
  func canonicalized(
    _ batch: Batch, at time: Date, remembered: Bool = false, on connection: PostgresConnection
  ) async throws -> (batch: Batch, reads: CanonicalReads) {
    var batch = batch
    var reads = CanonicalReads()
    guard !batch.games.isEmpty, canonical.merges else { return (batch, reads) }
    var stamping = recent.withLock { recent in CanonicalStep.Stamping(batch.games) { recent.game($0) } }
    let pending = stamping.pending
    guard !pending.isEmpty else {
      batch.games = stamping.games
      return (batch, reads)
    }
    // The commit holds both games at the hashes remembered: if another worker changed either
    // since, it writes nothing and the next try reads the store.
    if remembered, let alone = rememberedAlone(pending, placed: stamping.placed),
      let merge = canonical.mergeAlone(pending, candidates: alone.values.map(\.game).filter(\.isCanonical))
    {
      stamping.stamp(merge.sources)
      batch.games = stamping.games + merge.canonical
      reads.found = alone
      return (batch, reads)
    }
    // One round trip: the candidates and the batch's own games, and the sources the candidates
    // hold (another for the rare teams that met more than four times within a day either side).
    var changedAt: [String: Date?] = [:]
    func read(_ wanted: [String]) async throws -> Set<String> {
      canonicalReads.withLock { $0 += 1 }
      var found: Set<String> = []
      for try await (id, hash, json, changed) in try await connection.query(
        """
        WITH c AS (SELECT id, hash, json, changed_at FROM games WHERE id = ANY(\(wanted)::text[]))
        SELECT id, hash, json::text, changed_at FROM c
        UNION SELECT g.id, g.hash, g.json::text, g.changed_at FROM games g
          WHERE g.id IN (SELECT jsonb_array_elements_text(c.json->'sources') FROM c WHERE starts_with(c.id, 'game:'))
        """, logger: logger
      ).decode((String, Int64, String, Double?).self) {
        guard case .game(let game) = try RecordRow.decode(.game, Data(json.utf8), path: location.description) else {
          continue
        }
        reads.found[id] = (hash, game)
        changedAt[id] = changed.map(Date.init(timeIntervalSince1970:))
        found.insert(id)
      }
      for id in wanted where reads.found[id] == nil { reads.absent.insert(id) }
      return found
    }
    var numbers = 1...CanonicalStep.meetings
    let unplaced = pending.filter { stamping.placed[$0.id] == nil }
    let first =
      CanonicalStep.placedIds(stamping.placed) + canonical.candidateIds(of: unplaced, numbers: numbers)
      + pending.map(\.id)
    var further = canonical.unfinished(unplaced, found: try await read(first), upTo: numbers.upperBound)
    while !further.isEmpty {
      numbers = CanonicalStep.next(after: numbers)
      let found = try await read(canonical.candidateIds(of: further, numbers: numbers))
      further = canonical.unfinished(further, found: found, upTo: numbers.upperBound)
    }
    let candidates = reads.found.values.map(\.game).filter(\.isCanonical)
    var stored: [String: CanonicalStep.StoredSource] = [:]
    for (id, found) in reads.found { stored[id] = .init(game: found.game, changedAt: changedAt[id] ?? nil) }
    let (sources, merged) = canonical.merge(pending, candidates: candidates, stored: stored, at: time)
    stamping.stamp(sources)
    batch.games = stamping.games + merged
    // A canonical game it makes that was not looked up (a game without a date: its own id).
    for game in merged where reads.found[game.id] == nil { reads.absent.insert(game.id) }
    return (batch, reads)
  }

  /// The usual live poll, from memory: one game, placed before in a canonical game that holds
  /// it alone, both as this process last wrote them (with their hashes). Nil otherwise.
  func rememberedAlone(_ pending: [Game], placed: [String: String]) -> [String: (hash: Int64, game: Game)]? {
    guard pending.count == 1, let game = pending.first, let canonicalId = placed[game.id] else { return nil }
    return recent.withLock { recent -> [String: (hash: Int64, game: Game)]? in
      guard let held = recent.game(game.id), let heldHash = recent.rememberedHash(.game, game.id, .game(held)),
        let record = recent.game(canonicalId), record.sources == [game.id],
        let recordHash = recent.rememberedHash(.game, canonicalId, .game(record))
      else { return nil }
      return [game.id: (heldHash, held), canonicalId: (recordHash, record)]
    }
  }

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
        let (merged, _) = try await canonicalized(Batch(games: [game]), at: Date(), on: connection)
        var plan = WritePlan()
        for record in merged.games {
          plan.written += 1
          let row = try RecordRow(kind: .game, id: record.id, record: .game(record))
          try plan.rows.append(
            PendingRow(kind: .game, id: row.id, record: row.record, hash: row.hash, json: row.json),
            version: Int64(plan.written))
          written.insert(row.id)
        }
        // Each game's reads must see the ones before it: written as they come, by the one writer.
        _ = try await OneStatementCommit(locked: plan).call(
          lease: nil, tag: nil, permits: [], at: Date(), on: connection, logger: logger)
      }
      try await connection.query(
        "UPDATE store_version SET resync_below = \(floor), canonical_ids = true WHERE id = 1", logger: logger)
      return written.count
    }
    logger.info("gave stored games their canonical ids", metadata: ["store": "\(location)", "records": "\(rows)"])
  }
}
