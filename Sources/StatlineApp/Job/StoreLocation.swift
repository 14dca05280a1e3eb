import Foundation
import Logging
import StatlineCanonical
import StatlineCommit
import StatlineCore
import StatlinePostgres
import StatlineSQLite

/// Everything the job asks of its store: records, schedule, captures, events, and the reads
/// of the API and `statline status`. SQLite and PostgreSQL both are one.
public typealias JobStore = ScheduleStore & CaptureLog & EventLog & StoreReader

/// Where the store is, as `--store` or `store:` says it: a SQLite file path (the default), or
/// a `postgres://` URL (N workers sharing one database).
public enum StoreLocation: Sendable, CustomStringConvertible {
  case file(String)
  case postgres(PostgresLocation)

  public init(_ text: String, environment: [String: String] = ProcessInfo.processInfo.environment)
    throws(StatlineError)
  {
    self =
      PostgresLocation.isURL(text) ? .postgres(try PostgresLocation(url: text, environment: environment)) : .file(text)
  }

  /// The location as `--store` takes it, password included (for handing to a child or a
  /// runtime; never for logs: use `description`).
  public var url: String {
    switch self {
    case .file(let path): return path
    case .postgres(let location):
      var components = URLComponents()
      components.scheme = "postgres"
      components.user = location.user
      components.password = location.password
      components.host = location.host
      components.port = location.port
      components.path = "/" + location.database
      components.queryItems = [
        URLQueryItem(name: "sslmode", value: location.tls.rawValue),
        URLQueryItem(name: "schema", value: location.schema),
      ]
      return components.string ?? location.description
    }
  }

  public var isPostgres: Bool {
    if case .postgres = self { return true }
    return false
  }

  /// The path or the URL without its password.
  public var description: String {
    switch self {
    case .file(let path): path
    case .postgres(let location): location.description
    }
  }

  /// Opens the store for the job (migrating it first), its writes planned by `planner` (which
  /// merges source games into canonical games with the configuration's `teams.aliases` in its
  /// registry).
  ///
  /// - Parameter job: the store is the job's, which must be its only writer: a SQLite file is
  ///   locked for as long as it is open (`SQLiteWriterLock`), and a second job on it is refused.
  ///   PostgreSQL is shared by design (workers lease their targets). A command that writes a
  ///   line or two (`events redeliver`) opens it without.
  public func open(
    planner: CommitPlanner = BuiltinPlugins.planner, job: Bool = false,
    logger: Logger = Logger(label: "statline.store")
  )
    async throws(StatlineError)
    -> OpenStore
  {
    switch self {
    case .file(let path):
      guard job else {
        return OpenStore(try SQLiteStore(path: path, planner: planner))
      }
      let lock = try SQLiteWriterLock(store: path)
      let store = try SQLiteStore(path: path, planner: planner)
      return OpenStore(store, close: { lock.release() })
    case .postgres(let location):
      let store = try await PostgresStore.open(location, planner: planner, logger: logger)
      return OpenStore(store, executor: store.taskExecutor, close: store.close)
    }
  }

  /// Opens the store read-only (`statline serve`, `run --serve`): nothing done through it can write.
  public func openReader(logger: Logger = Logger(label: "statline.store")) async throws(StatlineError) -> OpenStore {
    switch self {
    case .file(let path): return OpenStore(try SQLiteStore(readOnlyPath: path))
    case .postgres(let location):
      let store = try await PostgresStore.openReadOnly(location, logger: logger)
      return OpenStore(store, close: store.close)
    }
  }

  /// Opens the store's devices and push outbox for writing (`/v1/devices`, the push path),
  /// beside a read-only API: a SQLite file the job made (its writer lock is not taken), or the
  /// PostgreSQL store.
  public func openDevices(logger: Logger = Logger(label: "statline.store")) async throws(StatlineError) -> (
    registry: any DeviceRegistry & PushOutbox, close: @Sendable () async -> Void
  ) {
    switch self {
    case .file(let path): return (try SQLiteDeviceRegistry(path: path), {})
    case .postgres(let location):
      let store = try await PostgresStore.open(location, logger: logger)
      return (store, store.close)
    }
  }

  /// Opens the store of a one-shot command (`status`, `events`, `captures`, `replay`): a SQLite
  /// file must already be there (the job makes it); a PostgreSQL pool lives as long as the process.
  public func openForCommand(hint: String) async throws(StatlineError) -> any JobStore {
    if case .file(let path) = self, !FileManager.default.fileExists(atPath: path) {
      throw StatlineError(.io, "no store at \(path)", hint: hint)
    }
    return try await open().store
  }
}

/// An open store and how to close it (a PostgreSQL pool must be shut down; SQLite closes itself).
public struct OpenStore: Sendable {
  public let store: any JobStore
  /// Where the job's tasks should run to reach the store without a thread hop (PostgreSQL:
  /// its connections' event loop); nil when it does not matter.
  public let executor: (any TaskExecutor)?
  private let closer: (@Sendable () async -> Void)?

  init(_ store: any JobStore, executor: (any TaskExecutor)? = nil, close: (@Sendable () async -> Void)? = nil) {
    self.store = store
    self.executor = executor
    closer = close
  }

  public func close() async { await closer?() }
}
