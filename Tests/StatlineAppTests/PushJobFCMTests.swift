import Foundation
import StatlineCore
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

/// `statline run` with both senders configured: the demo's game day makes goals, and each fan
/// gets their team's alerts on the phone they have — iPhones through the loopback APNs, Android
/// phones (a registration token, and an installation id) through the loopback FCM, whose OAuth
/// endpoint checked the service account's RS256 assertion; a SIGKILL mid-run and a restart
/// repeat only what was in flight. Counted from the fakes' records.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PushJobFCMTests {
  @Test func iPhoneAndAndroidFansGetTheirTeamsAlertsThroughAPNsAndFCM() async throws {
    let fcm = try await LoopbackFCM.start(accounts: [:], project: "example-scores")
    let folder = try JobCommandTests.folder()
    let account = folder.appendingPathComponent("firebase-service-account.json")
    try fcm.newServiceAccount(email: "push@example-scores.iam.gserviceaccount.com").write(to: account)
    let roots = folder.appendingPathComponent("loopback-fcm-ca.pem")
    try fcm.certificates.authorityPEM.write(to: roots, atomically: true, encoding: .utf8)
    let setup = try await PushJobTests.day(
      inFlight: 8,
      pushExtra: """
          fcm:
            serviceAccountFile: \(account.path)
            baseURL: \(fcm.baseURL)
            trustRoots: \(roots.path)
            timeout: 2s
        """)
    defer {
      Task {
        await setup.stop()
        await fcm.stop()
      }
    }
    let check = try CommandRunner.run(["check", "--config", setup.config.path])
    #expect(
      check.status == 0 && check.stdout.contains("Push: FCM project example-scores as push@example-scores"),
      "\(check.stdout)\(check.stderr)")
    #expect(!check.stdout.contains("PRIVATE KEY") && check.stdout.contains("nothing sent"))

    let once = try CommandRunner.run(["once", "--config", setup.config.path])
    #expect(once.status == 0, "\(once.stdout)\(once.stderr)")
    let storePath = setup.folder.appendingPathComponent("store.sqlite").path
    let games = try await SQLiteStore(path: storePath).games(sport: nil, date: nil).filter { $0.id.hasPrefix("game:") }
    let teams = Set(games.flatMap { [$0.away.team.id, $0.home.team.id] }.compactMap { $0 }).sorted()
    try #require(teams.count >= 4)
    let registry = try SQLiteDeviceRegistry(path: storePath)
    var following: [String: String] = [:]
    for (index, team) in teams.enumerated() {
      let apns = String(format: "%064x", index + 1)
      let android = "fcm-\(index)-" + String(repeating: "a", count: 40)
      following[apns] = team
      following[android] = team
      for (kind, token) in [(Device.Kind.apns, apns), (.fcm, android)] {
        _ = try await registry.upsertDevice(
          Device(
            id: Device.id(kind: kind, token: token), kind: kind, token: token, environment: .production,
            topic: PushJobTests.topic, teams: [team], alerts: Device.Alert.allCases,
            registeredAt: "2026-03-01T00:00:00Z", updatedAt: "2026-03-01T00:00:00Z",
            tokenType: kind == .fcm ? (index % 2 == 0 ? .registration : .installation) : nil))
      }
    }

    // Run with every log line kept: no key, access token or whole device token may be in one.
    let logFile = setup.folder.appendingPathComponent("run.log")
    _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
    let log = try FileHandle(forWritingTo: logFile)
    func start() throws -> Process {
      let run = Process()
      run.executableURL = CommandRunner.executable
      run.arguments = ["run", "--config", setup.config.path, "--log-level", "debug"]
      run.standardError = log
      run.standardOutput = FileHandle.nullDevice
      try run.run()
      return run
    }
    // SIGKILL once the first messages are in, start again, stop cleanly.
    let first = try start()
    try await PushJobTests.waitFor { fcm.accepted.count >= 3 && setup.apns.accepted.count >= 3 }
    kill(first.processIdentifier, SIGKILL)
    await PushJobTests.exit(first)
    let atKill = fcm.accepted.count
    let run = try start()
    try await PushJobTests.waitFor { fcm.accepted.count >= atKill + 3 && setup.apns.accepted.count >= 6 }
    kill(run.processIdentifier, SIGTERM)
    await PushJobTests.exit(run)
    #expect(run.terminationStatus == 0)
    // The kill repeats only what was in flight or answered and not yet written back (inFlight 8),
    // and nothing went after its alert expired (FCM was given a ttl of at least a second).
    let pairs = fcm.accepted.map {
      "\($0.target)|\(($0.message["data"] as? [String: any Sendable])?["eventId"] as? String ?? "")"
    }
    #expect(pairs.count - Set(pairs).count <= 8, "repeats after the SIGKILL: \(pairs.count - Set(pairs).count)")
    for message in fcm.accepted {
      let ttl = (message.message["android"] as? [String: any Sendable])?["ttl"] as? String ?? "0s"
      #expect((Int(ttl.dropLast()) ?? 0) >= 1, "sent with life left: \(ttl)")
    }

    let byGame = Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) })
    for message in fcm.accepted {
      let data = try #require(message.message["data"] as? [String: any Sendable])
      let game = try #require(byGame[data["gameId"] as? String ?? ""], "a message names a stored game")
      let team = try #require(following[message.target])
      #expect([game.away.team.id, game.home.team.id].contains(team))
      let index = Int(message.target.split(separator: "-")[1])!
      #expect(message.targetField == (index % 2 == 0 ? "token" : "fid"))
      let android = try #require(message.message["android"] as? [String: any Sendable])
      #expect(
        android["collapse_key"] as? String == (android["notification"] as? [String: any Sendable])?["tag"] as? String)
      #expect((android["ttl"] as? String)?.hasSuffix("s") == true)
    }
    #expect(fcm.accessTokensIssued == 2, "one access token per run, shared by every message")
    let logged = try String(contentsOf: logFile, encoding: .utf8)
    #expect(logged.contains("statline"), "the run logged")
    let serviceAccount = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: account)) as? [String: String])
    let keyLines = (serviceAccount["private_key"] ?? "").split(separator: "\n").filter { $0.count > 40 }
    #expect(!keyLines.isEmpty && keyLines.allSatisfy { !logged.contains($0) }, "the service account's key")
    #expect(!fcm.accessTokens.isEmpty && fcm.accessTokens.allSatisfy { !logged.contains($0) }, "an access token")
    #expect(following.keys.allSatisfy { !logged.contains($0) }, "a whole device token")
    #expect(fcm.rejected.isEmpty, "\(fcm.rejected)")
    // The same events reach both phones of a team.
    let androidEvents = Set(
      fcm.accepted.compactMap { ($0.message["data"] as? [String: any Sendable])?["eventId"] as? String })
    let iPhoneEvents = Set(setup.apns.accepted.compactMap { $0.payload["eventId"] as? String })
    #expect(!androidEvents.isDisjoint(with: iPhoneEvents))
  }
}
