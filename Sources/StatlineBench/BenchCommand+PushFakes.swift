import ArgumentParser
import Foundation
import StatlineCLI
import StatlineLoopback
import StatlinePush

extension BenchCommand {
  /// The loopback APNs and FCM together, for a check whose workers run in other processes
  /// (`scripts/cluster-check`): each on its own port with certificates made at start, a signing
  /// key and a service account made for them, and one log of every push they accept
  /// (`LoopbackPushLog`), from which the check counts deliveries.
  struct PushFakes: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "push-fakes",
      abstract:
        "Run the loopback APNs and FCM with a log of what they accept, and write the push: configuration that sends to them."
    )

    @Option(
      help: ArgumentHelp(
        "Where to write push.yml (the push: block), the key, the service account, the CAs and push.log.",
        valueName: "folder"))
    var folder: String

    @Option(help: "The topic (bundle id) APNs allows.")
    var topic = "com.example.scores"

    @Option(help: "The Firebase project FCM serves.")
    var project = "example-scores"

    @Option(help: "The senders' deadline per request, as push.yml sets it (`timeout`).")
    var timeout = "10s"

    func run() async throws {
      let folder = URL(fileURLWithPath: folder)
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let log = try LoopbackPushLog(path: folder.appendingPathComponent("push.log").path)
      let key = APNsSigningKey(generatedWithKeyId: "CLUSTER123", teamId: "TEAM123456")
      let apns = try await LoopbackAPNs.start(
        keys: [key.keyId: (key.teamId, key.publicKeyPEM)], topics: [topic], keepsAccepted: false, log: log)
      let fcm = try await LoopbackFCM.start(accounts: [:], project: project, keepsAccepted: false, log: log)
      func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
      }
      let keyFile = try file("AuthKey_\(key.keyId).p8", key.privateKeyPEM)
      let account = try file(
        "service-account.json",
        String(decoding: try fcm.newServiceAccount(email: "push@\(project).iam.gserviceaccount.com"), as: UTF8.self))
      let apnsCA = try file("apns-ca.pem", apns.certificates.authorityPEM)
      let fcmCA = try file("fcm-ca.pem", fcm.certificates.authorityPEM)
      _ = try file(
        "push.yml",
        """
        push:
          apns: {keyFile: \(keyFile), keyId: \(key.keyId), teamId: \(key.teamId), production: \(apns.baseURL), sandbox: \(apns.baseURL), trustRoots: \(apnsCA), timeout: \(timeout)}
          fcm: {serviceAccountFile: \(account), baseURL: \(fcm.baseURL), trustRoots: \(fcmCA), timeout: \(timeout)}

        """)
      Console.error(
        "statline bench push-fakes: APNs on \(apns.baseURL), FCM on \(fcm.baseURL); \(folder.path)/push.yml")
      await BenchCommand.untilTerminated()
      Console.error(
        "statline bench push-fakes: \(apns.acceptedCount) APNs pushes and \(fcm.acceptedCount) FCM messages accepted")
      await apns.stop()
      await fcm.stop()
      log.close()
    }
  }

  /// Returns on SIGTERM or SIGINT (a fake run until the script that started it is done).
  static func untilTerminated() async {
    let (stop, continuation) = AsyncStream<Void>.makeStream()
    let sources = [SIGTERM, SIGINT].map { signal in
      Foundation.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal)
      source.setEventHandler { continuation.finish() }
      source.resume()
      return source
    }
    for await _ in stop {}
    for source in sources { source.cancel() }
  }
}
