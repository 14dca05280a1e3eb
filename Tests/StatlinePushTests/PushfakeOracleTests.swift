import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineTesting
import Testing

/// Statline's APNs sender against `../shared/tools/pushfake`, an APNs written apart from ours (Python,
/// its own HTTP/2, TLS and JWT code): a mistake the sender shares with `LoopbackAPNs` (a DER
/// signature, a string `iat`, a missing topic suffix) still fails here. What the fake accepted is
/// read back from its own log.
@Suite(.serialized, .enabled(if: Pushfake.enabled), .timeLimit(.minutes(2))) struct PushfakeOracleTests {
  static let key = APNsSigningKey(generatedWithKeyId: "KEY4567890", teamId: "TEAMABCDEF")
  static let topic = "com.example.scores"

  struct Rig {
    let fake: Pushfake
    let sender: APNsSender
    let control: HTTPClient

    func stop() async {
      await sender.connections.shutdown()
      try? await control.shutdown()
      fake.stop()
    }

    /// The fake's log of accepted APNs requests.
    func log() async throws -> [[String: Any]] {
      let response = try await control.execute(
        HTTPClientRequest(url: fake.baseURL + "/_control/log?api=apns"), timeout: .seconds(10))
      let body = try await response.body.collect(upTo: 16 << 20)
      let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
      return object?["entries"] as? [[String: Any]] ?? []
    }

    func script(_ fields: [String: Any]) async throws {
      var request = HTTPClientRequest(url: fake.baseURL + "/_control/script")
      request.method = .POST
      request.headers.add(name: "content-type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: fields)))
      let response = try await control.execute(request, timeout: .seconds(10))
      #expect(response.status == .ok)
    }
  }

  static func rig() async throws -> Rig {
    let fake = try Pushfake(apnsKeys: [(key.keyId, key.teamId, key.publicKeyPEM)], topics: [topic])
    let authority = try NIOSSLCertificate(bytes: Array(fake.authorityPEM.utf8), format: .pem)
    let connections = APNsConnections(
      endpoints: .init(production: fake.baseURL, sandbox: fake.baseURL), perEnvironment: 1, trustRoots: [authority])
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .certificates([authority])
    let control = HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    let sender = APNsSender(
      tokens: APNsProviderTokens(key: key, now: { Date() }), connections: connections, now: { Date() })
    return Rig(fake: fake, sender: sender, control: control)
  }

  static func device(_ kind: Device.Kind, _ fill: Character) -> Device {
    Device(
      id: "dev_\(fill)", kind: kind, token: String(repeating: fill, count: 64), environment: .production,
      topic: topic, teams: ["team:193"], gameId: kind == .apnsLiveActivity ? "game:1" : nil, registeredAt: "x",
      updatedAt: "x")
  }

  static func game(final: Bool) -> Game {
    Game(
      id: "game:1", sport: .lacrosseMen, status: final ? .final : .live, period: 2, periodLabel: "2nd",
      clock: final ? nil : "04:06", away: TeamLine(team: TeamRef(id: "team:193", name: "Duke"), score: 5),
      home: TeamLine(team: TeamRef(id: "team:457", name: "North Carolina"), score: 4))
  }

  @Test func anAlertAndALiveActivityUpdateAndEndAreAcceptedAsSent() async throws {
    let rig = try await Self.rig()
    let now = Date()
    let phone = Self.device(.apns, "a")
    let alert = PlannedAlert(
      deviceId: phone.id, eventId: "evt_7", kind: .score, body: "GOAL Duke 5, North Carolina 4 · 2nd 04:06",
      threadId: "game:1", collapseId: "game:1", expiresAt: now.addingTimeInterval(300), silent: false,
      data: ["gameId": "game:1", "sport": "lacrosse-men", "eventId": "evt_7"])
    let activity = Self.device(.apnsLiveActivity, "b")
    let pushes = [
      APNsPush.alert(alert, to: phone, id: UUID()),
      APNsPush.liveActivity(
        LiveActivityState(game: Self.game(final: false)), ending: false, to: activity, at: now,
        staleDate: now.addingTimeInterval(60), relevance: 75, priority: 10, expiresAt: now.addingTimeInterval(300),
        id: UUID()),
      APNsPush.liveActivity(
        LiveActivityState(game: Self.game(final: true)), ending: true, to: activity, at: now.addingTimeInterval(1),
        staleDate: now.addingTimeInterval(60), dismissalDate: now.addingTimeInterval(3600), relevance: 50,
        priority: 10, expiresAt: now.addingTimeInterval(3600), id: UUID()),
    ]
    for push in pushes {
      let outcome = await rig.sender.send(push)
      #expect(outcome.action == .accepted(apnsId: push.id.uuidString.lowercased()), "\(outcome)")
    }
    let log = try await rig.log()
    #expect(log.count == 3)
    for (entry, push) in zip(log, pushes) {
      let headers = try #require(entry["headers"] as? [String: Any])
      #expect(entry["http_version"] as? String == "2")
      #expect(headers["apns-topic"] as? String == push.topic)
      #expect(headers["apns-push-type"] as? String == push.pushType.rawValue)
      #expect(headers["apns-id"] as? String == push.id.uuidString.lowercased())
      let jwt = try #require(entry["jwt"] as? [String: Any])
      #expect(jwt["kid"] as? String == "KEY4567890" && jwt["iat"] is Int)
      let sent = try JSONSerialization.jsonObject(with: push.payload) as? NSDictionary
      #expect((entry["payload"] as? NSDictionary) == sent, "the payload the fake decoded is the one sent")
    }
    let ended = try #require((log[2]["payload"] as? [String: Any])?["aps"] as? [String: Any])
    #expect(ended["event"] as? String == "end" && ended["dismissal-date"] is Int)
    #expect((ended["content-state"] as? [String: Any])?["line"] as? String == "Duke 5, North Carolina 4 · Final")
    await rig.stop()
  }

  /// A game's broadcast channel through the fake's management API and broadcast endpoint:
  /// opened (a 201 with `apns-channel-id`), one update to every subscriber (the fake accepts it
  /// on the channel, with an expiration a stored-message channel allows), deleted (204), and a
  /// broadcast to the deleted channel refused as `ChannelNotRegistered`, which the matrix sets
  /// aside.
  @Test func aBroadcastChannelIsOpenedUsedAndDeleted() async throws {
    let rig = try await Self.rig()
    let channels = APNsChannels(tokens: rig.sender.tokens, connections: rig.sender.connections, storage: .latest)
    let opened = try await channels.open(topic: Self.topic, environment: .production)
    #expect(!opened.isEmpty)
    let channel = Device.channel(
      gameId: "game:1", topic: Self.topic, environment: .production, channelId: opened, at: "2026-03-07T17:00:00Z")
    let now = Date()
    let push = APNsPush.liveActivity(
      LiveActivityState(game: Self.game(final: false)), ending: false, to: channel, at: now,
      staleDate: now.addingTimeInterval(45), relevance: 50, priority: 10, expiresAt: now.addingTimeInterval(45),
      id: UUID())
    #expect(push.path == "/4/broadcasts/apps/\(Self.topic)")
    #expect((await rig.sender.send(push)).action.isAccepted)
    let response = try await rig.control.execute(
      HTTPClientRequest(url: rig.fake.baseURL + "/_control/log?api=broadcast"), timeout: .seconds(10))
    let body = try await response.body.collect(upTo: 1 << 20)
    let entries =
      (try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any])?["entries"]
      as? [[String: Any]] ?? []
    let headers = try #require(entries.last?["headers"] as? [String: Any])
    #expect(headers["apns-channel-id"] as? String == opened && headers["apns-push-type"] as? String == "liveactivity")
    try await channels.close(opened, topic: Self.topic, environment: .production)
    let refused = await rig.sender.send(push)
    #expect(refused.answer?.reason == .channelNotRegistered)
    if case .quarantine = refused.action {} else { Issue.record("\(refused.action)") }
    await rig.stop()
  }

  @Test func theFakesScriptedAnswersMeanWhatTheMatrixSays() async throws {
    let rig = try await Self.rig()
    let phone = Self.device(.apns, "c")
    let stamp: Int64 = 1_772_899_000_000
    try await rig.script(["target": phone.token, "status": 410, "reason": "Unregistered", "timestamp": stamp])
    try await rig.script(["target": phone.token, "status": 429, "reason": "TooManyRequests"])
    try await rig.script(["target": phone.token, "status": 503, "reason": "ServiceUnavailable"])
    let alert = PlannedAlert(
      deviceId: phone.id, eventId: "evt_8", kind: .final, body: "Duke 5, North Carolina 4 · Final",
      threadId: "game:1", collapseId: "game:1", expiresAt: Date().addingTimeInterval(3600), silent: true, data: [:])
    var actions: [APNsAnswer.Action] = []
    for _ in 0..<4 { actions.append(await rig.sender.send(APNsPush.alert(alert, to: phone, id: UUID())).action) }
    #expect(actions[0] == .disable(since: Date(timeIntervalSince1970: Double(stamp) / 1000)))
    #expect(actions[1] == .backOffDevice && actions[2] == .retryUntilExpiry && actions[3].isAccepted)
    let headers = try #require(try await rig.log().last?["headers"] as? [String: Any])
    #expect(headers["apns-priority"] as? String == "5", "a quiet-hours final goes silently, at priority 5")
    await rig.stop()
  }
}
