import Foundation
import StatlineCore
import StatlineLoopback
import StatlineTesting
import Testing

@testable import StatlinePush

/// The FCM sender through a real HTTP/2 TLS connection to the loopback FCM (certificates made at
/// start, the OAuth assertion's RS256 signature checked): one access token for many messages, a
/// 401 refreshing it once, every error row as the fake answers it, `Retry-After` honoured by the
/// outbox, a deadline on a message never answered, an oversize message never sent.
@Suite(.serialized, .timeLimit(.minutes(1))) struct FCMSenderTests {
  static let account = FCMAnswerTests.account
  static let project = "example-scores"

  struct Rig {
    let fake: LoopbackFCM
    let sender: FCMSender
    let clock: APNsProviderTokenTests.Clock
    var transport: FCMTransport { FCMTransport(sender: sender) }
  }

  /// A fake and a sender to it sharing one manual clock, stopped whatever the body does.
  static func with(
    project: String = project, account: FCMServiceAccount = account, deadline: Duration = .seconds(10),
    log: LoopbackPushLog? = nil, clock: APNsProviderTokenTests.Clock = .init(), _ body: (Rig) async throws -> Void
  ) async throws {
    let fake = try await LoopbackFCM.start(
      accounts: [Self.account.clientEmail: (Self.account.keyId, Self.account.publicKeyPEM)], project: Self.project,
      now: { clock() }, log: log)
    var pointed = account
    pointed.tokenURI = fake.tokenURI
    let roots = [fake.certificates.authority]
    let connections = HTTP2Clients(size: 2, trustRoots: roots, grace: .milliseconds(100))
    let oauth = HTTP2Clients(size: 1, trustRoots: roots)
    let sender = FCMSender(
      tokens: FCMAccessTokens(account: pointed, client: oauth, deadline: .seconds(5), now: { clock() }),
      connections: connections, baseURL: fake.baseURL, project: project, deadline: deadline, now: { clock() })
    let rig = Rig(fake: fake, sender: sender, clock: clock)
    do {
      try await body(rig)
    } catch {
      await connections.shutdown()
      await oauth.shutdown()
      await fake.stop()
      throw error
    }
    await connections.shutdown()
    await oauth.shutdown()
    await fake.stop()
  }

  static func message(_ token: String = "fcm-token-1", body: String? = nil) -> FCMMessage {
    var alert = FCMAnswerTests.alert()
    if let body { alert.body = body }
    var device = FCMAnswerTests.device()
    device.token = token
    return FCMMessage.alert(alert, to: device, at: FCMAnswerTests.now)
  }

  /// The log a check counts deliveries from (`scripts/cluster-check`): each accepted message
  /// with its token, game, event, connection and the moment its ttl runs out, and each
  /// connection that closed.
  @Test func theFakesLogHoldsEachAcceptedMessageAndEachClosedConnection() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("push-\(UUID()).log").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let clock = APNsProviderTokenTests.Clock()
    let log = try LoopbackPushLog(path: path, now: { clock() })
    try await Self.with(log: log, clock: clock) { rig in
      for index in 0..<2 {
        guard case .accepted = await rig.sender.send(Self.message("fcm-token-\(index)")).action else {
          Issue.record("not accepted")
          return
        }
      }
      rig.fake.script("fcm-token-9", .init(status: 404, code: "UNREGISTERED"))
      _ = await rig.sender.send(Self.message("fcm-token-9"))
      await rig.sender.connections.shutdown()
    }
    try await Task.sleep(for: .milliseconds(200))
    log.close()
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
      $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    }
    let stamp = String(Int64(clock().timeIntervalSince1970 * 1000))
    let expires = String(format: "%.3f", clock().timeIntervalSince1970 + 300)
    let accepted = lines.filter { $0[1] == "accepted" }
    #expect(
      accepted.map { Array($0[0..<6]) + [$0[7]] } == [
        [stamp, "accepted", "fcm", "fcm-token-0", "game:1", "evt_7", expires],
        [stamp, "accepted", "fcm", "fcm-token-1", "game:1", "evt_7", expires],
      ], "the refused message is not in it: \(lines)")
    let closed = Set(lines.filter { $0[1] == "closed" && $0[2] == "fcm" }.map { $0[6] })
    #expect(Set(accepted.map { $0[6] }).isSubset(of: closed), "each connection that carried one closed: \(lines)")
  }

  @Test func messagesGoWithOneAccessTokenAndFCMsFields() async throws {
    try await Self.with { rig in
      for index in 0..<5 {
        let outcome = await rig.sender.send(Self.message("fcm-token-\(index)"))
        guard case .accepted(let name) = outcome.action else {
          Issue.record("not accepted: \(outcome.action)")
          return
        }
        #expect(name?.hasPrefix("projects/example-scores/messages/") == true)
      }
      #expect(rig.fake.accessTokensIssued == 1)
      #expect(await rig.sender.tokens.fetched == 1)
      let accepted = try #require(rig.fake.accepted.first)
      #expect(accepted.target == "fcm-token-0" && accepted.targetField == "token")
      let android = try #require(accepted.message["android"] as? [String: any Sendable])
      #expect(android["collapse_key"] as? String == "game:1")
      #expect(rig.fake.rejected.isEmpty)
    }
  }

  @Test func aRevokedAccessTokenIsRefreshedOnceAndTheMessageGoes() async throws {
    try await Self.with { rig in
      _ = await rig.sender.send(Self.message())
      rig.fake.revokeAccessTokens()
      let outcome = await rig.sender.send(Self.message())
      #expect(outcome.requests == 2)
      guard case .accepted = outcome.action else {
        Issue.record("\(outcome.action)")
        return
      }
      #expect(rig.fake.accessTokensIssued == 2)
    }
  }

  @Test func theAccessTokenIsRefreshedBeforeItExpires() async throws {
    try await Self.with { rig in
      _ = await rig.sender.send(Self.message())
      rig.clock.advance(minutes: 54)
      _ = await rig.sender.send(Self.message())
      #expect(rig.fake.accessTokensIssued == 1)
      rig.clock.advance(minutes: 2)  // 56 minutes: under 5 minutes of a 59:59 token left
      let outcome = await rig.sender.send(Self.message())
      #expect(outcome.requests == 1)
      #expect(rig.fake.accessTokensIssued == 2)
    }
  }

  @Test func everyErrorRowAsTheFakeAnswersIt() async throws {
    try await Self.with { rig in
      let now = rig.clock()
      rig.fake.script("gone", .init(status: 404, code: "UNREGISTERED"))
      guard case .suspend(let suspension) = await rig.transport.deliver(FCMAnswerTests.alert(), to: Self.device("gone"))
      else {
        Issue.record("UNREGISTERED suspends")
        return
      }
      #expect(suspension.kind == .disabled && suspension.why.contains("UNREGISTERED"))

      rig.fake.script("bad", .init(status: 400, code: "INVALID_ARGUMENT", field: "message.token"))
      guard case .suspend(let bad) = await rig.transport.deliver(FCMAnswerTests.alert(), to: Self.device("bad")) else {
        Issue.record("an INVALID_ARGUMENT naming the token suspends")
        return
      }
      #expect(bad.kind == .disabled)

      rig.fake.script("busy", .init(status: 429, code: "QUOTA_EXCEEDED", retryAfter: "30"))
      #expect(
        await rig.transport.deliver(FCMAnswerTests.alert(), to: Self.device("busy"))
          == .retry(
            "FCM answered 429 QUOTA_EXCEEDED: scripted QUOTA_EXCEEDED", after: 30))
      for (status, code) in [(503, "UNAVAILABLE"), (500, "INTERNAL")] {
        rig.fake.script("down", .init(status: status, code: code))
        guard case .retry = await rig.transport.deliver(FCMAnswerTests.alert(), to: Self.device("down")) else {
          Issue.record("\(code) retries")
          return
        }
      }
      // A message FCM finds wrong (the fake's own check) is dropped, never retried.
      var huge = FCMAnswerTests.alert()
      huge.data["extra"] = String(repeating: "x", count: 4000)
      guard case .dropped(let why) = await rig.transport.deliver(huge, to: Self.device("big")) else {
        Issue.record("an oversize message is dropped")
        return
      }
      #expect(why.contains("over FCM's 4096"))
      #expect(rig.fake.rejected.allSatisfy { $0.status != 400 || $0.code == "INVALID_ARGUMENT" })
      _ = now
    }
  }

  @Test func aWrongProjectIsAConfigurationErrorNotADisabledDevice() async throws {
    try await Self.with(project: "another-project") { rig in
      guard case .misconfigured(let why) = await rig.transport.deliver(FCMAnswerTests.alert(), to: Self.device("t1"))
      else {
        Issue.record("SENDER_ID_MISMATCH is misconfigured")
        return
      }
      #expect(why.contains("SENDER_ID_MISMATCH"))
    }
  }

  @Test func anAccountTheTokenEndpointDoesNotKnowIsAConfigurationError() async throws {
    let stranger = FCMServiceAccount(
      generatedFor: "someone@else.iam.gserviceaccount.com", projectId: Self.project, tokenURI: "https://x.test/token")
    try await Self.with(account: stranger) { rig in
      let outcome = await rig.sender.send(Self.message())
      guard case .configurationError(let why) = outcome.action else {
        Issue.record("\(outcome.action)")
        return
      }
      #expect(why.contains("invalid_grant") && outcome.requests == 0)
      #expect(!why.contains("PRIVATE KEY"))
    }
  }

  @Test func aMessageNeverAnsweredEndsAtTheDeadline() async throws {
    try await Self.with(deadline: .milliseconds(300)) { rig in
      rig.fake.script("hang", .init(status: 200, never: true))
      guard case .retry(let why, _) = await rig.sender.send(Self.message("hang")).action else {
        Issue.record("a hang retries")
        return
      }
      #expect(why.contains("deadline"))
    }
  }

  @Test func retryAfterHoldsTheSlotAtLeastThatLong() {
    let now = FCMAnswerTests.now
    let slot = OutboxSlot(deviceId: "dev_1", collapseId: "game:1", alert: FCMAnswerTests.alert(), sequence: 1)
    #expect(slot.retried(version: slot.version, at: now, jitter: 0).notBefore == now.addingTimeInterval(0.5))
    #expect(
      slot.settled(.retry(version: slot.version, jitter: 0, atLeast: 30), at: now).notBefore
        == now.addingTimeInterval(30))
  }

  static func device(_ token: String) -> Device {
    var device = FCMAnswerTests.device()
    device.token = token
    return device
  }
}
