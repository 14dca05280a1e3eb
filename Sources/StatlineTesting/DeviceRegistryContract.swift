import StatlineCore
import Testing

/// What every store does with devices (architecture.md#devices): an upsert keeps the first
/// `registeredAt`, a changed team list moves the device in the team index, the followers of two
/// teams come in id order, paged, each once, and a delete takes the device out of every team.
public enum DeviceRegistryContract {
  public static func device(
    _ token: String, teams: [String], kind: Device.Kind = .apns, at time: String = "2026-03-07T12:00:00Z"
  ) -> Device {
    Device(
      id: Device.id(kind: kind, token: token), kind: kind, token: token, environment: .production,
      topic: "com.example.scores", teams: teams, alerts: [.score, .final],
      quietHours: Device.QuietHours(start: "22:00", end: "07:00", timeZone: "America/New_York"), registeredAt: time,
      updatedAt: time)
  }

  public static func check(
    _ make: () async throws -> any DeviceRegistry, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let registry = try await make()
    let duke = "team:193"
    let unc = "team:457"
    let army = "team:725"
    let first = device(String(repeating: "a", count: 64), teams: [duke])
    let created = try await registry.upsertDevice(first)
    #expect(created.created && created.device == first, sourceLocation: sourceLocation)
    #expect(try await registry.device(id: first.id) == first, "read back whole", sourceLocation: sourceLocation)

    // Registered again later with another team: the same device, its first registration kept.
    var again = device(String(repeating: "a", count: 64), teams: [unc, army], at: "2026-03-08T09:00:00Z")
    again.alerts = nil
    let updated = try await registry.upsertDevice(again)
    #expect(!updated.created, sourceLocation: sourceLocation)
    #expect(updated.device.registeredAt == first.registeredAt, sourceLocation: sourceLocation)
    #expect(
      updated.device.updatedAt == "2026-03-08T09:00:00Z" && updated.device.alerts == nil, sourceLocation: sourceLocation
    )
    #expect(try await registry.device(id: first.id) == updated.device, sourceLocation: sourceLocation)
    #expect(
      try await registry.devices(following: [duke], after: nil, limit: 10).isEmpty, "left Duke",
      sourceLocation: sourceLocation)

    // Followers of either team: each once, in id order, paged.
    var all: [Device] = [updated.device]
    for index in 0..<5 {
      let token = String(repeating: String(index), count: 64)
      all.append(
        try await registry.upsertDevice(device(token, teams: index.isMultiple(of: 2) ? [duke, unc] : [duke])).device)
    }
    let live = try await registry.upsertDevice(device("b1b2", teams: [unc], kind: .apnsLiveActivity)).device
    all.append(live)
    let followers = all.filter { !Set($0.teams).isDisjoint(with: [duke, unc]) }.sorted { $0.id < $1.id }
    #expect(
      try await registry.devices(following: [duke, unc], after: nil, limit: 100).map(\.id) == followers.map(\.id),
      sourceLocation: sourceLocation)
    var paged: [String] = []
    var after: String?
    while true {
      let page = try await registry.devices(following: [duke, unc], after: after, limit: 3)
      paged += page.map(\.id)
      guard page.count == 3 else { break }
      after = page.last?.id
    }
    #expect(paged == followers.map(\.id), "pages in id order, each once", sourceLocation: sourceLocation)
    #expect(
      try await registry.devices(following: ["team:1"], after: nil, limit: 10).isEmpty, sourceLocation: sourceLocation)
    #expect(try await registry.deviceCounts() == [.apns: 6, .apnsLiveActivity: 1], sourceLocation: sourceLocation)

    #expect(
      Set(try await registry.devices(ids: [live.id, first.id, "dev_none", live.id]).map(\.id)) == [live.id, first.id],
      "a batch read by id: those that exist, each once", sourceLocation: sourceLocation)
    #expect(try await registry.devices(ids: []).isEmpty, sourceLocation: sourceLocation)

    // Live Activities by the game they follow (its canonical id or a source's): only those, in
    // id order, paged; an alert device of the same teams is not one.
    var watching: [Device] = []
    for (index, game) in ["game:1", "statbroadcast:9", "game:1", "game:2"].enumerated() {
      var activity = device(String(repeating: "e\(index)", count: 32), teams: [duke], kind: .apnsLiveActivity)
      activity.gameId = game
      watching.append(try await registry.upsertDevice(activity).device)
    }
    let onGame = watching.filter { $0.gameId != "game:2" }.map(\.id).sorted()
    #expect(
      try await registry.devices(watching: ["game:1", "statbroadcast:9"], after: nil, limit: 10).map(\.id) == onGame,
      sourceLocation: sourceLocation)
    #expect(
      try await registry.devices(watching: ["game:1", "statbroadcast:9"], after: onGame[0], limit: 1).map(\.id)
        == [onGame[1]],
      "paged", sourceLocation: sourceLocation)
    #expect(
      try await registry.devices(watching: ["game:3"], after: nil, limit: 10).isEmpty, sourceLocation: sourceLocation)
    for activity in watching { _ = try await registry.deleteDevice(id: activity.id) }

    #expect(try await registry.deleteDevice(id: live.id), sourceLocation: sourceLocation)
    #expect(!(try await registry.deleteDevice(id: live.id)), "gone", sourceLocation: sourceLocation)
    #expect(try await registry.device(id: live.id) == nil, sourceLocation: sourceLocation)
    #expect(
      !(try await registry.devices(following: [unc], after: nil, limit: 100)).contains { $0.id == live.id },
      sourceLocation: sourceLocation)
  }
}
