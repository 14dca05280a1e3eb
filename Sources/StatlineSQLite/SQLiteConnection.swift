import CSQLite
import Foundation
import StatlineCore

/// One SQLite connection. Not thread-safe: `SQLiteStore` (an actor) owns it.
final class SQLiteConnection {
  let path: String
  private let handle: OpaquePointer
  private var statements: [String: Statement] = [:]
  /// What the statements run on this connection cost, counted by SQLite: what a test holds
  /// flat as the store grows (never timed).
  var work = StatementWork()

  /// - Parameter readOnly: opens an existing file without the right to write it (`statline
  ///   serve`): WAL lets it read while the job writes.
  /// - Parameter immutable: open a read-only file as one nobody can change (SQLite's
  ///   `immutable=1`: no locks, no `-shm` file): a store on a read-only filesystem.
  init(path: String, readOnly: Bool = false, immutable: Bool = false) throws(StatlineError) {
    var handle: OpaquePointer?
    var flags =
      readOnly
      ? SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    var name = path
    if immutable {
      flags |= SQLITE_OPEN_URI
      let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
      name = "file:\(escaped)?immutable=1"
    }
    let code = sqlite3_open_v2(name, &handle, flags, nil)
    guard code == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      if let handle { sqlite3_close_v2(handle) }
      throw StatlineError(
        .store, "cannot open the SQLite store: \(message)", location: path,
        hint: "check that the folder exists and is writable")
    }
    self.path = path
    self.handle = handle
    sqlite3_busy_timeout(handle, 5_000)
  }

  deinit {
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  /// Runs SQL that returns no rows (several statements allowed).
  func execute(_ sql: String) throws(StatlineError) {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      sqlite3_free(message)
      throw failure(text, sql: sql)
    }
  }

  /// A prepared statement, cached by its SQL.
  func statement(_ sql: String) throws(StatlineError) -> Statement {
    work.statements += 1
    if let cached = statements[sql] {
      cached.reset()
      return cached
    }
    var pointer: OpaquePointer?
    guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &pointer, nil) == SQLITE_OK,
      let pointer
    else {
      throw failure(String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
    let statement = Statement(pointer: pointer, connection: self)
    statements[sql] = statement
    return statement
  }

  /// The integer in the first column of the first row.
  func integer(_ sql: String) throws(StatlineError) -> Int64 {
    let statement = try statement(sql)
    defer { statement.reset() }
    guard try statement.step() else { return 0 }
    return statement.int64(0)
  }

  /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
  func transaction<T>(_ body: () throws(StatlineError) -> T) throws(StatlineError) -> T {
    try execute("BEGIN IMMEDIATE")
    // A cached statement left on a row keeps a read snapshot open after the commit, and while
    // one is open no checkpoint can recycle the WAL: it (and its index, mapped into memory)
    // would grow with every write. So every statement is reset when a transaction ends.
    defer { resetStatements() }
    do {
      let result = try body()
      resetStatements()
      try execute("COMMIT")
      return result
    } catch {
      resetStatements()
      try? execute("ROLLBACK")
      throw error
    }
  }

  /// Resets every cached statement, ending any read it left open.
  func resetStatements() {
    for statement in statements.values { statement.reset() }
  }

  func failure(_ message: String, sql: String? = nil) -> StatlineError {
    StatlineError(
      .store, message, location: path, context: sql.map { String($0.prefix(120)) },
      hint: "the database may be locked by another process, full, or corrupt (PRAGMA integrity_check)")
  }

  var lastError: String { String(cString: sqlite3_errmsg(handle)) }
}

/// SQLite's own counts of the work done by a connection's prepared statements.
struct StatementWork: Sendable, Equatable {
  /// Statements run.
  var statements = 0
  /// Virtual machine operations (`SQLITE_STMTSTATUS_VM_STEP`): grows with the rows a statement
  /// visits.
  var virtualMachineSteps = 0
  /// Steps of full table scans (`SQLITE_STMTSTATUS_FULLSCAN_STEP`): a statement that reads
  /// every row of a table instead of seeking an index.
  var fullScanSteps = 0
}

/// A prepared statement with 1-based binding and 0-based columns.
final class Statement {
  private let pointer: OpaquePointer
  private unowned let connection: SQLiteConnection

  init(pointer: OpaquePointer, connection: SQLiteConnection) {
    self.pointer = pointer
    self.connection = connection
  }

  deinit { sqlite3_finalize(pointer) }

  func reset() {
    // Each run's counts are taken (and zeroed) as the statement is reset.
    connection.work.virtualMachineSteps += Int(sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_VM_STEP, 1))
    connection.work.fullScanSteps += Int(sqlite3_stmt_status(pointer, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1))
    sqlite3_reset(pointer)
    sqlite3_clear_bindings(pointer)
  }

  @discardableResult
  func bind(_ values: any SQLiteValue...) -> Statement { bind(all: values) }

  /// Binds a list made at run time (an `IN (?, ?, …)` of any length).
  @discardableResult
  func bind(all values: [any SQLiteValue]) -> Statement {
    for (offset, value) in values.enumerated() { value.bind(to: pointer, at: Int32(offset + 1)) }
    return self
  }

  /// Advances to the next row; false when done.
  func step() throws(StatlineError) -> Bool {
    switch sqlite3_step(pointer) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw connection.failure(connection.lastError)
    }
  }

  /// Runs a statement that returns no rows.
  func run() throws(StatlineError) {
    while try step() {}
  }

  func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(pointer, column) }

  func double(_ column: Int32) -> Double { sqlite3_column_double(pointer, column) }

  func isNull(_ column: Int32) -> Bool { sqlite3_column_type(pointer, column) == SQLITE_NULL }

  func text(_ column: Int32) -> String {
    guard let bytes = sqlite3_column_text(pointer, column) else { return "" }
    return String(cString: bytes)
  }

  func data(_ column: Int32) -> Data {
    let count = Int(sqlite3_column_bytes(pointer, column))
    guard count > 0, let bytes = sqlite3_column_blob(pointer, column) else { return Data() }
    return Data(bytes: bytes, count: count)
  }
}

/// Values a statement can bind.
protocol SQLiteValue {
  func bind(to statement: OpaquePointer, at index: Int32)
}

extension Int64: SQLiteValue {
  func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, self) }
}

extension Double: SQLiteValue {
  func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_double(statement, index, self) }
}

extension Int: SQLiteValue {
  func bind(to statement: OpaquePointer, at index: Int32) { sqlite3_bind_int64(statement, index, Int64(self)) }
}

extension String: SQLiteValue {
  func bind(to statement: OpaquePointer, at index: Int32) {
    // withCString never hands over a null pointer, so "" binds as an empty text, not NULL.
    _ = withCString { statline_bind_text(statement, index, $0, Int32(utf8.count)) }
  }
}

extension Data: SQLiteValue {
  func bind(to statement: OpaquePointer, at index: Int32) {
    withUnsafeBytes { buffer in
      _ = statline_bind_blob(
        statement, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count))
    }
  }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
  func bind(to statement: OpaquePointer, at index: Int32) {
    if let self { self.bind(to: statement, at: index) } else { sqlite3_bind_null(statement, index) }
  }
}
