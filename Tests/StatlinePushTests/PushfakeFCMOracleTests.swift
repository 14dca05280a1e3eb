import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlinePush

/// Statline's FCM sender against `../shared/tools/pushfake`, an FCM and OAuth endpoint written
/// apart from ours (Python, `cryptography`'s RSA): a mistake the sender shares with `LoopbackFCM`
/// (PSS instead of PKCS#1 v1.5, a string `iat`, a non-string data value, an unknown field) still
/// fails here. What the fake accepted is read back from its own log.
@Suite(.serialized, .enabled(if: Pushfake.enabled), .timeLimit(.minutes(2))) struct PushfakeFCMOracleTests {
  static let account = FCMServiceAccount(
    generatedFor: "push@example-scores.iam.gserviceaccount.com", projectId: "example-scores",
    tokenURI: "https://127.0.0.1/token")

  struct Rig {
    let fake: Pushfake
    let sender: FCMSender
    let control: HTTPClient
    let pools: [HTTP2Clients]

    func log(_ api: String) async throws -> [[String: Any]] {
      let response = try await control.execute(
        HTTPClientRequest(url: fake.baseURL + "/_control/log?api=\(api)"), timeout: .seconds(10))
      let body = try await response.body.collect(upTo: 16 << 20)
      let object = try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any]
      return object?["entries"] as? [[String: Any]] ?? []
    }

    func control(_ path: String, _ fields: [String: Any]) async throws {
      var request = HTTPClientRequest(url: fake.baseURL + path)
      request.method = .POST
      request.headers.add(name: "content-type", value: "application/json")
      request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: fields)))
      let response = try await control.execute(request, timeout: .seconds(10))
      #expect(response.status == .ok)
    }
  }

  /// The fake, a sender to it and a control client, stopped whatever the body does.
  static func with(_ body: (Rig) async throws -> Void) async throws {
    let fake = try Pushfake(apnsKeys: [], topics: [], fcmServiceAccountJSON: account.json)
    let authority = try NIOSSLCertificate(bytes: Array(fake.authorityPEM.utf8), format: .pem)
    var pointed = account
    pointed.tokenURI = fake.baseURL + "/token"
    let connections = HTTP2Clients(size: 1, trustRoots: [authority])
    let oauth = HTTP2Clients(size: 1, trustRoots: [authority])
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .certificates([authority])
    let control = HTTPClient(
      eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(tlsConfiguration: tls))
    let sender = FCMSender(
      tokens: FCMAccessTokens(account: pointed, client: oauth, deadline: .seconds(10), now: { Date() }),
      connections: connections, baseURL: fake.baseURL, project: "example-scores", now: { Date() })
    let rig = Rig(fake: fake, sender: sender, control: control, pools: [connections, oauth])
    var failure: (any Error)?
    do { try await body(rig) } catch { failure = error }
    for pool in rig.pools { await pool.shutdown() }
    try? await control.shutdown()
    fake.stop()
    if let failure { throw failure }
  }

  @Test func anAlertIsAcceptedAsSentWithOneAccessToken() async throws {
    try await Self.with { rig in
      let transport = FCMTransport(sender: rig.sender)
      let alert = FCMAnswerTests.alert()
      var phone = FCMAnswerTests.device()
      phone.token = "android-token-1"
      var installation = FCMAnswerTests.device(.installation)
      installation.token = "android-installation-2"
      #expect(await transport.deliver(alert, to: phone) == .delivered)
      #expect(await transport.deliver(alert, to: installation) == .delivered)
      let sent = try await rig.log("fcm")
      #expect(sent.count == 2, "\(sent)")
      let message = try #require(sent.first?["message"] as? [String: Any] ?? sent.first?["payload"] as? [String: Any])
      #expect(message["token"] as? String == "android-token-1")
      #expect(message["data"] as? [String: String] == alert.data)
      let android = try #require(message["android"] as? [String: Any])
      #expect(android["collapse_key"] as? String == "game:1" && android["priority"] as? String == "HIGH")
      let second = try #require(sent.last?["message"] as? [String: Any] ?? sent.last?["payload"] as? [String: Any])
      #expect(second["fid"] as? String == "android-installation-2")
      #expect(try await rig.log("oauth").count == 1, "one access token, shared")
    }
  }

  @Test func theFakesScriptedAnswersMeanWhatTheMatrixSays() async throws {
    try await Self.with { rig in
      let transport = FCMTransport(sender: rig.sender)
      let alert = FCMAnswerTests.alert()
      func phone(_ token: String) -> Device {
        var device = FCMAnswerTests.device()
        device.token = token
        return device
      }
      try await rig.control("/_control/script", ["target": "gone", "api": "fcm", "reason": "UNREGISTERED"])
      guard case .suspend(let gone) = await transport.deliver(alert, to: phone("gone")) else {
        Issue.record("UNREGISTERED suspends")
        return
      }
      #expect(gone.kind == .disabled)
      try await rig.control(
        "/_control/script", ["target": "busy", "api": "fcm", "reason": "QUOTA_EXCEEDED", "retry_after": "7"])
      guard case .retry(_, let after) = await transport.deliver(alert, to: phone("busy")) else {
        Issue.record("QUOTA_EXCEEDED retries")
        return
      }
      #expect(after == 7)
      try await rig.control("/_control/script", ["target": "down", "api": "fcm", "reason": "UNAVAILABLE"])
      guard case .retry = await transport.deliver(alert, to: phone("down")) else {
        Issue.record("UNAVAILABLE retries")
        return
      }
      // The fake forgets its access tokens: a 401, one refresh, and the message goes.
      try await rig.control("/_control/reset", [:])
      #expect(await transport.deliver(alert, to: phone("after-reset")) == .delivered)
      #expect(try await rig.log("oauth").count == 1, "the new token, after the reset")
    }
  }
}
