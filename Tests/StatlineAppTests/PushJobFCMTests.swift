import Foundation
import StatlineCore
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

/// `statline run` with both senders configured: the demo's game day makes goals, and each fan
/// gets their team's alerts on the phone they have — iPhones through the loopback APNs, Android
/// phones (a registration token, and an installation id) through the loopback FCM, whose OAuth
/// endpoint checked the service account's RS256 assertion. Counted from the fakes' records.
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
    let run = Process()
    run.executableURL = CommandRunner.executable
    run.arguments = ["run", "--config", setup.config.path, "--log-level", "debug"]
    run.standardError = try FileHandle(forWritingTo: logFile)
    run.standardOutput = FileHandle.nullDevice
    try run.run()
    try await PushJobTests.waitFor { fcm.accepted.count >= 6 && setup.apns.accepted.count >= 6 }
    kill(run.processIdentifier, SIGTERM)
    await PushJobTests.exit(run)
    #expect(run.terminationStatus == 0)

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
    #expect(fcm.accessTokensIssued == 1, "one access token for the whole run")
    let log = try String(contentsOf: logFile, encoding: .utf8)
    #expect(log.contains("statline"), "the run logged")
    let serviceAccount = try #require(
      JSONSerialization.jsonObject(with: Data(contentsOf: account)) as? [String: String])
    let keyLines = (serviceAccount["private_key"] ?? "").split(separator: "\n").filter { $0.count > 40 }
    #expect(!keyLines.isEmpty && keyLines.allSatisfy { !log.contains($0) }, "the service account's key")
    #expect(!fcm.accessTokens.isEmpty && fcm.accessTokens.allSatisfy { !log.contains($0) }, "an access token")
    #expect(following.keys.allSatisfy { !log.contains($0) }, "a whole device token")
    #expect(fcm.rejected.isEmpty, "\(fcm.rejected)")
    // The same events reach both phones of a team.
    let androidEvents = Set(
      fcm.accepted.compactMap { ($0.message["data"] as? [String: any Sendable])?["eventId"] as? String })
    let iPhoneEvents = Set(setup.apns.accepted.compactMap { $0.payload["eventId"] as? String })
    #expect(!androidEvents.isDisjoint(with: iPhoneEvents))
  }
}
