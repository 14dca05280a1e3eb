import Foundation
import Logging
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineTesting
import Testing

/// The APNs sender through a real HTTP/2 TLS connection to the loopback APNs (certificates made
/// at start, the provider token's signature checked): Apple's headers and payload, every row of
/// the answer matrix as the fake answers it, the token renewed once after ExpiredProviderToken
/// but never within 20 minutes, a deadline on a request never answered, an oversize payload never
/// sent, a GOAWAY survived, each environment to its own host.
@Suite(.serialized, .timeLimit(.minutes(1))) struct APNsSenderTests {
  static let key = APNsSigningKey(generatedWithKeyId: "ABC123DEFG", teamId: "TEAM123456")
  static let topic = "com.example.scores"
  static let token = String(repeating: "ab", count: 32)

  /// The fake and a sender to it, sharing one manual clock.
  struct Rig {
    let fake: LoopbackAPNs
    let sandbox: LoopbackAPNs?
    let sender: APNsSender
    let clock: APNsProviderTokenTests.Clock

    func stop() async {
      await sender.connections.shutdown()
      await fake.stop()
      await sandbox?.stop()
    }
  }

  static func rig(
    key: APNsSigningKey = key, deadline: Duration = .seconds(10), perEnvironment: Int = 1, sandbox: Bool = false
  ) async throws -> Rig {
    let clock = APNsProviderTokenTests.Clock()
    func start() async throws -> LoopbackAPNs {
      try await LoopbackAPNs.start(
        keys: [Self.key.keyId: (Self.key.teamId, Self.key.publicKeyPEM)], topics: [topic], now: { clock() })
    }
    let fake = try await start()
    let sandbox = sandbox ? try await start() : nil
    let roots = [fake.certificates.authority] + (sandbox.map { [$0.certificates.authority] } ?? [])
    let connections = APNsConnections(
      endpoints: .init(production: fake.baseURL, sandbox: sandbox?.baseURL ?? fake.baseURL),
      perEnvironment: perEnvironment, trustRoots: roots, grace: .milliseconds(100))
    let sender = APNsSender(
      tokens: APNsProviderTokens(key: key, now: { clock() }), connections: connections, deadline: deadline,
      now: { clock() })
    return Rig(fake: fake, sandbox: sandbox, sender: sender, clock: clock)
  }

  static func push(
    token: String = token, environment: Device.Environment = .production, payload: Data? = nil,
    at time: Date = Date(timeIntervalSince1970: 1_772_900_000)
  ) -> APNsPush {
    let device = Device(
      id: "dev_1", kind: .apns, token: token, environment: environment, topic: topic, teams: ["team:193"],
      registeredAt: "x", updatedAt: "x")
    let alert = PlannedAlert(
      deviceId: device.id, eventId: "evt_7", kind: .score, body: "GOAL Duke 5, North Carolina 4 · 2nd 04:06",
      threadId: "game:1", collapseId: "game:1", expiresAt: time.addingTimeInterval(300), silent: false,
      data: ["gameId": "game:1", "sport": "lacrosse-men", "eventId": "evt_7"])
    var push = APNsPush.alert(alert, to: device, id: UUID())
    if let payload { push.payload = payload }
    return push
  }

  @Test func anAlertGoesWithApplesHeadersAndPayloadAndItsIdComesBack() async throws {
    let rig = try await Self.rig()
    let push = Self.push()
    let outcome = await rig.sender.send(push)
    #expect(outcome.action == .accepted(apnsId: push.id.uuidString.lowercased()))
    let accepted = try #require(rig.fake.accepted.first)
    #expect(accepted.deviceToken == Self.token && accepted.keyId == "ABC123DEFG")
    #expect(accepted.headers["apns-topic"] == Self.topic && accepted.headers["apns-push-type"] == "alert")
    #expect(accepted.headers["apns-priority"] == "10" && accepted.headers["apns-collapse-id"] == "game:1")
    #expect(accepted.headers["apns-expiration"] == "1772900300")
    let aps = try #require(accepted.payload["aps"] as? [String: any Sendable])
    let alert = try #require(aps["alert"] as? [String: any Sendable])
    #expect(alert["body"] as? String == "GOAL Duke 5, North Carolina 4 · 2nd 04:06")
    #expect(aps["thread-id"] as? String == "game:1" && aps["sound"] as? String == "default")
    #expect(accepted.payload["gameId"] as? String == "game:1" && accepted.payload["eventId"] as? String == "evt_7")
    #expect(rig.fake.rejected.isEmpty)
    await rig.stop()
  }

  static let matrix: [(Int, String, Int64?, APNsAnswer.Action)] = [
    (410, "Unregistered", 1_772_899_000_000, .disable(since: Date(timeIntervalSince1970: 1_772_899_000))),
    (410, "ExpiredToken", 1_772_899_500_000, .disable(since: Date(timeIntervalSince1970: 1_772_899_500))),
    (
      400, "BadDeviceToken", nil,
      .quarantine(
        why:
          "BadDeviceToken: the token is not one APNs issued for this environment (a sandbox token sent to production?)")
    ),
    (
      400, "DeviceTokenNotForTopic", nil,
      .quarantine(why: "DeviceTokenNotForTopic: the token belongs to another app (topic)")
    ),
    (429, "TooManyRequests", nil, .backOffDevice),
    (403, "InvalidProviderToken", nil, .configurationError("APNs answered 403 InvalidProviderToken")),
    (400, "BadTopic", nil, .configurationError("APNs answered 400 BadTopic")),
    (500, "InternalServerError", nil, .retryUntilExpiry),
    (503, "ServiceUnavailable", nil, .retryUntilExpiry),
    (413, "PayloadTooLarge", nil, .drop("PayloadTooLarge: the payload is over 4096 bytes")),
  ]

  @Test(arguments: 0..<matrix.count) func everyAnswerOfTheMatrixIsActedOn(_ row: Int) async throws {
    let (status, reason, timestamp, action) = Self.matrix[row]
    let rig = try await Self.rig()
    rig.fake.script(Self.token, .init(status: status, reason: reason, timestamp: timestamp))
    let outcome = await rig.sender.send(Self.push())
    #expect(outcome.action == action, "\(status) \(reason)")
    #expect(outcome.answer?.status == status && outcome.requests == 1)
    await rig.stop()
  }

  @Test func anExpiredProviderTokenIsRenewedOnANewConnectionAndRetriedOnce() async throws {
    let rig = try await Self.rig()
    #expect(await rig.sender.send(Self.push()).action.isAccepted)
    rig.clock.advance(minutes: 25)
    rig.fake.script(Self.token, .init(status: 403, reason: "ExpiredProviderToken"))
    let outcome = await rig.sender.send(Self.push())
    #expect(outcome.action.isAccepted && outcome.requests == 2)
    let accepted = rig.fake.accepted
    #expect(accepted.count == 2)
    #expect(accepted[1].issuedAt == accepted[0].issuedAt + 25 * 60, "a new token")
    #expect(accepted[1].connection != accepted[0].connection, "on a new connection")
    // Twice in a row is the clock, not the token.
    rig.fake.script(Self.token, .init(status: 403, reason: "ExpiredProviderToken"), times: 2)
    let twice = await rig.sender.send(Self.push())
    #expect(twice.requests == 2)
    guard case .configurationError(let why) = twice.action else {
      Issue.record("\(twice.action)")
      return
    }
    #expect(why.contains("clock"))
    await rig.stop()
  }

  @Test func withinTwentyMinutesTheTokenIsKeptEvenAfterExpiredProviderToken() async throws {
    let rig = try await Self.rig()
    #expect(await rig.sender.send(Self.push()).action.isAccepted)
    rig.clock.advance(minutes: 5)
    rig.fake.script(Self.token, .init(status: 403, reason: "ExpiredProviderToken"))
    let outcome = await rig.sender.send(Self.push())
    #expect(outcome.action.isAccepted && outcome.requests == 2)
    #expect(Set(rig.fake.accepted.map(\.issuedAt)).count == 1, "the same token: renewing would earn a 429")
    #expect(!rig.fake.rejected.contains { $0.reason == "TooManyProviderTokenUpdates" })
    await rig.stop()
  }

  @Test func aRequestNeverAnsweredEndsAtItsDeadline() async throws {
    let rig = try await Self.rig(deadline: .milliseconds(300))
    rig.fake.script(Self.token, .init(never: true))
    let outcome = await rig.sender.send(Self.push())
    #expect(outcome.action == .retryUntilExpiry && outcome.answer == nil)
    #expect(outcome.failure == "no answer before the deadline")
    await rig.stop()
  }

  @Test func anOversizePayloadIsDroppedBeforeAByteIsSent() async throws {
    let rig = try await Self.rig()
    let big = Data(#"{"aps":{"alert":{"body":"\#(String(repeating: "x", count: 5000))"}}}"#.utf8)
    let outcome = await rig.sender.send(Self.push(payload: big))
    #expect(outcome.requests == 0)
    guard case .drop(let why) = outcome.action else {
      Issue.record("\(outcome.action)")
      return
    }
    #expect(why.contains("over APNs' 4096"))
    #expect(rig.fake.accepted.isEmpty && rig.fake.rejected.isEmpty && rig.fake.connections == 0)
    await rig.stop()
  }

  @Test func aKeyTheFakeDoesNotKnowIsRefusedAsInvalidProviderToken() async throws {
    let stranger = APNsSigningKey(generatedWithKeyId: "ABC123DEFG", teamId: "TEAM123456")
    let rig = try await Self.rig(key: stranger)
    let outcome = await rig.sender.send(Self.push())
    #expect(outcome.action == .configurationError("APNs answered 403 InvalidProviderToken"))
    #expect(rig.fake.rejected.first?.detail.contains("signature") == true)
    await rig.stop()
  }

  @Test func afterAGoAwayThePushesGoOnANewConnection() async throws {
    let rig = try await Self.rig()
    rig.fake.goAway(after: 0)
    #expect(await rig.sender.send(Self.push()).action.isAccepted)
    for _ in 0..<3 {
      let outcome = await rig.sender.send(Self.push())
      #expect(outcome.action.isAccepted, "\(outcome)")
    }
    #expect(rig.fake.accepted.count == 4)
    #expect(rig.fake.connections == 2, "the first connection ended with the GOAWAY")
    await rig.stop()
  }

  @Test func eachEnvironmentGoesToItsOwnHost() async throws {
    let rig = try await Self.rig(sandbox: true)
    let sandbox = try #require(rig.sandbox)
    #expect(await rig.sender.send(Self.push(environment: .sandbox)).action.isAccepted)
    #expect(await rig.sender.send(Self.push(environment: .production)).action.isAccepted)
    #expect(sandbox.accepted.count == 1 && rig.fake.accepted.count == 1)
    await rig.stop()
  }
}

extension APNsAnswer.Action {
  var isAccepted: Bool {
    if case .accepted = self { return true }
    return false
  }
}
