import Foundation
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// `/v1/status` tells the operator how the push path stands, from the store: devices by kind,
/// the disabled and quarantined ones, and the outbox's pending, leased and backing-off alerts;
/// and says null where it was not given the devices.
@Suite struct PushStatusAPITests {
  @Test func theStatusCountsDevicesByKindAndStateAndTheOutbox() async throws {
    let (path, _) = try await ReadAPITests.store()
    let registry = try SQLiteDeviceRegistry(path: path)
    var ids: [String] = []
    for (index, kind) in [Device.Kind.apns, .apns, .apns, .fcm].enumerated() {
      let token = String(format: "%064x", index + 1)
      ids.append(
        try await registry.upsertDevice(
          Device(
            id: Device.id(kind: kind, token: token), kind: kind, token: token, environment: .production,
            topic: "com.example.scores", teams: ["team:193"], registeredAt: "2026-03-01T00:00:00Z",
            updatedAt: "2026-03-01T00:00:00Z")
        ).device.id)
    }
    _ = try await registry.suspendDevice(id: ids[0], .init(kind: .disabled, why: "410", since: "2026-03-02T00:00:00Z"))
    _ = try await registry.suspendDevice(id: ids[1], .init(kind: .quarantined, why: "BadDeviceToken", since: "x"))
    let now = ReadAPITests.now
    let alerts = ids.suffix(2).map { id in
      QueuedAlert(
        PlannedAlert(
          deviceId: id, eventId: "evt_1", kind: .score, body: "GOAL", threadId: "g", collapseId: "g",
          expiresAt: now.addingTimeInterval(300), silent: false, data: [:]), sequence: 1)
    }
    _ = try await registry.enqueueAlerts(alerts, from: .start, to: .init(sequence: 1), cap: 12, in: .events)
    _ = try await registry.claimAlerts(limit: 1, at: now, leaseUntil: now.addingTimeInterval(60))

    var configuration = ReadAPI.Configuration()
    configuration.push = registry
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), configuration: configuration, now: { now })
    let status = await api.respond(APIRequest(method: "GET", path: "/v1/status"))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
    let push = try #require(json["push"] as? [String: Any], "\(json)")
    #expect(push["devices"] as? [String: Int] == ["apns": 3, "apns-liveactivity": 0, "fcm": 1, "apns-channel": 0])
    #expect(push["disabled"] as? Int == 1 && push["quarantined"] as? Int == 1)
    #expect(push["pending"] as? Int == 2 && push["leased"] as? Int == 1 && push["backingOff"] as? Int == 0)
    #expect(!String(decoding: status.body, as: UTF8.self).contains(String(format: "%064x", 1)), "no token")
    // The suspended devices are listed with why, their tokens by the last 8 characters.
    let suspended = try #require(push["suspended"] as? [[String: String]])
    #expect(Set(suspended.map { $0["id"] ?? "" }) == Set(ids.prefix(2)))
    let bad = try #require(suspended.first { $0["state"] == "quarantined" })
    #expect(bad["why"] == "BadDeviceToken" && bad["token"] == "…00000002" && bad["kind"] == "apns")

    let without = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), now: { now })
    let plain = await without.respond(APIRequest(method: "GET", path: "/v1/status"))
    let answer = try #require(try JSONSerialization.jsonObject(with: Data(plain.body)) as? [String: Any])
    #expect(answer["push"] is NSNull)
  }
}
