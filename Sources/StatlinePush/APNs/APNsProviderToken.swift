import Crypto
import Foundation
import Synchronization

/// The provider token every request to APNs carries (`authorization: bearer <JWT>`), as Apple
/// wants it: header `{"alg":"ES256","kid":<key id>}`, claims `{"iss":<team id>,"iat":<integer
/// seconds>}`, signed ES256 with the signature as JOSE's raw r‖s (64 bytes), base64url without
/// padding — never DER, never a string `iat`.
public enum APNsProviderToken {
  public static func make(_ key: APNsSigningKey, issuedAt: Date) -> String {
    let header = #"{"alg":"ES256","kid":"\#(key.keyId)"}"#
    let claims = #"{"iss":"\#(key.teamId)","iat":\#(Int(issuedAt.timeIntervalSince1970.rounded(.down)))}"#
    let input = JWS.signingInput(header: header, claims: claims)
    // P-256 signing with SHA-256 cannot fail for a valid key; `signature(for:)` throws only on
    // an unusable key, which `APNsSigningKey` refused at start.
    let signature = (try? key.key.signature(for: Data(input.utf8)).rawRepresentation) ?? Data()
    return input + "." + JWS.base64URL(signature)
  }
}

/// One provider token per key, shared by every connection (Apple: renew no more than once every
/// 20 minutes and no less than once an hour): reused until it is `renewAfter` (50 minutes) old;
/// after an `ExpiredProviderToken` answer it is renewed at once, unless it is younger than
/// `floor` (20 minutes), when renewing would earn a 429 `TooManyProviderTokenUpdates` and the
/// same token is kept. The clock is injected.
public final class APNsProviderTokens: Sendable {
  public static let renewAfter: TimeInterval = 50 * 60
  public static let floor: TimeInterval = 20 * 60

  struct Issued {
    var token: String
    var at: Date
  }

  private let key: APNsSigningKey
  private let now: @Sendable () -> Date
  private let issued = Mutex<Issued?>(nil)

  public init(key: APNsSigningKey, now: @escaping @Sendable () -> Date) {
    self.key = key
    self.now = now
  }

  /// The token to send now.
  public func current() -> String {
    let time = now()
    return issued.withLock { issued in
      if let held = issued, time.timeIntervalSince(held.at) < Self.renewAfter, time >= held.at { return held.token }
      let fresh = Issued(token: APNsProviderToken.make(key, issuedAt: time), at: time)
      issued = fresh
      return fresh.token
    }
  }

  /// The token to retry with after APNs answered `ExpiredProviderToken` to `rejected`: a new one,
  /// unless the one held is another already (a connection renewed it meanwhile) or is younger
  /// than `floor`.
  public func renewed(after rejected: String) -> String {
    let time = now()
    return issued.withLock { issued in
      if let held = issued, held.token != rejected || time.timeIntervalSince(held.at) < Self.floor {
        return held.token
      }
      let fresh = Issued(token: APNsProviderToken.make(key, issuedAt: time), at: time)
      issued = fresh
      return fresh.token
    }
  }
}
