import StatlineCore

/// The memory store's devices (`DeviceRegistry`): a dictionary and a team index; and its push
/// outbox (`MemoryDeviceRegistry+Outbox`).
public actor MemoryDeviceRegistry: DeviceRegistry {
  private var byId: [String: Device] = [:]
  private var byTeam: [String: Set<String>] = [:]
  var slots: [OutboxSlot.Key: OutboxSlot] = [:]
  var cursors: [OutboxFeed: OutboxCursor] = [:]

  public init() {}

  public func upsertDevice(_ device: Device) -> DeviceUpsert {
    var stored = device
    let previous = byId[device.id]
    if let previous {
      stored.registeredAt = previous.registeredAt
      for team in previous.teams { byTeam[team]?.remove(device.id) }
    }
    byId[device.id] = stored
    for team in stored.teams { byTeam[team, default: []].insert(device.id) }
    return DeviceUpsert(device: stored, created: previous == nil)
  }

  public func device(id: String) -> Device? { byId[id] }

  public func devices(ids: [String]) -> [Device] { Set(ids).compactMap { byId[$0] } }

  public func deleteDevice(id: String) -> Bool {
    guard let previous = byId.removeValue(forKey: id) else { return false }
    for team in previous.teams { byTeam[team]?.remove(id) }
    slots = slots.filter { $0.key.deviceId != id }
    return true
  }

  public func devices(following teams: [String], after: String?, limit: Int) -> [Device] {
    var ids: Set<String> = []
    for team in teams { ids.formUnion(byTeam[team] ?? []) }
    return ids.filter { id in after.map { id > $0 } ?? true }.sorted().prefix(max(limit, 0)).compactMap { byId[$0] }
  }

  public func devices(watching gameIds: [String], after: String?, limit: Int) -> [Device] {
    let games = Set(gameIds)
    return byId.values.filter { device in
      device.kind == .apnsLiveActivity && device.gameId.map(games.contains) == true
        && (after.map { device.id > $0 } ?? true)
    }.sorted { $0.id < $1.id }.prefix(max(limit, 0)).map { $0 }
  }

  public func suspendedCounts() -> [Device.Suspension.Kind: Int] {
    byId.values.reduce(into: [:]) { counts, device in
      if let kind = device.suspended?.kind { counts[kind, default: 0] += 1 }
    }
  }

  public func suspendedDevices(after: String?, limit: Int) -> [Device] {
    byId.values.filter { device in !device.isLive && (after.map { device.id > $0 } ?? true) }.sorted { $0.id < $1.id }
      .prefix(max(limit, 0)).map { $0 }
  }

  public func suspendDevice(id: String, _ suspension: Device.Suspension) -> Device? {
    guard let suspended = byId[id]?.suspending(suspension) else { return nil }
    byId[id] = suspended
    return suspended
  }

  public func deviceCounts() -> [Device.Kind: Int] {
    byId.values.reduce(into: [:]) { counts, device in counts[device.kind, default: 0] += 1 }
  }
}
