import Foundation
import StatlineApp
import StatlineCanonical
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineSQLite
import StatlineServer

/// The demo's phones: a loopback APNs and a loopback FCM (on the demo's clock), the key, service
/// account and CAs the job is given for them, five devices registered as an app would send them
/// (a Navy fan who wants every goal, a Kentucky fan on the basketball defaults, a North Carolina
/// fan whose quiet hours last all day, a Duke fan on Android, and a Live Activity on the
/// overtime game), each game's broadcast channel, and at the end what each phone received.
struct DemoPhones {
  static let topic = "com.example.scores"
  let fake: LoopbackAPNs
  let fcm: LoopbackFCM
  let folder: URL
  let key: APNsSigningKey

  /// The devices, as an app registers them (`POST /v1/devices` bodies).
  struct Phone {
    var name: String
    var token: String
    var fields: String
    var kind = "apns"

    var body: String { #"{"kind":"\#(kind)","token":"\#(token)","topic":"com.example.scores",\#(fields)}"# }
  }

  static let phones = [
    Phone(
      name: "Navy fan (every goal)", token: String(repeating: "a1", count: 32),
      fields: #""teams":["Navy"],"alerts":["gameStart","score","leadChange","periodEnd","final","closeGame"]"#),
    Phone(
      name: "Kentucky fan (basketball defaults)", token: String(repeating: "b2", count: 32),
      fields: #""teams":["Kentucky"]"#),
    Phone(
      name: "North Carolina fan (quiet all day)", token: String(repeating: "c3", count: 32),
      fields: #""teams":["North Carolina"],"quietHours":{"start":"00:00","end":"23:59","timeZone":"America/New_York"}"#),
    Phone(
      name: "Duke fan on Android (FCM)", token: "demo-android-duke:APA91b" + String(repeating: "e5", count: 20),
      fields: #""teams":["Duke"],"alerts":["score","final"]"#, kind: "fcm"),
    Phone(
      name: "Live Activity on Duke at North Carolina (the overtime game)", token: String(repeating: "d4", count: 32),
      fields: #""gameId":"game:2026-03-07:lacrosse-men:193~457""#, kind: "apns-liveactivity"),
  ]

  static func start(now: @escaping @Sendable () -> Date) async throws -> DemoPhones {
    let key = APNsSigningKey(generatedWithKeyId: "DEMO123456", teamId: "TEAM123456")
    let fake = try await LoopbackAPNs.start(
      keys: [key.keyId: (key.teamId, key.publicKeyPEM)], topics: [topic], now: now)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-demo-apns-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try key.privateKeyPEM.write(to: folder.appendingPathComponent("AuthKey.p8"), atomically: true, encoding: .utf8)
    try fake.certificates.authorityPEM.write(
      to: folder.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
    let fcm = try await LoopbackFCM.start(accounts: [:], project: "statline-demo", now: now)
    try fcm.newServiceAccount(email: "push@statline-demo.iam.gserviceaccount.com").write(
      to: folder.appendingPathComponent("firebase-service-account.json"))
    try fcm.certificates.authorityPEM.write(
      to: folder.appendingPathComponent("fcm-ca.pem"), atomically: true, encoding: .utf8)
    return DemoPhones(fake: fake, fcm: fcm, folder: folder, key: key)
  }

  /// `push:` for the job: the fake for both environments, its CA trusted.
  var settings: PushSettings {
    var apns = PushSettings.APNs(
      keyFile: folder.appendingPathComponent("AuthKey.p8").path, keyId: key.keyId, teamId: key.teamId)
    apns.production = fake.baseURL
    apns.sandbox = fake.baseURL
    apns.trustRoots = folder.appendingPathComponent("ca.pem").path
    apns.connections = 1
    // Each game's broadcast channel on the same fake (its management API is served there too).
    var broadcast = PushSettings.Broadcast(topic: Self.topic)
    broadcast.production = fake.baseURL
    broadcast.sandbox = fake.baseURL
    apns.broadcast = broadcast
    var settings = PushSettings()
    settings.apns = apns
    var fcm = PushSettings.FCM(serviceAccountFile: folder.appendingPathComponent("firebase-service-account.json").path)
    fcm.baseURL = self.fcm.baseURL
    fcm.trustRoots = folder.appendingPathComponent("fcm-ca.pem").path
    fcm.connections = 1
    settings.fcm = fcm
    return settings
  }

  /// Registers the phones in the store, decoded as the device API decodes them.
  func register(store path: String, at time: Date) async throws {
    let registry = try SQLiteDeviceRegistry(path: path)
    let teams = try BuiltinPlugins.teamRegistry()
    for phone in Self.phones {
      _ = try await registry.upsertDevice(DeviceInput.device(from: Data(phone.body.utf8), teams: teams, at: time))
    }
  }

  /// What each phone received, in order, as the fake accepted it.
  func report() -> String {
    let accepted = fake.accepted
    var lines = ["Phones (pushes accepted by the loopback APNs and FCM):"]
    for phone in Self.phones {
      if phone.kind == "fcm" {
        lines += android(phone)
        continue
      }
      let received = accepted.filter { $0.deviceToken == phone.token }
      lines.append("  \(phone.name): \(received.count) push\(received.count == 1 ? "" : "es")")
      for push in received.suffix(6) {
        let aps = push.payload["aps"] as? [String: any Sendable]
        if let state = aps?["content-state"] as? [String: any Sendable] {
          // A Live Activity: what its lock-screen card shows, and how the push was sent.
          let event = aps?["event"] as? String ?? "?"
          lines.append(
            "    [\(event), priority \(push.headers["apns-priority"] ?? "10")] \(state["line"] as? String ?? "?")")
          continue
        }
        let body = (aps?["alert"] as? [String: any Sendable])?["body"] as? String ?? "?"
        lines.append("    \(aps?["sound"] == nil ? "(silent) " : "")\(body)")
      }
      if received.count > 6 { lines.append("    … and \(received.count - 6) before") }
    }
    let broadcasts = accepted.filter { $0.headers["apns-channel-id"] != nil }
    let closed = fake.closedChannels
    lines.append(
      "  Broadcast channels (one per game, iOS 18): \(closed.count + fake.openChannels.count) opened, "
        + "\(broadcasts.count) broadcasts, \(closed.count) deleted after their final")
    return lines.joined(separator: "\n")
  }

  /// What an Android phone received through FCM.
  func android(_ phone: Phone) -> [String] {
    let received = fcm.accepted.filter { $0.target == phone.token }
    var lines = ["  \(phone.name): \(received.count) message\(received.count == 1 ? "" : "s")"]
    for message in received.suffix(6) {
      let body = (message.message["notification"] as? [String: any Sendable])?["body"] as? String ?? "?"
      let android = message.message["android"] as? [String: any Sendable]
      lines.append("    \(android?["priority"] as? String == "NORMAL" ? "(silent) " : "")\(body)")
    }
    if received.count > 6 { lines.append("    … and \(received.count - 6) before") }
    return lines
  }

  func stop() async {
    await fake.stop()
    await fcm.stop()
    try? FileManager.default.removeItem(at: folder)
  }
}
