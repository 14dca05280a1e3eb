import Foundation
import StatlineCore

/// The devices' statements (architecture.md#devices), run on the connection
/// `SQLiteDeviceRegistry` holds.
enum SQLiteDevices {
  static let encoder: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return encoder
  }()

  static func upsert(_ device: Device, on connection: SQLiteConnection) throws(StatlineError) -> DeviceUpsert {
    try connection.transaction { () throws(StatlineError) -> DeviceUpsert in
      let existing = try connection.statement("SELECT registered_at FROM devices WHERE id = ?").bind(device.id)
      var stored = device
      let created = !(try existing.step())
      if !created { stored.registeredAt = existing.text(0) }
      existing.reset()
      let json: String
      do {
        json = String(decoding: try encoder.encode(stored), as: UTF8.self)
      } catch {
        throw StatlineError(.store, "a device cannot be encoded: \(error)", location: connection.path)
      }
      try connection.statement(
        """
        INSERT INTO devices (id, kind, registered_at, json) VALUES (?1, ?2, ?3, ?4)
        ON CONFLICT (id) DO UPDATE SET kind = ?2, json = ?4
        """
      ).bind(stored.id, stored.kind.rawValue, stored.registeredAt, json).run()
      try connection.statement("DELETE FROM device_teams WHERE device_id = ?").bind(stored.id).run()
      for team in Set(stored.teams) {
        try connection.statement("INSERT INTO device_teams (team, device_id) VALUES (?, ?)").bind(team, stored.id).run()
      }
      return DeviceUpsert(device: stored, created: created)
    }
  }

  static func device(id: String, on connection: SQLiteConnection) throws(StatlineError) -> Device? {
    let statement = try connection.statement("SELECT json FROM devices WHERE id = ?").bind(id)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try decode(statement.text(0), connection)
  }

  static func devices(ids: [String], on connection: SQLiteConnection) throws(StatlineError) -> [Device] {
    var devices: [Device] = []
    let unique = Array(Set(ids))
    // In chunks under SQLite's bound-parameter limit.
    for start in stride(from: 0, to: unique.count, by: 500) {
      let chunk = Array(unique[start..<min(start + 500, unique.count)])
      let placeholders = Array(repeating: "?", count: chunk.count).joined(separator: ", ")
      let statement = try connection.statement("SELECT json FROM devices WHERE id IN (\(placeholders))").bind(
        all: chunk.map { $0 as any SQLiteValue })
      while try statement.step() { devices.append(try decode(statement.text(0), connection)) }
      statement.reset()
    }
    return devices
  }

  static func delete(id: String, on connection: SQLiteConnection) throws(StatlineError) -> Bool {
    try connection.transaction { () throws(StatlineError) -> Bool in
      try connection.statement("DELETE FROM device_teams WHERE device_id = ?").bind(id).run()
      try connection.statement("DELETE FROM push_outbox WHERE device_id = ?").bind(id).run()
      let statement = try connection.statement("DELETE FROM devices WHERE id = ? RETURNING id").bind(id)
      defer { statement.reset() }
      return try statement.step()
    }
  }

  static func suspendedCounts(on connection: SQLiteConnection) throws(StatlineError) -> [Device.Suspension.Kind: Int] {
    let statement = try connection.statement(
      """
      SELECT json_extract(json, '$.suspended.kind'), COUNT(*) FROM devices
      WHERE json_extract(json, '$.suspended.kind') IS NOT NULL GROUP BY 1
      """)
    defer { statement.reset() }
    var counts: [Device.Suspension.Kind: Int] = [:]
    while try statement.step() {
      if let kind = Device.Suspension.Kind(rawValue: statement.text(0)) { counts[kind] = Int(statement.int64(1)) }
    }
    return counts
  }

  static func suspended(after: String?, limit: Int, on connection: SQLiteConnection) throws(StatlineError)
    -> [Device]
  {
    let statement = try connection.statement(
      "SELECT json FROM devices WHERE json_extract(json, '$.suspended.kind') IS NOT NULL AND id > ? ORDER BY id LIMIT ?"
    ).bind(after ?? "", limit)
    defer { statement.reset() }
    var devices: [Device] = []
    while try statement.step() { devices.append(try decode(statement.text(0), connection)) }
    return devices
  }

  static func suspend(id: String, _ suspension: Device.Suspension, on connection: SQLiteConnection)
    throws(StatlineError) -> Device?
  {
    try connection.transaction { () throws(StatlineError) -> Device? in
      guard let suspended = try device(id: id, on: connection)?.suspending(suspension) else { return nil }
      let json: String
      do {
        json = String(decoding: try encoder.encode(suspended), as: UTF8.self)
      } catch {
        throw StatlineError(.store, "a device cannot be encoded: \(error)", location: connection.path)
      }
      try connection.statement("UPDATE devices SET json = ? WHERE id = ?").bind(json, id).run()
      return suspended
    }
  }

  static func following(_ teams: [String], after: String?, limit: Int, on connection: SQLiteConnection)
    throws(StatlineError) -> [Device]
  {
    try page(teams, after: after, limit: limit, on: connection) { keys in
      """
      SELECT d.json FROM devices d WHERE d.id IN (
        SELECT DISTINCT device_id FROM device_teams WHERE team IN (\(keys)) AND device_id > ?)
      ORDER BY d.id LIMIT ?
      """
    }
  }

  static func watching(_ gameIds: [String], after: String?, limit: Int, on connection: SQLiteConnection)
    throws(StatlineError) -> [Device]
  {
    try page(gameIds, after: after, limit: limit, on: connection) { keys in
      """
      SELECT json FROM devices WHERE kind = 'apns-liveactivity'
        AND json_extract(json, '$.gameId') IN (\(keys)) AND id > ?
      ORDER BY id LIMIT ?
      """
    }
  }

  /// A page of devices by `sql`, given the placeholders for `keys` and binding them, then the
  /// id to start after and the limit.
  static func page(
    _ keys: [String], after: String?, limit: Int, on connection: SQLiteConnection, _ sql: (String) -> String
  ) throws(StatlineError) -> [Device] {
    guard !keys.isEmpty, limit > 0 else { return [] }
    let statement = try connection.statement(sql(Array(repeating: "?", count: keys.count).joined(separator: ", ")))
      .bind(all: keys.map { $0 as any SQLiteValue } + [after ?? "", limit])
    defer { statement.reset() }
    var devices: [Device] = []
    while try statement.step() { devices.append(try decode(statement.text(0), connection)) }
    return devices
  }

  static func counts(on connection: SQLiteConnection) throws(StatlineError) -> [Device.Kind: Int] {
    let statement = try connection.statement("SELECT kind, COUNT(*) FROM devices GROUP BY kind")
    defer { statement.reset() }
    var counts: [Device.Kind: Int] = [:]
    while try statement.step() {
      if let kind = Device.Kind(rawValue: statement.text(0)) { counts[kind] = Int(statement.int64(1)) }
    }
    return counts
  }

  static func decode(_ json: String, _ connection: SQLiteConnection) throws(StatlineError) -> Device {
    do {
      return try JSONDecoder().decode(Device.self, from: Data(json.utf8))
    } catch {
      throw StatlineError(
        .store, "a stored device does not decode: \(error)", location: connection.path,
        hint: "the store may come from another Statline")
    }
  }
}
