import Foundation
import PostgresNIO
import StatlineCore

extension PostgresStore: Store {
  /// A record of a batch on its way in: its hash, and its JSON unless the record equals the
  /// one this process last stored (then the JSON is made only if the store's copy differs).
  struct PendingRow {
    var kind: StoreChange.Kind
    var id: String
    var record: StoreRecord
    var hash: Int64
    var json: String?

    func encoded() throws(StatlineError) -> String {
      if let json { return json }
      return try RecordRow(kind: kind, id: id, record: record).json
    }

    var gameId: String { record.gameId(orId: id) }
    var sequence: Int { record.sequence }
  }

  public func write(_ batch: Batch) async throws -> StoreWrite {
    try BatchValidator.validate(batch)
    let rows = try pending(batch)
    let now = Date()
    let (write, written) = try await transaction("cannot write the batch") { connection in
      try await self.write(rows, of: batch, at: now, on: connection)
    }
    remember(written)
    return eventBell.ring(after: write)
  }

  /// Hashes a batch's records (reusing the hash of a record equal to the last one stored), its
  /// rankings' teams resolved first.
  func pending(_ batch: Batch) throws(StatlineError) -> [PendingRow] {
    let batch = canonical.resolvingRankings(batch)
    let records = StoreRecord.records(of: batch)
    let known = recent.withLock { recent in recent.unchangedHashes(of: batch) }
    var rows: [PendingRow] = []
    for ((kind, id, record), cached) in zip(records, known) {
      if let cached {
        rows.append(PendingRow(kind: kind, id: id, record: record, hash: cached, json: nil))
      } else {
        let row = try RecordRow(kind: kind, id: id, record: record)
        rows.append(PendingRow(kind: kind, id: id, record: record, hash: row.hash, json: row.json))
      }
    }
    return rows
  }

  func remember(_ rows: [PendingRow]) {
    recent.withLock { recent in
      for row in rows { recent.remember(row.kind, row.id, row.record, hash: row.hash) }
    }
  }

  /// Writes the rows that differ from the store's copies, each at the next version, and the
  /// events of the games they change, through `statline_commit` as every write; the caller
  /// holds the transaction.
  ///
  /// Versions are handed out under the row lock of `store_version` (`FOR UPDATE`), taken before
  /// anything is read and held to the commit. A second writer waits at that line until the
  /// first commits, then reads the first's versions: so versions (and event sequences, numbered
  /// under the same lock) become visible in the order they were handed out, and delta sync never
  /// skips a record that commits late. The lock covers only this transaction's writes (the
  /// batch was validated, encoded and hashed before it began).
  ///
  /// The batch's source games are merged into their canonical games under the lock
  /// (`canonicalized`): `rows` are the batch's own, and the rows written (returned, for
  /// `remember`) include the canonical games.
  func write(_ rows: [PendingRow], of batch: Batch?, at time: Date, on connection: PostgresConnection) async throws
    -> (StoreWrite, [PendingRow])
  {
    // A commit without records (a failed poll, a state written every 5 minutes) numbers
    // nothing, so it takes no lock: it must not queue behind every worker's writes.
    guard !rows.isEmpty else {
      let version =
        try await connection.query("SELECT version FROM store_version WHERE id = 1", logger: logger).collect().first?
        .decode(Int64.self) ?? 0
      return (StoreWrite(written: 0, unchanged: 0, version: version), rows)
    }
    let version =
      try await connection.query("SELECT version FROM store_version WHERE id = 1 FOR UPDATE", logger: logger)
      .collect().first?.decode(Int64.self) ?? 0
    var (rows, batch) = (rows, batch)
    if let polled = batch, !polled.games.isEmpty {
      let merged = try await canonicalized(polled, at: time, on: connection).batch
      (rows, batch) = (try pending(merged), merged)
    }
    // Read after the lock (a statement that waited for it still has its snapshot from before).
    let stored = try await storedHashes(rows, on: connection)
    // Numbered from 1: `statline_commit`, the one writer, adds the version and the last event's
    // sequence it reads under the same lock.
    let plan = try await changes(rows, of: batch, stored: stored, on: connection)
    var written = version
    if plan.written > 0 {
      switch try await OneStatementCommit(locked: plan).call(
        lease: nil, tag: nil, permits: [], at: time, on: connection, logger: logger)
      {
      case .written(let version): written = version
      case .leaseLost, .changedMeanwhile:
        throw StatlineError(.store, "statline_commit refused a commit made under the store's lock")
      }
    }
    let write = StoreWrite(
      written: plan.written, unchanged: rows.count - plan.written, version: written, events: plan.events)
    return (write, rows)
  }

  /// A write worked out against what the store holds: the rows that differ from `stored` and the
  /// events of the games they change, each numbered from 1 (`statline_commit` adds the version
  /// and the last event's sequence it reads under the lock).
  struct WritePlan {
    var rows = ChangedRows()
    var written = 0
    var events: [ChangeEvent.Kind: Int] = [:]
  }

  func changes(
    _ rows: [PendingRow], of batch: Batch?, stored: [RecentKey: (hash: Int64, game: Game?)],
    on connection: PostgresConnection
  ) async throws -> WritePlan {
    var plan = WritePlan()
    var changedGames: [ScoreDiffer.ChangedGame] = []
    var published: [ScoreDiffer.PublishedRanking] = []
    for row in rows {
      let previous = stored[RecentKey(kind: row.kind, id: row.id)]
      if previous?.hash == row.hash { continue }
      plan.written += 1
      let numbered = Int64(plan.written)
      try plan.rows.append(row, version: numbered)
      // Events speak of canonical games only: a goal two sources report is one goal.
      if case .game(let game) = row.record, game.isCanonical {
        let before = derivesEvents ? previous?.game : nil
        changedGames.append(ScoreDiffer.ChangedGame(current: game, previous: before, version: numbered))
      }
      if case .ranking(let ranking) = row.record, previous == nil {
        published.append(ScoreDiffer.PublishedRanking(ranking: ranking, version: numbered))
      }
    }
    if derivesEvents && !(changedGames.isEmpty && published.isEmpty) {
      let derived = try await deriveEvents(
        of: changedGames, published: published, batch: batch, after: 0, on: connection)
      try plan.rows.append(derived, encode: encodeEvent)
      for event in derived { plan.events[event.type, default: 0] += 1 }
    }
    return plan
  }

  /// What the store holds under each row's id: the hash, and for a game its record (the
  /// previous version the events are derived against). One query for every kind.
  func storedHashes(_ rows: [PendingRow], on connection: PostgresConnection) async throws
    -> [RecentKey: (hash: Int64, game: Game?)]
  {
    func ids(_ kind: StoreChange.Kind) -> [String] { rows.filter { $0.kind == kind }.map(\.id) }
    let plays = rows.filter { $0.kind == .play }
    let query: PostgresQuery = """
      SELECT 'game', id, hash, json::text FROM games WHERE id = ANY(\(ids(.game))::text[])
      UNION ALL SELECT 'team', id, hash, NULL FROM teams WHERE id = ANY(\(ids(.team))::text[])
      UNION ALL SELECT 'boxScore', game_id, hash, NULL FROM box_scores WHERE game_id = ANY(\(ids(.boxScore))::text[])
      UNION ALL SELECT 'ranking', id, hash, NULL FROM rankings WHERE id = ANY(\(ids(.ranking))::text[])
      UNION ALL SELECT 'play', p.game_id || '#' || p.sequence, p.hash, NULL FROM plays p
        JOIN unnest(\(plays.map(\.gameId))::text[], \(plays.map { Int32(clamping: $0.sequence) })::int[]) AS k(g, s)
        ON p.game_id = k.g AND p.sequence = k.s
      """
    var result: [RecentKey: (hash: Int64, game: Game?)] = [:]
    for try await (kind, id, hash, json) in try await connection.query(query, logger: logger).decode(
      (String, String, Int64, String?).self)
    {
      guard let kind = StoreChange.Kind(rawValue: kind) else { continue }
      var game: Game?
      if let json, case .game(let stored) = try RecordRow.decode(.game, Data(json.utf8), path: location.description) {
        game = stored
      }
      result[RecentKey(kind: kind, id: id)] = (hash, game)
    }
    return result
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
