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
    let write = try await transaction("cannot write the batch") { connection in
      try await self.write(rows, of: batch, at: now, on: connection)
    }
    remember(rows)
    return write
  }

  /// Hashes a batch's records (reusing the hash of a record equal to the last one stored).
  func pending(_ batch: Batch) throws(StatlineError) -> [PendingRow] {
    let known = recent.withLock { recent in
      StoreRecord.records(of: batch).map { recent.unchangedHash($0.kind, $0.id, $0.record) }
    }
    var rows: [PendingRow] = []
    for ((kind, id, record), cached) in zip(StoreRecord.records(of: batch), known) {
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
  /// events of the games they change; the caller holds the transaction.
  ///
  /// Versions are handed out under the row lock of `store_version` (`FOR UPDATE`), taken before
  /// anything is read and held to the commit. A second writer waits at that line until the
  /// first commits, then reads the first's versions: so versions (and event sequences, numbered
  /// under the same lock) become visible in the order they were handed out, and delta sync never
  /// skips a record that commits late. The lock covers only this transaction's writes (the
  /// batch was validated, encoded and hashed before it began).
  func write(_ rows: [PendingRow], of batch: Batch?, at time: Date, on connection: PostgresConnection) async throws
    -> StoreWrite
  {
    // A commit without records (a failed poll, a state written every 5 minutes) numbers
    // nothing, so it takes no lock: it must not queue behind every worker's writes.
    guard !rows.isEmpty else {
      let version =
        try await connection.query("SELECT version FROM store_version WHERE id = 1", logger: logger).collect().first?
        .decode(Int64.self) ?? 0
      return StoreWrite(written: 0, unchanged: 0, version: version)
    }
    var version =
      try await connection.query("SELECT version FROM store_version WHERE id = 1 FOR UPDATE", logger: logger)
      .collect().first?.decode(Int64.self) ?? 0
    let stored = try await storedHashes(rows, on: connection)
    var written = 0
    var changedGames: [ScoreDiffer.ChangedGame] = []
    var plays: (games: [String], sequences: [Int32], versions: [Int64], hashes: [Int64], json: [String]) = (
      [], [], [], [], []
    )
    for row in rows {
      let key = RecentKey(kind: row.kind, id: row.id)
      let previous = stored[key]
      if previous?.hash == row.hash { continue }
      version += 1
      written += 1
      let json = try row.encoded()
      switch row.record {
      case .game(let game):
        try await connection.query(
          """
          INSERT INTO games (id, version, hash, sport, status, date, away_team, home_team, changed_at, json)
          VALUES (\(row.id), \(version), \(row.hash), \(game.sport.rawValue), \(game.status.rawValue), \(game.date),
            \(game.away.team.id), \(game.home.team.id), \(time.timeIntervalSince1970), \(json)::jsonb)
          ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, sport = excluded.sport,
            status = excluded.status, date = excluded.date, away_team = excluded.away_team,
            home_team = excluded.home_team, changed_at = excluded.changed_at, json = excluded.json
          """, logger: logger)
        let before = derivesEvents ? previous?.game : nil
        changedGames.append(ScoreDiffer.ChangedGame(current: game, previous: before, version: version))
      case .team:
        try await connection.query(
          """
          INSERT INTO teams (id, version, hash, json) VALUES (\(row.id), \(version), \(row.hash), \(json)::jsonb)
          ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json
          """, logger: logger)
      case .boxScore:
        try await connection.query(
          """
          INSERT INTO box_scores (game_id, version, hash, json) VALUES (\(row.id), \(version), \(row.hash), \(json)::jsonb)
          ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json
          """, logger: logger)
      case .play:
        plays.games.append(row.gameId)
        plays.sequences.append(Int32(clamping: row.sequence))
        plays.versions.append(version)
        plays.hashes.append(row.hash)
        plays.json.append(json)
      }
    }
    if !plays.games.isEmpty {
      try await connection.query(
        """
        INSERT INTO plays (game_id, sequence, version, hash, json)
        SELECT g, s, v, h, j::jsonb FROM unnest(\(plays.games)::text[], \(plays.sequences)::int[],
          \(plays.versions)::bigint[], \(plays.hashes)::bigint[], \(plays.json)::text[]) AS p(g, s, v, h, j)
        ON CONFLICT (game_id, sequence) DO UPDATE SET version = excluded.version, hash = excluded.hash,
          json = excluded.json
        """, logger: logger)
    }
    if written > 0 {
      try await connection.query("UPDATE store_version SET version = \(version) WHERE id = 1", logger: logger)
    }
    var events: [ChangeEvent.Kind: Int] = [:]
    if derivesEvents && !changedGames.isEmpty {
      for event in try await appendEvents(of: changedGames, batch: batch, on: connection) {
        events[event.type, default: 0] += 1
      }
    }
    return StoreWrite(written: written, unchanged: rows.count - written, version: version, events: events)
  }

  /// What the store holds under each row's id: the hash, and for a game its record (the
  /// previous version the events are derived against).
  private func storedHashes(_ rows: [PendingRow], on connection: PostgresConnection) async throws
    -> [RecentKey: (hash: Int64, game: Game?)]
  {
    var result: [RecentKey: (hash: Int64, game: Game?)] = [:]
    func ids(_ kind: StoreChange.Kind) -> [String] { rows.filter { $0.kind == kind }.map(\.id) }
    let games = ids(.game)
    if !games.isEmpty {
      for try await (id, hash, json) in try await connection.query(
        "SELECT id, hash, json::text FROM games WHERE id = ANY(\(games))", logger: logger
      ).decode((String, Int64, String).self) {
        var game: Game?
        if case .game(let stored) = try RecordRow.decode(.game, Data(json.utf8), path: location.description) {
          game = stored
        }
        result[RecentKey(kind: .game, id: id)] = (hash, game)
      }
    }
    for (kind, table, column) in [(StoreChange.Kind.team, "teams", "id"), (.boxScore, "box_scores", "game_id")] {
      let keys = ids(kind)
      guard !keys.isEmpty else { continue }
      var query = PostgresQuery(unsafeSQL: "SELECT \(column), hash FROM \(table) WHERE \(column) = ANY($1)")
      query.binds.append(keys, context: .default)
      for try await (id, hash) in try await connection.query(query, logger: logger).decode((String, Int64).self) {
        result[RecentKey(kind: kind, id: id)] = (hash, nil)
      }
    }
    let plays = rows.filter { $0.kind == .play }
    if !plays.isEmpty {
      let games = plays.map(\.gameId)
      let sequences = plays.map { Int32(clamping: $0.sequence) }
      for try await (game, sequence, hash) in try await connection.query(
        """
        SELECT p.game_id, p.sequence, p.hash FROM plays p
        JOIN unnest(\(games)::text[], \(sequences)::int[]) AS k(g, s) ON p.game_id = k.g AND p.sequence = k.s
        """, logger: logger
      ).decode((String, Int32, Int64).self) {
        result[RecentKey(kind: .play, id: "\(game)#\(sequence)")] = (hash, nil)
      }
    }
    return result
  }

  public func changes(since version: Int64, limit: Int) async throws -> [StoreChange] {
    let path = location.description
    return try await perform("cannot read changes") { connection in
      var result: [StoreChange] = []
      for try await (kind, id, version, json) in try await connection.query(
        """
        SELECT kind, id, version, json FROM (
          SELECT 'game' AS kind, id, version, json::text AS json FROM games WHERE version > \(version)
          UNION ALL SELECT 'team', id, version, json::text FROM teams WHERE version > \(version)
          UNION ALL SELECT 'boxScore', game_id, version, json::text FROM box_scores WHERE version > \(version)
          UNION ALL SELECT 'play', game_id || '#' || sequence, version, json::text FROM plays WHERE version > \(version)
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
