import Foundation
import StatlineApp
import StatlineLoopback
import StatlinePush

/// The loopback APNs and FCM together, sharing one `LoopbackPushLog`, with what a sender needs
/// to reach them written into a folder: a signing key the APNs knows, a service account the FCM
/// knows, and the two CAs. `settings` are the `push:` settings that send to them, `yaml` the
/// same as a configuration file's block. Used by `bench push-fakes` (for workers in other
/// processes) and `bench latency` (in its own).
struct LoopbackPushPair {
  let apns: LoopbackAPNs
  let fcm: LoopbackFCM
  let log: LoopbackPushLog
  let logPath: String
  let settings: PushSettings

  static func start(folder: URL, topic: String = "com.example.scores", project: String = "example-scores")
    async throws -> LoopbackPushPair
  {
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let logPath = folder.appendingPathComponent("push.log").path
    let log = try LoopbackPushLog(path: logPath)
    let key = APNsSigningKey(generatedWithKeyId: "LOOPBACK12", teamId: "TEAM123456")
    let apns = try await LoopbackAPNs.start(
      keys: [key.keyId: (key.teamId, key.publicKeyPEM)], topics: [topic], keepsAccepted: false, log: log)
    let fcm = try await LoopbackFCM.start(accounts: [:], project: project, keepsAccepted: false, log: log)
    func file(_ name: String, _ text: String) throws -> String {
      let url = folder.appendingPathComponent(name)
      try text.write(to: url, atomically: true, encoding: .utf8)
      return url.path
    }
    var settings = PushSettings()
    var apple = PushSettings.APNs(
      keyFile: try file("AuthKey_\(key.keyId).p8", key.privateKeyPEM), keyId: key.keyId, teamId: key.teamId)
    (apple.production, apple.sandbox) = (apns.baseURL, apns.baseURL)
    apple.trustRoots = try file("apns-ca.pem", apns.certificates.authorityPEM)
    settings.apns = apple
    let account = try fcm.newServiceAccount(email: "push@\(project).iam.gserviceaccount.com")
    var google = PushSettings.FCM(
      serviceAccountFile: try file("service-account.json", String(decoding: account, as: UTF8.self)))
    google.baseURL = fcm.baseURL
    google.trustRoots = try file("fcm-ca.pem", fcm.certificates.authorityPEM)
    settings.fcm = google
    return LoopbackPushPair(apns: apns, fcm: fcm, log: log, logPath: logPath, settings: settings)
  }

  /// The `push:` block of a configuration file that sends to the pair, each request's deadline
  /// `timeout` (`10s`).
  func yaml(timeout: String) -> String {
    guard let apple = settings.apns, let google = settings.fcm else { return "" }
    return """
      push:
        apns: {keyFile: \(apple.keyFile), keyId: \(apple.keyId), teamId: \(apple.teamId), production: \(apple.production), sandbox: \(apple.sandbox), trustRoots: \(apple.trustRoots ?? ""), timeout: \(timeout)}
        fcm: {serviceAccountFile: \(google.serviceAccountFile), baseURL: \(google.baseURL), trustRoots: \(google.trustRoots ?? ""), timeout: \(timeout)}

      """
  }

  func stop() async {
    await apns.stop()
    await fcm.stop()
    log.close()
  }
}
