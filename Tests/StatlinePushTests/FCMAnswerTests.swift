import CryptoExtras
import Foundation
import StatlineCore
import Testing

@testable import StatlinePush

/// FCM's answers as the sender reads them (by `details[].errorCode` first), every row of PUSH.md
/// §3's matrix without a connection; the OAuth assertion's shape and its PKCS#1 v1.5 signature;
/// the message's fields; the service-account file's refusals, none quoting the key.
@Suite struct FCMAnswerTests {
  static let now = Date(timeIntervalSince1970: 1_772_900_000)

  static func body(_ status: Int, _ code: String?, field: String? = nil, message: String = "m") -> Data {
    var details: [[String: Any]] = []
    if let code { details.append(["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code]) }
    if let field {
      details.append([
        "@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [["field": field]],
      ])
    }
    return try! JSONSerialization.data(withJSONObject: [
      "error": ["code": status, "message": message, "status": "X", "details": details]
    ])
  }

  static func action(_ status: Int, _ code: String?, field: String? = nil, retryAfter: String? = nil)
    -> FCMAnswer.Action
  {
    FCMAnswer(status: status, retryAfter: retryAfter, body: body(status, code, field: field), at: now).action
  }

  @Test func everyRowOfTheMatrix() {
    #expect(
      FCMAnswer(status: 200, retryAfter: nil, body: Data(#"{"name":"projects/p/messages/1"}"#.utf8), at: Self.now)
        .action == .accepted(name: "projects/p/messages/1"))
    guard case .disable = Self.action(404, "UNREGISTERED") else {
      Issue.record("UNREGISTERED disables")
      return
    }
    guard case .disable = Self.action(400, "INVALID_ARGUMENT", field: "message.token") else {
      Issue.record("an INVALID_ARGUMENT naming the token disables the device")
      return
    }
    guard case .drop = Self.action(400, "INVALID_ARGUMENT", field: "message.android.ttl") else {
      Issue.record("another INVALID_ARGUMENT drops the message, never retried")
      return
    }
    guard case .configurationError(let why) = Self.action(403, "SENDER_ID_MISMATCH") else {
      Issue.record("SENDER_ID_MISMATCH is a configuration error")
      return
    }
    #expect(why.contains("push.fcm.project"))
    guard case .configurationError = Self.action(401, "THIRD_PARTY_AUTH_ERROR") else {
      Issue.record("THIRD_PARTY_AUTH_ERROR is a configuration error, not a token refresh")
      return
    }
    #expect(Self.action(401, nil) == .refreshTokenAndRetryOnce)
    for (status, code) in [(429, "QUOTA_EXCEEDED"), (503, "UNAVAILABLE"), (500, "INTERNAL"), (502, nil)] {
      guard case .retry(_, let after) = Self.action(status, code, retryAfter: "7") else {
        Issue.record("\(status) \(code ?? "") backs off")
        continue
      }
      #expect(after == 7)
    }
    // A body that is not FCM's JSON is read by its status.
    #expect(
      FCMAnswer(status: 401, retryAfter: nil, body: Data("<html>".utf8), at: Self.now).action
        == .refreshTokenAndRetryOnce)
    guard case .configurationError = Self.action(403, nil) else {
      Issue.record("a bare 403")
      return
    }
  }

  @Test func retryAfterIsSecondsOrAnHTTPDate() {
    #expect(FCMAnswer.seconds("120", at: Self.now) == 120)
    let later = Self.now.addingTimeInterval(90)
    let format = DateFormatter()
    format.locale = Locale(identifier: "en_US_POSIX")
    format.timeZone = TimeZone(identifier: "GMT")
    format.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    #expect(FCMAnswer.seconds(format.string(from: later), at: Self.now) == 90)
    #expect(FCMAnswer.seconds("soon", at: Self.now) == nil)
  }

  static let account = FCMServiceAccount(
    generatedFor: "push@example-scores.iam.gserviceaccount.com", projectId: "example-scores",
    tokenURI: "https://oauth2.example.test/token")

  @Test func theAssertionIsRS256WithPKCS1v15AndIntegerTimes() throws {
    let jwt = FCMAccessTokens.assertion(Self.account, issuedAt: Self.now)
    let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
    try #require(parts.count == 3)
    #expect(!jwt.contains("="))
    let header = try #require(
      JSONSerialization.jsonObject(with: APNsProviderTokenTests.decode(parts[0])) as? [String: Any])
    #expect(header["alg"] as? String == "RS256" && header["kid"] as? String == Self.account.keyId)
    let claims = try #require(
      JSONSerialization.jsonObject(with: APNsProviderTokenTests.decode(parts[1])) as? [String: Any])
    #expect(claims["iss"] as? String == Self.account.clientEmail)
    #expect(claims["aud"] as? String == "https://oauth2.example.test/token")
    #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
    #expect(claims["iat"] as? Int == 1_772_900_000 && claims["exp"] as? Int == 1_772_903_600)
    let key = try _RSA.Signing.PublicKey(pemRepresentation: Self.account.publicKeyPEM)
    let signature = _RSA.Signing.RSASignature(rawRepresentation: try APNsProviderTokenTests.decode(parts[2]))
    let input = Data("\(parts[0]).\(parts[1])".utf8)
    #expect(key.isValidSignature(signature, for: input, padding: .insecurePKCS1v1_5))
    #expect(!key.isValidSignature(signature, for: input, padding: .PSS))
  }

  static func alert(silent: Bool = false, expiresIn: TimeInterval = 300) -> PlannedAlert {
    PlannedAlert(
      deviceId: "dev_1", eventId: "evt_7", kind: .score, body: "GOAL Duke 5, North Carolina 4 · 2nd 04:06",
      threadId: "game:1", collapseId: "game:1", expiresAt: now.addingTimeInterval(expiresIn), silent: silent,
      data: ["gameId": "game:1", "sport": "lacrosse-men", "eventId": "evt_7"])
  }

  static func device(_ type: Device.TokenType? = nil) -> Device {
    Device(
      id: "dev_1", kind: .fcm, token: "fcm-token-1", environment: .production, topic: "com.example.scores",
      teams: ["team:193"], registeredAt: "x", updatedAt: "x", tokenType: type)
  }

  @Test func theMessageCollapsesPerGameAndLivesUntilTheAlertExpires() throws {
    let message = FCMMessage.alert(Self.alert(), to: Self.device(), at: Self.now.addingTimeInterval(20))
    let object = try #require(JSONSerialization.jsonObject(with: message.body) as? [String: Any])
    let body = try #require(object["message"] as? [String: Any])
    #expect(body["token"] as? String == "fcm-token-1" && body["fid"] == nil)
    #expect((body["notification"] as? [String: String])?["body"] == "GOAL Duke 5, North Carolina 4 · 2nd 04:06")
    #expect(body["data"] as? [String: String] == ["gameId": "game:1", "sport": "lacrosse-men", "eventId": "evt_7"])
    let android = try #require(body["android"] as? [String: Any])
    #expect(android["collapse_key"] as? String == "game:1" && android["ttl"] as? String == "280s")
    #expect(android["priority"] as? String == "HIGH")
    #expect((android["notification"] as? [String: Any])?["tag"] as? String == "game:1")
    #expect(message.size < message.body.count)

    let quiet = FCMMessage.alert(Self.alert(silent: true), to: Self.device(.installation), at: Self.now)
    let quietBody = try #require(
      (JSONSerialization.jsonObject(with: quiet.body) as? [String: Any])?["message"] as? [String: Any])
    #expect(quietBody["fid"] as? String == "fcm-token-1" && quietBody["token"] == nil)
    #expect((quietBody["android"] as? [String: Any])?["priority"] as? String == "NORMAL")
    // An alert already past its expiry has no life left, never a negative ttl.
    let late = FCMMessage.alert(Self.alert(expiresIn: 10), to: Self.device(), at: Self.now.addingTimeInterval(60))
    #expect(String(decoding: late.body, as: UTF8.self).contains(#""ttl":"0s""#))
  }

  @Test func aServiceAccountFileIsRefusedByFieldWithoutQuotingTheKey() throws {
    let good = try #require(JSONSerialization.jsonObject(with: Self.account.json) as? [String: String])
    let read = try FCMServiceAccount(json: Self.account.json)
    #expect(read.clientEmail == Self.account.clientEmail && read.projectId == "example-scores")
    #expect(!"\(read)".contains("PRIVATE KEY"))
    let cases: [(String, [String: String], String)] = [
      ("no key", good.filter { $0.key != "private_key" }, "has no private_key"),
      (
        "bad key", good.merging(["private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"]) { $1 },
        "private_key is not an RSA private key"
      ),
      ("http", good.merging(["token_uri": "http://oauth2.example.test/token"]) { $1 }, "token_uri is not an https URL"),
      ("type", good.merging(["type": "authorized_user"]) { $1 }, "not service_account"),
      ("email", good.filter { $0.key != "client_email" }, "has no client_email"),
    ]
    for (name, fields, says) in cases {
      let data = try JSONSerialization.data(withJSONObject: fields)
      do {
        _ = try FCMServiceAccount(json: data, file: "sa.json")
        Issue.record("\(name): taken")
      } catch {
        #expect(error.reason.contains(says), "\(name): \(error.reason)")
        #expect(
          !"\(error)".contains("BEGIN PRIVATE KEY")
            && !"\(error)".contains(String(good["private_key"]!.dropFirst(40).prefix(40))))
      }
    }
    #expect(throws: StatlineError.self) { try FCMServiceAccount(json: Data("[1]".utf8)) }
  }
}
