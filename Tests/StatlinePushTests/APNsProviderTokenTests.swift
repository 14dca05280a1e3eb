import Crypto
import Foundation
import StatlineCore
import StatlinePush
import Synchronization
import Testing

/// The provider token as Apple checks it, and the 20- and 60-minute rules on a manual clock.
@Suite struct APNsProviderTokenTests {
  static let key = APNsSigningKey(generatedWithKeyId: "ABC123DEFG", teamId: "TEAM123456")

  final class Clock: Sendable {
    let time = Mutex(Date(timeIntervalSince1970: 1_772_900_000))
    func callAsFunction() -> Date { time.withLock { $0 } }
    func advance(minutes: Double) { time.withLock { $0 += minutes * 60 } }
  }

  static func decode(_ part: Substring) throws -> Data {
    var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    return try #require(Data(base64Encoded: text))
  }

  @Test func theTokenIsES256WithARawSignatureAnIntegerIatAndNoPadding() throws {
    let token = APNsProviderToken.make(Self.key, issuedAt: Date(timeIntervalSince1970: 1_772_900_000.7))
    let parts = token.split(separator: ".")
    #expect(parts.count == 3 && !token.contains("="))
    #expect(String(decoding: try Self.decode(parts[0]), as: UTF8.self) == #"{"alg":"ES256","kid":"ABC123DEFG"}"#)
    let claims = try #require(try JSONSerialization.jsonObject(with: try Self.decode(parts[1])) as? [String: Any])
    #expect(claims["iss"] as? String == "TEAM123456")
    let text = String(decoding: try Self.decode(parts[1]), as: UTF8.self)
    #expect(text == #"{"iss":"TEAM123456","iat":1772900000}"#, "an integer iat, not a string or a fraction")
    let signature = try Self.decode(parts[2])
    #expect(signature.count == 64, "raw r‖s, not DER")
    let publicKey = try P256.Signing.PublicKey(pemRepresentation: Self.key.publicKeyPEM)
    let raw = try P256.Signing.ECDSASignature(rawRepresentation: signature)
    #expect(publicKey.isValidSignature(raw, for: Data("\(parts[0]).\(parts[1])".utf8)))
  }

  @Test func oneTokenIsReusedForFiftyMinutesAndNeverRenewedWithinTwenty() {
    let clock = Clock()
    let tokens = APNsProviderTokens(key: Self.key, now: { clock() })
    let first = tokens.current()
    clock.advance(minutes: 10)
    #expect(tokens.current() == first)
    #expect(tokens.renewed(after: first) == first, "an ExpiredProviderToken within 20 minutes keeps it")
    clock.advance(minutes: 11)
    let second = tokens.renewed(after: first)
    #expect(second != first, "after 20 minutes an ExpiredProviderToken renews it")
    #expect(tokens.renewed(after: first) == second, "a connection that sent the old one gets the new one")
    clock.advance(minutes: 49)
    #expect(tokens.current() == second)
    clock.advance(minutes: 1)
    #expect(tokens.current() != second, "renewed at 50 minutes, before Apple's hour")
  }

  @Test func aBadKeyIsAConfigurationErrorThatNeverQuotesIt() {
    let pem = "-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWtleS1ieXRlcw==\n-----END PRIVATE KEY-----\n"
    let error = #expect(throws: StatlineError.self) {
      try APNsSigningKey(pem: pem, keyId: "ABC123DEFG", teamId: "TEAM123456", file: "AuthKey.p8")
    }
    #expect(error?.kind == .configuration && error?.location == "AuthKey.p8")
    #expect(error?.description.contains("c2VjcmV0") == false)
    let short = #expect(throws: StatlineError.self) {
      try APNsSigningKey(pem: Self.key.privateKeyPEM, keyId: "ABC", teamId: "TEAM123456")
    }
    #expect(short?.reason.contains("keyId") == true)
    #expect((try? APNsSigningKey(pem: Self.key.privateKeyPEM, keyId: "ABC123DEFG", teamId: "TEAM123456")) != nil)
  }
}
