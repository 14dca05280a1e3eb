import StatlineCore

/// Whether a store file holds the schema its version says: every table and column the
/// migrations build. A table dropped by hand (or lost to damage) is reported at open as
/// damage, naming what is missing, instead of "schema version 6" at start and bare SQL in a 503
/// later.
enum SchemaCheck {
  /// `table` → its columns, as the migrations build them (made once, in memory).
  static let expected: [String: Set<String>] = {
    guard let memory = try? SQLiteConnection(path: ":memory:"), (try? Migrations.migrate(memory)) != nil,
      let tables = try? columns(memory)
    else { return [:] }
    return tables
  }()

  static func verify(_ connection: SQLiteConnection) throws(StatlineError) {
    let found = try columns(connection)
    var missing: [String] = []
    for (table, wanted) in expected.sorted(by: { $0.key < $1.key }) {
      guard let present = found[table] else {
        missing.append("table \(table)")
        continue
      }
      missing += wanted.subtracting(present).sorted().map { "column \(table).\($0)" }
    }
    guard missing.isEmpty else {
      throw StatlineError(
        .store,
        "the store is damaged: its schema version is \(Migrations.latest) but it lacks \(missing.joined(separator: ", "))",
        location: connection.path,
        hint:
          "restore it from a backup, or move it aside and let `statline run` build a new one (the sites are polled again)"
      )
    }
  }

  /// Every table of the file with its columns.
  static func columns(_ connection: SQLiteConnection) throws(StatlineError) -> [String: Set<String>] {
    var result: [String: Set<String>] = [:]
    let tables = try connection.statement(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    var names: [String] = []
    while try tables.step() { names.append(tables.text(0)) }
    tables.reset()
    for name in names {
      let info = try connection.statement("SELECT name FROM pragma_table_info(?)")
      info.bind(name)
      var columns: Set<String> = []
      while try info.step() { columns.insert(info.text(0)) }
      info.reset()
      result[name] = columns
    }
    return result
  }
}
