import Crypto
import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineLoopback
import StatlineSQLite
import StatlineTesting
import Testing

/// `statline run` with `push:` configured, end to end on loopback: the demo's game day (running
/// 120× fast) makes goals, the job plans each event's alerts for the registered devices that
/// follow its teams and sends them over HTTP/2 TLS to the loopback APNs (its CA and the key's
/// public half given to it at start). Counted from the fake's record, not Statline's: every
/// accepted push went to a device following one of its game's teams, before its expiry; a
/// device following no playing team gets nothing; a SIGKILL mid-run and a restart lose the
/// outbox's alerts to nobody and repeat none beyond the requests in flight at the kill.
@Suite(.serialized, .timeLimit(.minutes(5))) struct PushJobTests {
  static let topic = "com.example.scores"

  /// The demo's game day on a loopback site (120× fast), a loopback APNs, the key and CA for it,
  /// and a configuration with `push:` (`inFlight` requests, `extra` push keys).
  struct Day {
    let folder: URL
    let server: LoopbackServer
    let apns: LoopbackAPNs
    let config: URL

    func stop() async {
      try? await server.stop()
      await apns.stop()
    }
  }

  static func day(inFlight: Int, pushExtra: String = "") async throws -> Day {
    let folder = try JobCommandTests.folder()
    let day = DemoGameDay()
    let start = ContinuousClock.now
    let server = try await LoopbackServer.start { request in
      day.route(request, seconds: 600 + JobClockSeconds.since(start) * 120)
    }
    let key = P256.Signing.PrivateKey()
    let apns = try await LoopbackAPNs.start(
      keys: ["KEY1234567": ("TEAM123456", key.publicKey.pemRepresentation)], topics: [Self.topic])
    let keyFile = folder.appendingPathComponent("AuthKey_KEY1234567.p8")
    try key.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
    let roots = folder.appendingPathComponent("loopback-ca.pem")
    try apns.certificates.authorityPEM.write(to: roots, atomically: true, encoding: .utf8)
    let config = try JobCommandTests.config(
      server, in: folder,
      extra: """
        policy: { live: 200ms, imminent: 200ms, idle: 200ms, finalInterval: 200ms, failureBase: 200ms, jitter: 0 }
        push:
          apns:
            keyFile: \(keyFile.path)
            keyId: KEY1234567
            teamId: TEAM123456
            production: \(apns.baseURL)
            sandbox: \(apns.baseURL)
            trustRoots: \(roots.path)
            timeout: 2s
          inFlight: \(inFlight)
        \(pushExtra)
        """)
    return Day(folder: folder, server: server, apns: apns, config: config)
  }

  @Test func runPushesFollowersAlertsToTheLoopbackAPNsAndAKillRepeatsNone() async throws {
    let setup = try await Self.day(inFlight: 8)
    defer { Task { await setup.stop() } }
    let (folder, apns, config) = (setup.folder, setup.apns, setup.config)
    let check = try CommandRunner.run(["check", "--config", config.path])
    #expect(check.status == 0 && check.stdout.contains("Push: APNs key KEY1234567"), "\(check.stdout)\(check.stderr)")

    // The store and its games first, then the devices: two per team playing, and one that
    // follows a team with no game today.
    let once = try CommandRunner.run(["once", "--config", config.path])
    #expect(once.status == 0, "\(once.stdout)\(once.stderr)")
    let storePath = folder.appendingPathComponent("store.sqlite").path
    let games = try await SQLiteStore(path: storePath).games(sport: nil, date: nil).filter { $0.id.hasPrefix("game:") }
    let teams = Set(games.flatMap { [$0.away.team.id, $0.home.team.id] }.compactMap { $0 }).sorted()
    try #require(teams.count >= 4, "the demo's canonical games have teams: \(teams)")
    let registry = try SQLiteDeviceRegistry(path: storePath)
    var following: [String: String] = [:]
    var index = 0
    for team in teams + ["team:999999"] {
      for _ in 0..<2 {
        index += 1
        let token = String(format: "%064x", index)
        following[token] = team
        _ = try await registry.upsertDevice(
          Device(
            id: Device.id(kind: .apns, token: token), kind: .apns, token: token, environment: .production,
            topic: Self.topic, teams: [team], alerts: Device.Alert.allCases, registeredAt: "2026-03-01T00:00:00Z",
            updatedAt: "2026-03-01T00:00:00Z"))
      }
    }

    // Run, SIGKILL once the first pushes are in, run again, stop.
    let first = try Self.startRun(config)
    try await Self.waitFor { apns.accepted.count >= 10 }
    kill(first.processIdentifier, SIGKILL)
    await Self.exit(first)
    let atKill = apns.accepted.count
    let second = try Self.startRun(config)
    try await Self.waitFor { apns.accepted.count >= atKill + 10 }
    kill(second.processIdentifier, SIGTERM)
    await Self.exit(second)
    #expect(second.terminationStatus == 0, "a clean stop")

    let accepted = apns.accepted
    let byGame = Dictionary(uniqueKeysWithValues: games.map { ($0.id, $0) })
    for push in accepted {
      let game = try #require(byGame[push.payload["gameId"] as? String ?? ""], "a push names a stored game")
      let team = try #require(following[push.deviceToken])
      #expect([game.away.team.id, game.home.team.id].contains(team), "\(push.deviceToken.suffix(4)) follows \(team)")
      let expiry = try #require(Int(push.headers["apns-expiration"] ?? ""))
      #expect(Double(expiry) > Date().timeIntervalSince1970 - 120, "sent before it expired")
    }
    #expect(!accepted.contains { following[$0.deviceToken] == "team:999999" }, "no game, no push")
    let pairs = accepted.map { "\($0.deviceToken)|\($0.payload["eventId"] as? String ?? "")" }
    #expect(pairs.count - Set(pairs).count <= 8, "repeats only of requests in flight at the kill (inFlight 8)")
    #expect(Set(accepted.map(\.deviceToken)).count >= 4, "several followers reached")
  }

  /// PUSH.md's kill test at its size: 10,000 devices follow one team, the job is SIGKILLed in
  /// the middle of a goal's fan-out and started again. Counted from the fake: every device gets
  /// its game's alerts (the newest replacing an unsent older one), none after its expiry, and an
  /// alert goes twice only when it was answered but not yet written back at the kill (at most
  /// `settleEvery` answers and the requests in flight, per send loop: 16 here).
  @Test func aKillInTheMiddleOfATenThousandDeviceFanOutLosesNoneAndRepeatsOnlyTheUnwritten() async throws {
    // A short lease and deadline (2 s): the killed worker's claims go to the next one in 17 s.
    let setup = try await Self.day(inFlight: 8, pushExtra: "  lease: 5s\n")
    defer { Task { await setup.stop() } }
    let (apns, config) = (setup.apns, setup.config)
    let once = try CommandRunner.run(["once", "--config", config.path])
    #expect(once.status == 0, "\(once.stdout)\(once.stderr)")
    let storePath = setup.folder.appendingPathComponent("store.sqlite").path
    let games = try await SQLiteStore(path: storePath).games(sport: nil, date: nil).filter(\.isCanonical)
    // Duke plays one game of the day (the overtime lacrosse game).
    let game = try #require(games.first { $0.away.team.id == "team:193" || $0.home.team.id == "team:193" })
    let registry = try SQLiteDeviceRegistry(path: storePath)
    var tokens: Set<String> = []
    for index in 1...10_000 {
      let token = String(format: "%064x", index)
      tokens.insert(token)
      _ = try await registry.upsertDevice(
        Device(
          id: Device.id(kind: .apns, token: token), kind: .apns, token: token, environment: .production,
          topic: Self.topic, teams: ["team:193"], alerts: Device.Alert.allCases, registeredAt: "2026-03-01T00:00:00Z",
          updatedAt: "2026-03-01T00:00:00Z"))
    }

    let first = try Self.startRun(config)
    try await Self.waitFor(seconds: 120) { apns.acceptedCount >= 3_000 }
    kill(first.processIdentifier, SIGKILL)
    await Self.exit(first)
    let atKill = apns.acceptedCount
    #expect(atKill < 10_000, "killed in the middle of the first fan-out (\(atKill) accepted)")
    let second = try Self.startRun(config)
    try await Self.waitFor(seconds: 150) { Set(apns.accepted.map(\.deviceToken)).count == tokens.count }
    kill(second.processIdentifier, SIGTERM)
    await Self.exit(second)

    let accepted = apns.accepted
    #expect(Set(accepted.map(\.deviceToken)) == tokens, "every device got its game's alerts")
    for push in accepted {
      #expect(push.payload["gameId"] as? String == game.id)
      let expiry = try #require(Int(push.headers["apns-expiration"] ?? ""))
      #expect(Double(expiry) > Date().timeIntervalSince1970 - 300, "sent before it expired")
    }
    let pairs = accepted.map { "\($0.deviceToken)|\($0.payload["eventId"] as? String ?? "")" }
    let repeats = pairs.count - Set(pairs).count
    #expect(repeats <= 16, "\(repeats) repeats: only answers not yet written back at the kill")
  }

  static func startRun(_ config: URL) throws -> Process {
    let process = Process()
    process.executableURL = CommandRunner.executable
    process.arguments = ["run", "--config", config.path, "--log-level", "error"]
    process.standardError = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// Polls `condition` for up to `seconds` (the job and the fake run on wall time).
  static func waitFor(seconds: Int64 = 60, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition() {
      try #require(ContinuousClock.now < deadline, "timed out")
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  /// Waits for the process to end (Foundation's `waitUntilExit` spins off the main thread).
  static func exit(_ process: Process) async {
    while process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
  }
}
