import AsyncHTTPClient
import CryptoExtras
import Foundation
import Logging
import NIOCore
import StatlineCore

/// FCM's OAuth 2.0 access token (PUSH.md §3): an RS256 assertion (RSASSA-PKCS1-v1_5 with
/// SHA-256, never PSS) of the service account, `aud` its `token_uri`, exchanged there for an
/// access token that is cached, shared by every connection and refreshed `refreshBefore` its
/// expiry; a 401 from FCM drops the token it refused, so the next request fetches a new one
/// (once: callers retry a request once). Concurrent callers share one exchange. An actor: the
/// held token and the exchange in flight are state many sends read at once.
public actor FCMAccessTokens {
  /// Why no access token could be had.
  public enum Failure: Error, Sendable, Equatable {
    /// The token endpoint refused the assertion (a wrong key, account or clock): nothing will go
    /// until it is mended.
    case refused(String)
    /// No answer, or a 5xx: try again later.
    case unavailable(String)
  }

  /// The scope FCM's send API needs.
  public static let scope = "https://www.googleapis.com/auth/firebase.messaging"
  /// How long before its expiry a token is replaced.
  public static let refreshBefore: TimeInterval = 5 * 60
  /// The assertion's lifetime (Google's most: an hour).
  static let assertionLifetime = 3600

  struct Issued {
    var token: String
    var expiresAt: Date
  }

  public let account: FCMServiceAccount
  private let exchange: @Sendable (_ assertion: String) async throws(Failure) -> (token: String, expiresIn: Int)
  private let now: @Sendable () -> Date
  private var held: Issued?
  private var pending: Task<Issued, any Error>?
  /// Access tokens fetched so far.
  public private(set) var fetched = 0

  /// - Parameter exchange: posts an assertion to `account.tokenURI` (`FCMAccessTokens.post`).
  public init(
    account: FCMServiceAccount, now: @escaping @Sendable () -> Date,
    exchange: @escaping @Sendable (_ assertion: String) async throws(Failure) -> (token: String, expiresIn: Int)
  ) {
    self.account = account
    self.now = now
    self.exchange = exchange
  }

  /// Exchanging over `client` (a connection of its own: the token endpoint is another host).
  public init(
    account: FCMServiceAccount, client: HTTP2Clients, deadline: Duration, now: @escaping @Sendable () -> Date
  ) {
    self.init(account: account, now: now) { assertion throws(Failure) in
      try await Self.post(assertion, to: account.tokenURI, over: client, deadline: deadline)
    }
  }

  /// The access token to send with now.
  public func current() async throws(Failure) -> String {
    if let held, held.expiresAt.timeIntervalSince(now()) > Self.refreshBefore { return held.token }
    let task: Task<Issued, any Error>
    if let pending {
      task = pending
    } else {
      let assertion = Self.assertion(account, issuedAt: now())
      let exchange = exchange
      let issuedAt = now()
      task = Task { () throws -> Issued in
        let (token, expiresIn) = try await exchange(assertion)
        return Issued(token: token, expiresAt: issuedAt.addingTimeInterval(TimeInterval(expiresIn)))
      }
      pending = task
    }
    do {
      let issued = try await task.value
      if pending == task {
        pending = nil
        held = issued
        fetched += 1
      }
      return issued.token
    } catch {
      if pending == task { pending = nil }
      throw (error as? Failure) ?? .unavailable("\(error)")
    }
  }

  /// FCM answered 401 to `token`: it is dropped (unless another replaced it meanwhile), so the
  /// next `current()` fetches a new one.
  public func refused(_ token: String) {
    if held?.token == token { held = nil }
  }

  /// The signed assertion: header `{"alg":"RS256","typ":"JWT","kid":…}`, claims `iss`,
  /// `scope`, `aud` (the token URI), integer `iat` and `exp` an hour later.
  public static func assertion(_ account: FCMServiceAccount, issuedAt: Date) -> String {
    let iat = Int(issuedAt.timeIntervalSince1970.rounded(.down))
    let header = #"{"alg":"RS256","typ":"JWT","kid":\#(json(account.keyId))}"#
    let claims =
      #"{"iss":\#(json(account.clientEmail)),"scope":\#(json(scope)),"aud":\#(json(account.tokenURI)),"#
      + #""iat":\#(iat),"exp":\#(iat + assertionLifetime)}"#
    let input = JWS.signingInput(header: header, claims: claims)
    // Signing with a key `FCMServiceAccount` read cannot fail; an empty signature would be
    // refused by the endpoint and reported as a configuration error.
    let signature = (try? account.key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation)
    return input + "." + JWS.base64URL(signature ?? Data())
  }

  /// A JSON string literal.
  static func json(_ text: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data()
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
  }

  /// The OAuth 2.0 JWT-bearer grant (RFC 7523): the assertion posted form-encoded to `uri`.
  static func post(
    _ assertion: String, to uri: String, over clients: HTTP2Clients, deadline: Duration
  ) async throws(Failure) -> (token: String, expiresIn: Int) {
    var request = HTTPClientRequest(url: uri)
    request.method = .POST
    request.headers.add(name: "content-type", value: "application/x-www-form-urlencoded")
    request.body = .bytes(
      ByteBuffer(string: "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=\(assertion)"))
    let status: Int
    let body: Data
    do {
      let (client, _) = clients.take()
      let response = try await client.execute(request, deadline: deadline.deadlineFromNow, logger: nil)
      status = Int(response.status.code)
      body = Data(try await response.body.collect(upTo: 64 * 1024).readableBytesView)
    } catch {
      throw .unavailable("the token endpoint gave no answer: \(APNsSender.describe(error))")
    }
    let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    if status == 200, let token = object?["access_token"] as? String, !token.isEmpty {
      return (token, (object?["expires_in"] as? NSNumber)?.intValue ?? 3599)
    }
    let error = [object?["error"] as? String, object?["error_description"] as? String].compactMap { $0 }
      .joined(separator: ": ").prefix(300)
    let said = "the token endpoint answered \(status)\(error.isEmpty ? "" : " \(error)")"
    if status >= 500 || status == 429 { throw .unavailable(said) }
    throw .refused(
      said + " (is push.fcm.serviceAccountFile the project's current key, and this machine's clock right?)")
  }
}
