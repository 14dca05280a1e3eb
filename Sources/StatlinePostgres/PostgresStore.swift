import Foundation
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO
import StatlineCommit
import StatlineCore

/// The store on a PostgreSQL server: what N workers on N machines share (architecture.md#workers).
///
/// It keeps the same records, versions, events and schedule as the SQLite store and passes the
/// same contract suites. Writes from many workers are safe for delta sync: a write takes the
/// store's version row with `FOR UPDATE` before it numbers anything and holds it to its commit,
/// so versions and event sequences become visible in the order they were handed out, and a
/// reader at cursor N can never later find a record numbered below N (see `write`).
public final class PostgresStore: Sendable {
  public let location: PostgresLocation
  let client: PostgresClient
  let running: Task<Void, Never>
  /// The store's own event loop: every connection lives on it, and every query runs on it.
  let group: MultiThreadedEventLoopGroup
  let executor: EventLoopTaskExecutor
  /// The event loop every connection lives on, as a task executor: a task that prefers it
  /// runs its queries without hopping between threads.
  public var taskExecutor: any TaskExecutor { executor }
  let logger: Logger
  /// What every write does before the store writes it (`CommitPlanner`).
  let planner: CommitPlanner
  /// True for `statline serve`: every transaction is read-only on the server's side.
  let readOnly: Bool
  /// The record and hash this process last wrote or found under each id: an equal record is
  /// not encoded and hashed again. The stored hash is still read before the write, or checked by
  /// `statline_commit` (another worker may have written since), so this saves CPU, never a check.
  let recent = Locked(RecentRecords())
  /// Rung after every commit of this process that wrote events.
  public let eventBell = EventBell()
  /// The state and tag this process committed for each target, and which targets it claimed
  /// back untouched: such a claim takes the state from here, and the commit is worked out
  /// against `recent`, without reading the store (`statline_commit` checks it).
  let committed = Locked(CommittedTargets())
  /// How many times the canonical step read games from the store (a test holds a remembered
  /// poll to none).
  let canonicalReads = Locked(0)
  /// Request slots finished with `finishLater` and not yet deleted.
  let finished = Locked(FinishedPermits())
  /// How long a finished slot may wait for the next statement (`HostSlot.lateFinish`).
  let lateFinish: Duration
  /// When a pooled connection is checked before use (`IdleConnections.swift`).
  let idleCheck: IdleCheck
  /// When each pooled connection was last used, by its id.
  let lastUse = Locked<[PostgresConnection.ID: ContinuousClock.Instant]>([:])
  /// When the store was opened: a pooled connection not used yet counts as idle since then.
  let openedAt = ContinuousClock.now
  /// Connections found dropped whose close is not through yet.
  let dropped = Locked<Set<PostgresConnection.ID>>([])
  /// How many idle connections did not answer their check, and were replaced.
  public let droppedConnections = Locked(0)
  let maxConnections: Int

  /// How long connecting may take before the store reports the server unreachable.
  public static let connectTimeout: Duration = .seconds(10)

  private init(
    location: PostgresLocation, readOnly: Bool, planner: CommitPlanner, maxConnections: Int,
    lateFinish: Duration = HostSlot.lateFinish,
    idleCheck: IdleCheck = IdleCheck(),
    logger: Logger
  ) {
    self.location = location
    self.idleCheck = idleCheck
    self.maxConnections = maxConnections
    self.planner = planner
    self.lateFinish = lateFinish
    self.readOnly = readOnly
    self.logger = logger
    var configuration = PostgresClient.Configuration(
      host: location.host, port: location.port, username: location.user, password: location.password,
      database: location.database, tls: Self.tls(location.tls))
    configuration.options.maximumConnections = maxConnections
    // The pool arms an idle timer and a keep-alive timer (tasks, a clock sleep) each time it
    // parks a connection above its minimum, and cancels them at the next lease: a third of a
    // query's CPU. It leases the first free connection, so the first two (kept open, not
    // timed) carry nearly every query; the job's own statements keep them from going idle.
    configuration.options.minimumConnections = min(2, maxConnections)
    configuration.options.keepAliveBehavior = nil
    configuration.options.connectTimeout = Self.connectTimeout
    var parameters = [("search_path", location.schema), ("application_name", "statline")]
    if readOnly { parameters.append(("default_transaction_read_only", "on")) }
    configuration.options.additionalStartupParameters = parameters
    // The pool retries a lost server on its own and says so at info; the store reports what
    // fails to the job, so only the pool's warnings are let through.
    var background = logger
    background.logLevel = max(logger.logLevel, .warning)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    self.group = group
    executor = EventLoopTaskExecutor(group.next())
    let client = PostgresClient(configuration: configuration, eventLoopGroup: group, backgroundLogger: background)
    self.client = client
    running = Task { await client.run() }
  }

  private static func tls(_ mode: PostgresLocation.TLSMode) -> PostgresClient.Configuration.TLS {
    switch mode {
    case .disable: .disable
    case .prefer: .prefer(.makeClientConfiguration())
    case .require: .require(.makeClientConfiguration())
    }
  }

  /// Connects, creates the schema when the URL names one that is missing, and migrates to the
  /// latest version (under an advisory lock: workers starting together migrate once).
  ///
  /// - Parameters:
  ///   - migrate: false for `statline migrate`, which migrates itself and reports what it did.
  ///   - lateFinish: how long a slot given back with `finishLater` may wait for this worker's
  ///     next statement (tests lengthen it, so only the statements give slots back).
  public static func open(
    _ location: PostgresLocation, planner: CommitPlanner = .standard, maxConnections: Int = 8,
    migrate: Bool = true, lateFinish: Duration = HostSlot.lateFinish,
    idleCheck: IdleCheck = IdleCheck(),
    logger: Logger = Logger(label: "statline.postgres")
  ) async throws(StatlineError) -> PostgresStore {
    let store = PostgresStore(
      location: location, readOnly: false, planner: planner, maxConnections: maxConnections,
      lateFinish: lateFinish, idleCheck: idleCheck, logger: logger)
    do {
      try await store.ping()
      if migrate { try await store.migrate() }
    } catch {
      await store.close()
      throw error
    }
    return store
  }

  /// Connects for reading only (the read API): the server refuses every write this store's
  /// connections try. Refuses a database whose schema is not this Statline's.
  public static func openReadOnly(
    _ location: PostgresLocation, maxConnections: Int = 8, logger: Logger = Logger(label: "statline.postgres")
  ) async throws(StatlineError) -> PostgresStore {
    let store = PostgresStore(
      location: location, readOnly: true, planner: .readOnly, maxConnections: maxConnections, logger: logger)
    do throws(StatlineError) {
      try await store.ping()
      let schema = try await store.schemaVersion()
      guard schema == PostgresMigrations.latest else {
        throw StatlineError(
          .store, "the store has schema version \(schema), this Statline reads \(PostgresMigrations.latest)",
          location: location.description,
          hint: schema < PostgresMigrations.latest
            ? "run `statline migrate --store URL` (or let `statline run` start once)" : "run a newer statline")
      }
      try await store.verifySchema()
    } catch {
      await store.close()
      throw error
    }
    return store
  }

  /// Closes every connection. The store cannot be used afterwards.
  public func close() async {
    let finishedSlots = takeFinished()
    if !finishedSlots.isEmpty { await deletePermits(finishedSlots) }
    running.cancel()
    await running.value
    try? await group.shutdownGracefully()
  }

  /// One connection of its own, opened and closed, bounded by `connectTimeout`: a server that
  /// is down, a wrong password or a missing database is reported at start-up in the server's
  /// words (the pool would retry it quietly forever).
  func ping() async throws(StatlineError) {
    var configuration = PostgresConnection.Configuration(
      host: location.host, port: location.port, username: location.user, password: location.password,
      database: location.database, tls: .disable)
    configuration.options.connectTimeout = .seconds(Int64(Self.connectTimeout.components.seconds))
    do {
      switch location.tls {
      case .disable: break
      case .prefer: configuration.tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
      case .require: configuration.tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
      }
      let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
      try? await connection.close()
    } catch {
      throw failure("cannot connect", error)
    }
  }

  /// A `StatlineError` for a failed query: what was being done, and the server's own words.
  func failure(_ what: String, _ error: any Error) -> StatlineError {
    if let error = error as? StatlineError { return error.located(location: location.description) }
    if let error = error as? PostgresTransactionError {
      return failure(what, error.closureError ?? error.commitError ?? error.beginError ?? error.rollbackError ?? error)
    }
    var reason = what
    var hint: String?
    if let error = error as? PSQLError {
      if let message = error.serverInfo?[.message] {
        reason += ": \(message)"
        if let detail = error.serverInfo?[.detail] { reason += " (\(detail))" }
        if let state = error.serverInfo?[.sqlState] { reason += " [SQLSTATE \(state)]" }
      } else if let underlying = error.underlying {
        reason += ": \(underlying)"
      } else {
        reason += ": \(error.code)"
      }
      switch error.serverInfo?[.sqlState] {
      case "28P01", "28000": hint = "check the user, and the password in the URL or PGPASSWORD"
      case "3D000": hint = "create the database first (createdb), or fix the URL"
      case "25006": hint = "this connection is read-only (statline serve); writes belong to the job"
      default: break
      }
      if error.code == .connectionError || error.code == .serverClosedConnection {
        hint = "check that the server runs and listens on \(location.host):\(location.port)"
      }
    } else {
      reason += ": \(error)"
    }
    return StatlineError(.store, reason, location: location.description, hint: hint)
  }

  /// Runs `body` on a pooled connection; any error becomes a `StatlineError` saying `what` failed.
  @discardableResult
  func perform<R: Sendable>(_ what: String, _ body: (PostgresConnection) async throws -> sending R)
    async throws(StatlineError) -> R
  {
    do {
      return try await withTaskExecutorPreference(executor) { try await self.leased(body, depth: 0) }
    } catch {
      throw failure(what, error)
    }
  }

  /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
  @discardableResult
  func transaction<R: Sendable>(_ what: String, _ body: (PostgresConnection) async throws -> sending R)
    async throws(StatlineError) -> R
  {
    do {
      return try await withTaskExecutorPreference(executor) {
        try await self.leased(
          { connection in try await connection.withTransaction(logger: self.logger, body) }, depth: 0)
      }
    } catch {
      throw failure(what, error)
    }
  }

  // MARK: Migrations

  /// The newest migration this Statline has.
  public static var latestSchema: Int { PostgresMigrations.latest }

  /// The newest migration this database has had (0: none).
  public func schemaVersion() async throws(StatlineError) -> Int {
    try await perform("cannot read the schema version") { connection in
      let exists =
        try await connection.query(
          "SELECT to_regclass('statline_migrations') IS NOT NULL", logger: logger
        ).collect().first?.decode(Bool.self) ?? false
      guard exists else { return 0 }
      return try await connection.query("SELECT COALESCE(MAX(version), 0) FROM statline_migrations", logger: logger)
        .collect().first?.decode(Int.self) ?? 0
    }
  }

  /// Applies the migrations this database lacks, each in its own transaction, under a
  /// session advisory lock; returns the versions applied. Refuses a database from a newer Statline.
  @discardableResult
  public func migrate() async throws(StatlineError) -> [Int] {
    let schema = location.schema
    let logger = self.logger
    let applied: [Int] = try await perform("cannot migrate the store") { connection in
      let lock = Int64(bitPattern: ContentHash.fnv1a(Data("statline-migrate:\(schema)".utf8)))
      try await connection.query("SELECT pg_advisory_lock(\(lock))", logger: logger)
      do {
        if schema != "public" {
          try await connection.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(schema)"), logger: logger)
        }
        try await connection.query(
          """
          CREATE TABLE IF NOT EXISTS statline_migrations (
            version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
          """, logger: logger)
        let current =
          try await connection.query("SELECT COALESCE(MAX(version), 0) FROM statline_migrations", logger: logger)
          .collect().first?.decode(Int.self) ?? 0
        guard current <= PostgresMigrations.latest else {
          throw StatlineError(
            .store, "the store has schema version \(current), newer than this Statline's \(PostgresMigrations.latest)",
            hint: "run a newer statline, or point --store at another database")
        }
        var applied: [Int] = []
        for migration in PostgresMigrations.all where migration.version > current {
          try await connection.withTransaction(logger: logger) { connection in
            for statement in PostgresMigrations.statements(migration.sql) {
              try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.query(
              "INSERT INTO statline_migrations (version) VALUES (\(migration.version))", logger: logger)
          }
          applied.append(migration.version)
        }
        if !self.readOnly { try await self.assignCanonicalIds(on: connection) }
        try await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger)
        return applied
      } catch {
        _ = try? await connection.query("SELECT pg_advisory_unlock(\(lock))", logger: logger)
        throw error
      }
    }
    if !applied.isEmpty { logger.info("migrated", metadata: ["store": "\(location)", "applied": "\(applied)"]) }
    try await verifySchema()
    return applied
  }

  /// Drops the store's schema and everything in it (tests, `bench`): never the `public` schema.
  public func dropSchema() async throws(StatlineError) {
    let schema = location.schema
    guard schema != "public" else {
      throw StatlineError(.store, "refusing to drop the public schema", location: location.description)
    }
    try await perform("cannot drop the schema") { connection in
      try await connection.query(PostgresQuery(unsafeSQL: "DROP SCHEMA IF EXISTS \(schema) CASCADE"), logger: logger)
    }
  }
}

extension PostgresRowSequence {
  /// Every row, read to the end.
  func collect() async throws -> [PostgresRow] {
    var rows: [PostgresRow] = []
    for try await row in self { rows.append(row) }
    return rows
  }
}
