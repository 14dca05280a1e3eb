import Foundation
import PostgresNIO
import StatlineCore

/// The devices (`DeviceRegistry`) of a PostgreSQL store: shared by every worker and API.
extension PostgresStore: DeviceRegistry {
  public func upsertDevice(_ device: Device) async throws -> DeviceUpsert {
    let json = try Self.deviceJSON(device)
    let teams = Array(Set(device.teams)).sorted()
    return try await transaction("cannot store the device \(device.id)") { connection in
      let rows = try await connection.query(
        """
        INSERT INTO devices (id, kind, registered_at, json) VALUES (\(device.id), \(device.kind.rawValue),
          \(device.registeredAt), \(json)::jsonb)
        ON CONFLICT (id) DO UPDATE SET kind = EXCLUDED.kind,
          json = jsonb_set(EXCLUDED.json, '{registeredAt}', to_jsonb(devices.registered_at))
        RETURNING json::text, (xmax = 0)
        """, logger: logger
      ).collect()
      try await connection.query(
        "DELETE FROM device_teams WHERE device_id = \(device.id) AND NOT (team = ANY(\(teams)))", logger: logger)
      try await connection.query(
        """
        INSERT INTO device_teams (team, device_id) SELECT team, \(device.id) FROM unnest(\(teams)::text[]) AS t(team)
        ON CONFLICT DO NOTHING
        """, logger: logger)
      guard let (text, created) = try rows.first?.decode((String, Bool).self) else {
        throw StatlineError(.store, "the device \(device.id) was not stored", location: "devices")
      }
      return DeviceUpsert(device: try Self.device(text), created: created)
    }
  }

  public func device(id: String) async throws -> Device? {
    let text = try await perform("cannot read the device \(id)") { connection in
      try await connection.query("SELECT json::text FROM devices WHERE id = \(id)", logger: logger).collect().first?
        .decode(String.self)
    }
    return try text.map(Self.device)
  }

  public func devices(ids: [String]) async throws -> [Device] {
    guard !ids.isEmpty else { return [] }
    let unique = Array(Set(ids))
    let texts = try await perform("cannot read \(unique.count) devices") { connection in
      var texts: [String] = []
      for try await text in try await connection.query(
        "SELECT json::text FROM devices WHERE id = ANY(\(unique))", logger: logger
      ).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
    return try texts.map(Self.device)
  }

  public func deleteDevice(id: String) async throws -> Bool {
    try await transaction("cannot delete the device \(id)") { connection in
      try await connection.query("DELETE FROM push_outbox WHERE device_id = \(id)", logger: logger)
      return try await connection.query("DELETE FROM devices WHERE id = \(id) RETURNING id", logger: logger).collect()
        .isEmpty == false
    }
  }

  public func suspendedCounts() async throws -> [Device.Suspension.Kind: Int] {
    try await perform("cannot count the suspended devices") { connection in
      var counts: [Device.Suspension.Kind: Int] = [:]
      for try await (kind, count) in try await connection.query(
        "SELECT json->'suspended'->>'kind', count(*)::int FROM devices WHERE json ? 'suspended' GROUP BY 1",
        logger: logger
      ).decode((String, Int).self) {
        if let kind = Device.Suspension.Kind(rawValue: kind) { counts[kind] = count }
      }
      return counts
    }
  }

  public func suspendedDevices(after: String?, limit: Int) async throws -> [Device] {
    let texts = try await perform("cannot read the suspended devices") { connection in
      var texts: [String] = []
      for try await text in try await connection.query(
        """
        SELECT json::text FROM devices WHERE json ? 'suspended' AND id > \(after ?? "") ORDER BY id LIMIT \(limit)
        """, logger: logger
      ).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
    return try texts.map(Self.device)
  }

  public func suspendDevice(id: String, _ suspension: Device.Suspension) async throws -> Device? {
    try await transaction("cannot suspend the device \(id)") { connection in
      guard
        let text = try await connection.query(
          "SELECT json::text FROM devices WHERE id = \(id) FOR UPDATE", logger: logger
        ).collect().first?.decode(String.self),
        let suspended = try Self.device(text).suspending(suspension)
      else { return nil }
      try await connection.query(
        "UPDATE devices SET json = \(try Self.deviceJSON(suspended))::jsonb WHERE id = \(id)", logger: logger)
      return suspended
    }
  }

  public func devices(following teams: [String], after: String?, limit: Int) async throws -> [Device] {
    guard !teams.isEmpty, limit > 0 else { return [] }
    let texts = try await perform("cannot read the devices of \(teams.joined(separator: ", "))") { connection in
      var texts: [String] = []
      for try await text in try await connection.query(
        """
        SELECT d.json::text FROM devices d WHERE d.id IN (
          SELECT device_id FROM device_teams WHERE team = ANY(\(teams)) AND device_id > \(after ?? ""))
        ORDER BY d.id LIMIT \(limit)
        """, logger: logger
      ).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
    return try texts.map(Self.device)
  }

  public func devices(watching gameIds: [String], after: String?, limit: Int) async throws -> [Device] {
    guard !gameIds.isEmpty, limit > 0 else { return [] }
    let texts = try await perform("cannot read the Live Activities of \(gameIds.joined(separator: ", "))") {
      connection in
      var texts: [String] = []
      for try await text in try await connection.query(
        """
        SELECT json::text FROM devices WHERE kind = 'apns-liveactivity' AND json->>'gameId' = ANY(\(gameIds))
          AND id > \(after ?? "") ORDER BY id LIMIT \(limit)
        """, logger: logger
      ).decode(String.self) {
        texts.append(text)
      }
      return texts
    }
    return try texts.map(Self.device)
  }

  public func deviceCounts() async throws -> [Device.Kind: Int] {
    try await perform("cannot count the devices") { connection in
      var counts: [Device.Kind: Int] = [:]
      for try await (kind, count) in try await connection.query(
        "SELECT kind, count(*)::int FROM devices GROUP BY kind", logger: logger
      ).decode((String, Int).self) {
        if let kind = Device.Kind(rawValue: kind) { counts[kind] = count }
      }
      return counts
    }
  }

  static func deviceJSON(_ device: Device) throws(StatlineError) -> String {
    do {
      return String(decoding: try JSONEncoder().encode(device), as: UTF8.self)
    } catch {
      throw StatlineError(.store, "a device cannot be encoded: \(error)", location: "devices")
    }
  }

  static func device(_ text: String) throws(StatlineError) -> Device {
    do {
      return try JSONDecoder().decode(Device.self, from: Data(text.utf8))
    } catch {
      throw StatlineError(
        .store, "a stored device does not decode: \(error)", location: "devices",
        hint: "the database may come from another Statline")
    }
  }
}
