import Foundation
import StatlineCommit
import StatlineCore

/// The default `Store`: one SQLite file in WAL mode.
///
/// A batch is validated, then written in one transaction; a record whose content hash is
/// unchanged is not rewritten; every write takes the next store-wide version, which
/// `changes(since:limit:)` returns in order for the app's delta sync. A killed process loses at
/// most the transaction in flight.
public actor SQLiteStore: Store {
  let connection: SQLiteConnection
  /// The records this store wrote most recently (`RecentRecords`): an equal record is
  /// unchanged without being encoded and hashed, which is most of the cost of a poll whose page
  /// moved only its clock.
  var recent = RecentRecords()
  /// When each game this process wrote was written (with `recent`, what the merge reads of a
  /// game without reading the file). Emptied when a transaction fails.
  var changedTimes: [String: Date] = [:]

  /// What every write does before the store writes it (`CommitPlanner`).
  let planner: CommitPlanner
  /// Rung after every commit that wrote events.
  public nonisolated let eventBell = EventBell()

  /// Opens (or creates) the store at `path` and migrates it to the latest schema.

  /// Opens an existing store read-only (the read API): nothing this connection does can write
  /// the file. Refuses a file whose schema is not this Statline's.
  public init(readOnlyPath path: String) throws(StatlineError) {
    planner = .readOnly
    var connection = try SQLiteConnection(path: path, readOnly: true)
    var schema: Int64
    do {
      schema = try connection.integer("PRAGMA user_version")
    } catch {
      // A WAL store needs its -shm file, which a read-only filesystem cannot hold: read it as
      // the immutable file it is there (a WAL left beside it, not checkpointed, is not seen).
      guard Self.onReadOnlyFilesystem(path) else { throw error }
      connection = try SQLiteConnection(path: path, readOnly: true, immutable: true)
      schema = try connection.integer("PRAGMA user_version")
    }
    self.connection = connection
    guard schema == Migrations.latest else {
      throw StatlineError(
        .store, "the store has schema version \(schema), this Statline reads \(Migrations.latest)", location: path,
        hint: schema < Migrations.latest
          ? "let `statline run` (or `once`) open it once to migrate it" : "run a newer statline")
    }
    try SchemaCheck.verify(connection)
  }

  /// Whether the store's folder is on a filesystem mounted read-only.
  static func onReadOnlyFilesystem(_ path: String) -> Bool {
    var info = statvfs()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    return statvfs(folder, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
  }

  /// Opens (or creates) the store at `path` and migrates it to the latest schema.
  ///
  /// - Parameter planner: how its writes are planned (a planner that derives no events is for
  ///   benchmarks only, never for a job whose events are delivered: they would be missing for good).
  public init(path: String, planner: CommitPlanner = .standard) throws(StatlineError) {
    self.planner = planner
    connection = try SQLiteConnection(path: path)
    // A new file gives the space of deleted rows (pruned captures) back to the filesystem on
    // `PRAGMA incremental_vacuum`; on a file that has tables already this does nothing.
    try connection.execute("PRAGMA auto_vacuum = INCREMENTAL")
    try connection.execute("PRAGMA journal_mode = WAL")
    try connection.execute("PRAGMA synchronous = NORMAL")
    try connection.execute("PRAGMA foreign_keys = ON")
    try Migrations.migrate(connection)
    try SchemaCheck.verify(connection)
    try Self.assignCanonicalIds(planner: planner, on: connection)
  }

  public func write(_ batch: Batch) throws -> StoreWrite {
    let batch = try planner.screened(batch)
    let now = Date()
    let (result, plan) = try committing(batch, at: now) { () throws(StatlineError) in }
    remember(plan)
    return eventBell.ring(after: result)
  }

  /// Plans `batch` (`CommitPlanner`) and writes the plan, then `also`, in one transaction: the
  /// file's one writer reads what the planner asks inside it, so nothing changes in between.
  func committing(_ batch: Batch?, at time: Date, also: () throws(StatlineError) -> Void) throws(StatlineError)
    -> (StoreWrite, CommitPlan?)
  {
    do {
      return try connection.transaction { () throws(StatlineError) -> (StoreWrite, CommitPlan?) in
        var result = StoreWrite(written: 0, unchanged: 0, version: 0)
        var plan: CommitPlan?
        if let batch {
          let planned = try self.plan(batch, at: time)
          result = try write(planned, at: time)
          plan = planned
        } else {
          result.version = try connection.integer("SELECT version FROM store_version WHERE id = 1")
        }
        try also()
        return (result, plan)
      }
    } catch {
      changedTimes.removeAll()
      throw error
    }
  }

  /// `batch` planned against the file (the caller holds the transaction). The reads hold this
  /// process's memory only while the plan is made: it is changed once the plan is written.
  private func plan(_ batch: Batch, at time: Date) throws(StatlineError) -> CommitPlan {
    var reads = SQLiteReads(connection: connection, recent: recent, changedTimes: changedTimes, planner: planner)
    return try planner.plan(batch, at: time, on: &reads)
  }

  /// What the store's statements have cost so far, by SQLite's counts (for tests).
  func statementWork() -> StatementWork { connection.work }

  /// Remembers the rows of a committed write.
  func remember(_ plan: CommitPlan?) {
    if let plan { planner.remember(plan, in: &recent) }
  }

  /// Writes a plan's changed rows at the versions after the store's, and its events after the
  /// last one; the caller holds the transaction, so records and events land together. A game
  /// written keeps `time` as when it changed.
  func write(_ plan: CommitPlan, at time: Date) throws(StatlineError) -> StoreWrite {
    let version = try connection.integer("SELECT version FROM store_version WHERE id = 1")
    let last = plan.events.isEmpty ? 0 : try connection.integer("SELECT COALESCE(MAX(sequence), 0) FROM events")
    let (rows, events) = plan.numbered(afterVersion: version, sequence: last)
    for (row, version) in rows {
      try planner.metered(row.kind, row.id) { () throws(StatlineError) in
        try upsert(row, version: version, at: time)
        if row.kind == .game {
          // Bounded as `recent` is: past it, the times are read from the file again.
          if changedTimes.count >= recent.limit { changedTimes.removeAll() }
          changedTimes[row.id] = time
        }
      }
    }
    if !rows.isEmpty {
      try connection.statement("UPDATE store_version SET version = ? WHERE id = 1").bind(version + Int64(rows.count))
        .run()
    }
    try insert(events)
    return plan.write(version: version + Int64(rows.count))
  }

  /// Delta sync carries canonical games (the source games they merge are for operators:
  /// `sourceGame(id:)`), and every team, box score, play and ranking.
  public func changes(since version: Int64, limit: Int) throws -> [StoreChange] {
    let floor = try connection.integer("SELECT resync_below FROM store_version WHERE id = 1")
    if version > 0 && version < floor { throw StoreResync(cursor: version, floor: floor) }
    let statement = try connection.statement(
      """
      SELECT 'game', id, version, json FROM games WHERE version > ?1 AND id >= 'game:' AND id < 'game;'
      UNION ALL SELECT 'team', id, version, json FROM teams WHERE version > ?1
      UNION ALL SELECT 'boxScore', game_id, version, json FROM box_scores WHERE version > ?1
      UNION ALL SELECT 'play', game_id || '#' || sequence, version, json FROM plays WHERE version > ?1
      UNION ALL SELECT 'ranking', id, version, json FROM rankings WHERE version > ?1
      ORDER BY 3 LIMIT ?2
      """)
    statement.bind(version, limit)
    var result: [StoreChange] = []
    while try statement.step() {
      guard let kind = StoreChange.Kind(rawValue: statement.text(0)) else { continue }
      let json = Data(statement.text(3).utf8)
      result.append(
        StoreChange(
          version: statement.int64(2), kind: kind, id: statement.text(1),
          record: try RecordRow.decode(kind, json, path: connection.path)))
    }
    return result
  }

  /// The highest version in the store.
  public func version() throws -> Int64 {
    try connection.integer("SELECT version FROM store_version WHERE id = 1")
  }

  /// `PRAGMA integrity_check`: "ok", or what is wrong.
  public func integrityCheck() throws -> String {
    let statement = try connection.statement("PRAGMA integrity_check")
    return try statement.step() ? statement.text(0) : "no answer"
  }

  /// The journal mode in force (`wal`).
  public func journalMode() throws -> String {
    let statement = try connection.statement("PRAGMA journal_mode")
    return try statement.step() ? statement.text(0) : ""
  }

  /// The schema version (`PRAGMA user_version`).
  public func schemaVersion() throws -> Int64 { try connection.integer("PRAGMA user_version") }

  func upsert(_ row: RecordRow, version: Int64, at time: Date) throws(StatlineError) {
    try Self.upsert(row, version: version, at: time, on: connection)
  }

  static func upsert(_ row: RecordRow, version: Int64, at time: Date, on connection: SQLiteConnection)
    throws(StatlineError)
  {
    switch row.record {
    case .game(let game):
      try connection.statement(
        """
        INSERT INTO games (id, version, hash, sport, status, date, json, away_team, home_team, changed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, sport = excluded.sport,
          status = excluded.status, date = excluded.date, json = excluded.json, away_team = excluded.away_team,
          home_team = excluded.home_team, changed_at = excluded.changed_at
        """
      ).bind(
        row.id, version, row.hash, game.sport.rawValue, game.status.rawValue, game.date, row.json,
        game.away.team.id, game.home.team.id, time.timeIntervalSince1970
      ).run()
    case .team:
      try connection.statement(
        """
        INSERT INTO teams (id, version, hash, json) VALUES (?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json
        """
      ).bind(row.id, version, row.hash, row.json).run()
    case .boxScore:
      try connection.statement(
        """
        INSERT INTO box_scores (game_id, version, hash, json) VALUES (?, ?, ?, ?)
        ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json
        """
      ).bind(row.id, version, row.hash, row.json).run()
    case .play:
      try connection.statement(
        """
        INSERT INTO plays (game_id, sequence, version, hash, json) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (game_id, sequence) DO UPDATE SET version = excluded.version, hash = excluded.hash,
          json = excluded.json
        """
      ).bind(row.gameId, row.sequence, version, row.hash, row.json).run()
    case .ranking(let ranking):
      try connection.statement(
        """
        INSERT INTO rankings (id, version, hash, sport, poll, season, edition, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, sport = excluded.sport,
          poll = excluded.poll, season = excluded.season, edition = excluded.edition, json = excluded.json
        """
      ).bind(
        row.id, version, row.hash, ranking.sport.rawValue, ranking.poll, ranking.season, ranking.edition, row.json
      ).run()
    }
  }
}
