import Foundation
import StatlineCanonical
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

  /// False only in benchmarks that measure what deriving events costs (`bench cycle --no-events`).
  let derivesEvents: Bool
  /// How source games become canonical games (`SQLiteStore+Canonical.swift`).
  let canonical: CanonicalStep
  /// Rung after every commit that wrote events.
  public nonisolated let eventBell = EventBell()

  /// Opens (or creates) the store at `path` and migrates it to the latest schema.
  public init(path: String, canonical: CanonicalStep = .standard) throws(StatlineError) {
    try self.init(path: path, derivesEvents: true, canonical: canonical)
  }

  /// Opens an existing store read-only (the read API): nothing this connection does can write
  /// the file. Refuses a file whose schema is not this Statline's.
  public init(readOnlyPath path: String) throws(StatlineError) {
    derivesEvents = false
    canonical = .readOnly
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

  /// A store that writes no change events: for benchmarks only, never for a job whose events
  /// are delivered (they would be missing for good).
  public init(path: String, derivesEvents: Bool, canonical: CanonicalStep = .standard) throws(StatlineError) {
    self.derivesEvents = derivesEvents
    self.canonical = canonical
    connection = try SQLiteConnection(path: path)
    try connection.execute("PRAGMA journal_mode = WAL")
    try connection.execute("PRAGMA synchronous = NORMAL")
    try connection.execute("PRAGMA foreign_keys = ON")
    try Migrations.migrate(connection)
    try SchemaCheck.verify(connection)
    try Self.assignCanonicalIds(step: canonical, on: connection)
  }

  public func write(_ batch: Batch) throws -> StoreWrite {
    try BatchValidator.validate(batch)
    let now = Date()
    let batch = try canonicalized(batch, at: now)
    let (rows, skipped) = try rows(of: batch)
    var result: StoreWrite
    do {
      result = try connection.transaction { () throws(StatlineError) -> StoreWrite in
        try write(rows, of: batch, at: now)
      }
    } catch {
      changedTimes.removeAll()
      throw error
    }
    remember(rows)
    result.unchanged += skipped
    return eventBell.ring(after: result)
  }

  /// Encodes a batch's records, except those equal to what was last stored under their id
  /// (counted in `unchanged`); throws before anything is written.
  func rows(of batch: Batch) throws(StatlineError) -> (rows: [RecordRow], unchanged: Int) {
    var rows: [RecordRow] = []
    var unchanged = 0
    for (index, known) in recent.unchangedHashes(of: batch).enumerated() {
      if known != nil {
        unchanged += 1
        continue
      }
      let (kind, id, record) = StoreRecord.record(at: index, of: batch)
      rows.append(
        try metered(kind, id) { () throws(StatlineError) in try RecordRow(kind: kind, id: id, record: record) })
    }
    return (rows, unchanged)
  }

  /// What the store's statements have cost so far, by SQLite's counts (for tests).
  func statementWork() -> StatementWork { connection.work }

  /// Remembers the rows of a committed write.
  func remember(_ rows: [RecordRow]) {
    for row in rows { metered(row.kind, row.id) { recent.remember(row.kind, row.id, row.record, hash: row.hash) } }
  }

  /// `body` on the merge's meter (`CanonicalStep.meter`) when it works on a canonical game: what
  /// a store does only because it merges.
  func metered<Result, Failure: Error>(_ kind: StoreChange.Kind, _ id: String, _ body: () throws(Failure) -> Result)
    throws(Failure) -> Result
  {
    guard let meter = canonical.meter, kind == .game, id.hasPrefix(Game.canonicalPrefix) else { return try body() }
    return try meter.measure(body)
  }

  /// Writes the changed rows, each at the next version, and the events the changed games give
  /// (`ScoreDiffer`); the caller holds the transaction, so records and events land together.
  /// A game written keeps `time` as when it changed.
  func write(_ rows: [RecordRow], of batch: Batch?, at time: Date) throws(StatlineError) -> StoreWrite {
    var version = try connection.integer("SELECT version FROM store_version WHERE id = 1")
    var written = 0
    var changedGames: [ScoreDiffer.ChangedGame] = []
    var published: [ScoreDiffer.PublishedRanking] = []
    for row in rows {
      let stored = try metered(row.kind, row.id) { () throws(StatlineError) in try storedHash(row) }
      if stored == row.hash { continue }
      let previous = stored == nil || !derivesEvents ? nil : try previousGame(row)
      version += 1
      written += 1
      try metered(row.kind, row.id) { () throws(StatlineError) in
        try upsert(row, version: version, at: time)
        if row.kind == .game {
          // Bounded as `recent` is: past it, the times are read from the file again.
          if changedTimes.count >= recent.limit { changedTimes.removeAll() }
          changedTimes[row.id] = time
        }
      }
      // Events speak of canonical games only: a goal two sources report is one goal.
      if case .game(let game) = row.record, game.isCanonical {
        changedGames.append(ScoreDiffer.ChangedGame(current: game, previous: previous, version: version))
      }
      if case .ranking(let ranking) = row.record, stored == nil {
        published.append(ScoreDiffer.PublishedRanking(ranking: ranking, version: version))
      }
    }
    if written > 0 {
      try connection.statement("UPDATE store_version SET version = ? WHERE id = 1").bind(version).run()
    }
    var events: [ChangeEvent.Kind: Int] = [:]
    if derivesEvents && !(changedGames.isEmpty && published.isEmpty) {
      for event in try appendEvents(of: changedGames, published: published, batch: batch) {
        events[event.type, default: 0] += 1
      }
    }
    return StoreWrite(written: written, unchanged: rows.count - written, version: version, events: events)
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

  private func storedHash(_ row: RecordRow) throws(StatlineError) -> Int64? {
    // This process is the file's only writer: the hash it remembers under the id (it wrote or
    // read the record) is the file's, and costs no statement.
    if let remembered = recent.rememberedHash(row.kind, row.id, row.record) { return remembered }
    let statement: Statement
    switch row.kind {
    case .game: statement = try connection.statement("SELECT hash FROM games WHERE id = ?").bind(row.id)
    case .team: statement = try connection.statement("SELECT hash FROM teams WHERE id = ?").bind(row.id)
    case .boxScore: statement = try connection.statement("SELECT hash FROM box_scores WHERE game_id = ?").bind(row.id)
    case .play:
      statement = try connection.statement("SELECT hash FROM plays WHERE game_id = ? AND sequence = ?")
        .bind(row.gameId, row.sequence)
    case .ranking: statement = try connection.statement("SELECT hash FROM rankings WHERE id = ?").bind(row.id)
    }
    defer { statement.reset() }
    return try statement.step() ? statement.int64(0) : nil
  }

  /// The canonical game a row replaces (nil for other rows): the one this store last wrote or
  /// found unchanged under that id (`recent`: this process is the file's only writer), else read back.
  private func previousGame(_ row: RecordRow) throws(StatlineError) -> Game? {
    guard row.kind == .game, row.id.hasPrefix(Game.canonicalPrefix) else { return nil }
    if let game = recent.game(row.id) { return game }
    let statement = try connection.statement("SELECT json FROM games WHERE id = ?").bind(row.id)
    defer { statement.reset() }
    guard try statement.step(),
      case .game(let game) = try RecordRow.decode(
        .game, Data(statement.text(0).utf8), path: connection.path)
    else { return nil }
    return game
  }

  private func upsert(_ row: RecordRow, version: Int64, at time: Date) throws(StatlineError) {
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
