import Crypto
import Foundation
import StatlineCore
import StatlineLoopback
import StatlineTesting
import Testing

/// `statline check --config FILE`, as a user runs it (issue 33 point 3).
@Suite struct CheckCommandTests {
  static func config(_ yaml: String) throws -> String {
    let file = try JobCommandTests.folder().appendingPathComponent("statline.yml")
    try yaml.write(to: file, atomically: true, encoding: .utf8)
    return file.path
  }

  @Test func aValidConfigurationPrintsThePlanAndFetchesNothing() throws {
    let path = try Self.config(
      """
      store: \(FileManager.default.temporaryDirectory.path)/never-made-\(UUID()).sqlite
      targets:
        - url: https://www.statbroadcast.com/events/schedule.php?gid=msu
        - url: https://archive.statbroadcast.com/640112.xml
          role: game
        - url: https://www.ncaa.com/rankings/lacrosse-men/d1/inside-lacrosse
      sources:
        statbroadcast:
          policy:
            idle: 10m
      politeness:
        hosts:
          www.ncaa.com: { concurrency: 1, spacing: 2s }
      sinks:
        - kind: webhook
          name: app
          url: https://app.example.edu/hooks/statline
          secretEnv: CHECK_TEST_SECRET
          filter: { kinds: [game.goal, game.final], sports: [lacrosse-men] }
      rankings:
        primary:
          lacrosse-men: ncaa:com-lacrosse-men-d1-inside-lacrosse
      """)
    let run = try CommandRunner.run(["check", "--config", path], environment: ["CHECK_TEST_SECRET": "whsec_c2VjcmV0"])
    #expect(run.status == 0, "\(run.stderr)")
    let out = run.stdout
    #expect(out.contains("is valid; nothing was fetched"), "\(out)")
    let calendar = try #require(out.split(separator: "\n").first { $0.contains("gid=msu") })
    #expect(calendar.contains("statbroadcast-event-calendar") && calendar.contains("discovery"))
    #expect(calendar.contains("idle 10m"), "the source's own policy: \(calendar)")
    let xml = try #require(out.split(separator: "\n").first { $0.contains("640112.xml") })
    #expect(xml.contains("statbroadcast-game-xml") && xml.contains(" game "))
    let poll = try #require(out.split(separator: "\n").first { $0.contains("inside-lacrosse") && $0.contains("https") })
    #expect(poll.contains("ncaa-com-rankings") && poll.contains("poll") && poll.contains("daily"))
    let host = try #require(out.split(separator: "\n").first { $0.hasPrefix("www.ncaa.com") })
    #expect(host.contains(" 1 ") && host.contains("2s"), "the host's own politeness: \(host)")
    #expect(out.contains("robots.txt obeyed"))
    let sink = try #require(out.split(separator: "\n").first { $0.hasPrefix("app ") })
    #expect(sink.contains("webhook") && sink.contains("kinds: game.goal, game.final; sports: lacrosse-men"))
    #expect(!out.contains("whsec_"), "the secret is never printed")
    #expect(out.contains("Primary polls: lacrosse-men → ncaa:com-lacrosse-men-d1-inside-lacrosse"))
    #expect(!FileManager.default.fileExists(atPath: path.replacingOccurrences(of: "statline.yml", with: "never-made")))
  }

  @Test func everyProblemIsSaidOnItsOwnAndTheStatusIs64() throws {
    let path = try Self.config(
      """
      store: postgres://statline@127.0.0.1:notaport/db
      targets:
        - url: https://example.edu/unknown-page
        - url: https://stats.ncaa.org/teams/594020
          parser: no-such-parser
        - url: https://stats.ncaa.org/teams/594021
      sinks:
        - kind: webhook
          name: app
          url: https://app.example.edu/hooks
          secretEnv: CHECK_TEST_UNSET_SECRET
        - kind: jsonl
          name: app
      """)
    let run = try CommandRunner.run(["check", "--config", path], environment: [:])
    #expect(run.status == 64)
    let err = run.stderr
    #expect(err.contains("targets[0].url: no parser claims https://example.edu/unknown-page"), "\(err)")
    #expect(err.contains("targets[1].parser: no parser is named 'no-such-parser'"), "\(err)")
    #expect(!err.contains("targets[2]"), "the third target is fine")
    #expect(err.contains("sinks[0].secretEnv: the environment variable CHECK_TEST_UNSET_SECRET is not set"), "\(err)")
    #expect(err.contains("sinks[1].name: two sinks are named 'app'"), "\(err)")
    #expect(err.contains("not a PostgreSQL URL [postgres://***@127.0.0.1:notaport/db]"), "\(err)")
    #expect(err.contains("has 5 problem(s)"), "\(err)")
    #expect(run.stdout.isEmpty)
  }

  @Test func aConfigurationThatDoesNotReadIsOneClearError() throws {
    let path = try Self.config("targets:\n  - url: https://example.edu/\nunknownKey: 1\n")
    let run = try CommandRunner.run(["check", "--config", path])
    #expect(run.status == 64 && run.stderr.contains("unknownKey"), "\(run.stderr)")
  }

  /// `push.apns` is checked without sending: a key file that is not there, one that is not a
  /// P-256 key (never quoted), an id of the wrong form, a missing field, a section with no sender.
  @Test func thePushKeyIsReadAndCheckedWithoutSendingAndNeverQuoted() throws {
    let folder = try JobCommandTests.folder()
    let notAKey = folder.appendingPathComponent("AuthKey_BADKEY0000.p8")
    try "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LXRleHQ=\n-----END PRIVATE KEY-----\n".write(
      to: notAKey, atomically: true, encoding: .utf8)
    let targets = "targets:\n  - url: https://archive.statbroadcast.com/640112.xml\n    role: game\n"
    func check(_ push: String) throws -> CommandRunner.Output {
      try CommandRunner.run(["check", "--config", try Self.config(targets + push)])
    }
    let missing = try check(
      "push:\n  apns: {keyFile: /nonexistent/AuthKey.p8, keyId: ABC1234567, teamId: TEAM123456}\n")
    #expect(missing.status == 64 && missing.stderr.contains("push.apns.keyFile: cannot read the APNs key"))
    let bad = try check("push:\n  apns: {keyFile: \(notAKey.path), keyId: ABC1234567, teamId: TEAM123456}\n")
    #expect(bad.status == 64 && bad.stderr.contains("is not a P-256 private key"), "\(bad.stderr)")
    #expect(!bad.stderr.contains("c2VjcmV0LXRleHQ="), "the key's text is never printed")
    let shortId = try check("push:\n  apns: {keyFile: \(notAKey.path), keyId: ABC, teamId: TEAM123456}\n")
    #expect(shortId.stderr.contains("the APNs keyId 'ABC' is not 10 letters and digits"), "\(shortId.stderr)")
    let noTeam = try check("push:\n  apns: {keyFile: \(notAKey.path), keyId: ABC1234567}\n")
    #expect(noTeam.status == 64 && noTeam.stderr.contains("push.apns"), "\(noTeam.stderr)")
    #expect(noTeam.stderr.contains("has no teamId"), "\(noTeam.stderr)")
    let key = folder.appendingPathComponent("AuthKey_GOODKEY000.p8")
    try P256.Signing.PrivateKey().pemRepresentation.write(to: key, atomically: true, encoding: .utf8)
    let apns = "push:\n  apns:\n    keyFile: \(key.path)\n    keyId: GOODKEY000\n    teamId: TEAM123456\n"
    let channels = try check(apns + "    broadcast: {topic: com.example.scores, environment: sandbox, storage: none}\n")
    #expect(channels.status == 0, "\(channels.stderr)")
    #expect(
      channels.stdout.contains(
        "Broadcast channels for com.example.scores (sandbox): one per game, opened when it starts, deleted after its "
          + "final, at https://api-manage-broadcast.sandbox.push.apple.com:2195 (messages stored: none)"),
      "\(channels.stdout)")
    let noTopic = try check(apns + "    broadcast: {environment: sandbox}\n")
    #expect(noTopic.status == 64 && noTopic.stderr.contains("push.apns.broadcast"), "\(noTopic.stderr)")
    #expect(noTopic.stderr.contains("has no topic"))
    let badStorage = try check(apns + "    broadcast: {topic: com.example.scores, storage: forever}\n")
    #expect(badStorage.status == 64 && badStorage.stderr.contains("push.apns.broadcast.storage"))
    let noSender = try check("push:\n  inFlight: 8\n")
    #expect(noSender.status == 64 && noSender.stderr.contains("push") && noSender.stderr.contains("names no sender"))
    let none = try check("")
    #expect(none.stdout.contains("Push: none"), "\(none.stdout)\(none.stderr)")
  }

  @Test func theFCMServiceAccountIsReadAndCheckedWithoutSendingAndNeverQuoted() async throws {
    let folder = try JobCommandTests.folder()
    let targets = "targets:\n  - url: https://archive.statbroadcast.com/640112.xml\n    role: game\n"
    func check(_ push: String) throws -> CommandRunner.Output {
      try CommandRunner.run(["check", "--config", try Self.config(targets + push)])
    }
    let fake = try await LoopbackFCM.start(accounts: [:], project: "example-scores")
    let good = try fake.newServiceAccount(email: "push@example-scores.iam.gserviceaccount.com")
    await fake.stop()
    let file = folder.appendingPathComponent("service-account.json")
    try good.write(to: file)
    let plan = try check("push:\n  inFlight: 300\n  fcm: {serviceAccountFile: \(file.path)}\n")
    #expect(plan.status == 0, "\(plan.stderr)")
    #expect(
      plan.stdout.contains("Push: FCM project example-scores as push@example-scores.iam.gserviceaccount.com (key …"),
      "\(plan.stdout)")
    #expect(plan.stdout.contains("4 connections to https://fcm.googleapis.com (each under FCM's 100 streams)"))
    #expect(!plan.stdout.contains("PRIVATE KEY"))

    var fields = try #require(JSONSerialization.jsonObject(with: good) as? [String: String])
    let secret = String(fields["private_key"]!.dropFirst(60).prefix(40))
    fields["private_key"] = fields["private_key"]!.replacingOccurrences(of: "M", with: "Q")
    let broken = folder.appendingPathComponent("broken.json")
    try JSONSerialization.data(withJSONObject: fields).write(to: broken)
    let bad = try check("push:\n  fcm: {serviceAccountFile: \(broken.path)}\n")
    #expect(bad.status == 64 && bad.stderr.contains("private_key is not an RSA private key"), "\(bad.stderr)")
    #expect(!bad.stderr.contains(secret), "the key's text is never printed")
    let missing = try check("push:\n  fcm: {serviceAccountFile: /nonexistent/sa.json}\n")
    #expect(missing.status == 64 && missing.stderr.contains("push.fcm.serviceAccountFile: cannot read it"))
    fields = try #require(JSONSerialization.jsonObject(with: good) as? [String: String])
    fields["project_id"] = nil
    let noProject = folder.appendingPathComponent("no-project.json")
    try JSONSerialization.data(withJSONObject: fields).write(to: noProject)
    let unnamed = try check("push:\n  fcm: {serviceAccountFile: \(noProject.path)}\n")
    #expect(unnamed.status == 64 && unnamed.stderr.contains("push.fcm names no project"), "\(unnamed.stderr)")
    let named = try check("push:\n  fcm: {serviceAccountFile: \(noProject.path), project: other-project}\n")
    #expect(named.status == 0 && named.stdout.contains("FCM project other-project"), "\(named.stderr)")
    let burst = try check("push:\n  disableBurst: 1.5\n  fcm: {serviceAccountFile: \(file.path)}\n")
    #expect(burst.status == 64 && burst.stderr.contains("push.disableBurst"), "\(burst.stderr)")
    let keep = try check(
      "push:\n  disableBurst: 1\n  purgeDisabledAfter: never\n  fcm: {serviceAccountFile: \(file.path)}\n")
    #expect(keep.status == 0, "\(keep.stderr)")
    let purge = try check("push:\n  purgeDisabledAfter: soon\n  fcm: {serviceAccountFile: \(file.path)}\n")
    #expect(purge.status == 64 && purge.stderr.contains("push.purgeDisabledAfter"), "\(purge.stderr)")
    let noFile = try check("push:\n  fcm: {project: p}\n")
    #expect(noFile.status == 64 && noFile.stderr.contains("has no serviceAccountFile"))
  }
}
