import CryptoExtras
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// FCM HTTP v1 and its OAuth token endpoint on 127.0.0.1 for tests (PUSH.md §3): HTTP/2 over
/// TLS (certificates made at start) advertising FCM's 100 streams; `POST /token` takes a service
/// account's RS256 assertion (PKCS#1 v1.5, a known `client_email` and key id, `aud` this
/// endpoint, an hour at most, the messaging scope) for an access token; `POST
/// /v1/projects/<p>/messages:send` checks the access token (401 UNAUTHENTICATED), the project
/// (403 SENDER_ID_MISMATCH) and the message (400 INVALID_ARGUMENT naming the field: one target,
/// string data, Android's `ttl` and `priority`, 4096 bytes), answering in FCM's error format,
/// scriptable per token: any status and `errorCode`, `Retry-After`, a delay, no answer.
public final class LoopbackFCM: Sendable {
  /// What the fake says to the next message(s) for one token (or `*`).
  public struct Scripted: Sendable {
    public var status: Int
    /// The `FcmError` `errorCode` (`UNREGISTERED`, `QUOTA_EXCEEDED`, …); nil: none.
    public var code: String?
    /// A `BadRequest` field violation (`message.token`).
    public var field: String?
    /// `Retry-After`, as sent.
    public var retryAfter: String?
    public var delay: Duration?
    public var never: Bool

    public init(
      status: Int, code: String? = nil, field: String? = nil, retryAfter: String? = nil, delay: Duration? = nil,
      never: Bool = false
    ) {
      self.status = status
      self.code = code
      self.field = field
      self.retryAfter = retryAfter
      self.delay = delay
      self.never = never
    }
  }

  /// A message the fake accepted.
  public struct Accepted: Sendable {
    /// The registration token or installation id it went to.
    public var target: String
    /// `token` or `fid`.
    public var targetField: String
    public var message: [String: any Sendable]
    public var connection: Int
    public var stream: Int
  }

  /// A request refused, with FCM's status, code and why.
  public struct Rejection: Sendable, Equatable {
    public var status: Int
    public var code: String
    public var detail: String
  }

  struct State {
    var accounts: [String: (keyId: String, key: _RSA.Signing.PublicKey)]
    var project: String
    var tokenLifetime: Int
    var scripts: [String: [Scripted]] = [:]
    var accepted: [Accepted] = []
    var rejected: [Rejection] = []
    /// Access tokens issued, and when each expires.
    var access: [String: Date] = [:]
    var issued = 0
    /// Every access token issued, revoked or not (a test checks none is logged).
    var everIssued: [String] = []
    var connections = 0
    var keepsAccepted = true
    var acceptedCount = 0
  }

  let state: Mutex<State>
  let now: @Sendable () -> Date
  public let certificates: LoopbackCertificates
  public let port: Int
  private let channel: any Channel
  let log: LoopbackPushLog?

  public static let tokenPath = "/token"

  /// Starts listening on a free port of 127.0.0.1.
  /// - Parameters:
  ///   - accounts: `client_email` → (its `private_key_id`, the key's public half as PEM).
  ///   - project: the Firebase project id messages must name.
  ///   - tokenLifetime: an access token's `expires_in`, in seconds.
  ///   - now: the fake's clock (assertions' age, access tokens' expiry).
  ///   - log: where each accepted message and each closed connection is written as it happens.
  public static func start(
    accounts: [String: (keyId: String, publicKeyPEM: String)], project: String, tokenLifetime: Int = 3599,
    now: @escaping @Sendable () -> Date = { Date() }, keepsAccepted: Bool = true, log: LoopbackPushLog? = nil
  ) async throws -> LoopbackFCM {
    let certificates = try LoopbackCertificates()
    var parsed: [String: (keyId: String, key: _RSA.Signing.PublicKey)] = [:]
    for (email, account) in accounts {
      parsed[email] = (account.keyId, try _RSA.Signing.PublicKey(pemRepresentation: account.publicKeyPEM))
    }
    var state = State(accounts: parsed, project: project, tokenLifetime: tokenLifetime)
    state.keepsAccepted = keepsAccepted
    let box = LoopbackHTTP2.Held<LoopbackFCM>()
    let channel = try await LoopbackHTTP2.listen(
      certificates: certificates, maxStreams: 100,
      connected: {
        box.value?.state.withLock { state in
          state.connections += 1
          return state.connections
        } ?? 0
      },
      disconnected: { log?.closed(api: "fcm", connection: $0) },
      answer: { request in box.value?.answer(request) ?? .init(status: 503, body: []) })
    let fake = LoopbackFCM(
      state: state, now: now, certificates: certificates, port: channel.localAddress?.port ?? 0, channel: channel,
      log: log)
    box.value = fake
    return fake
  }

  private init(
    state: State, now: @escaping @Sendable () -> Date, certificates: LoopbackCertificates, port: Int,
    channel: any Channel, log: LoopbackPushLog?
  ) {
    self.log = log
    self.state = Mutex(state)
    self.now = now
    self.certificates = certificates
    self.port = port
    self.channel = channel
  }

  /// `https://127.0.0.1:<port>`: FCM's base URL.
  public var baseURL: String { "https://127.0.0.1:\(port)" }
  /// The service account's `token_uri`.
  public var tokenURI: String { baseURL + Self.tokenPath }

  public func stop() async {
    try? await channel.close()
  }

  /// The next `times` messages for `target` (a token, or `*` for any) get `answer`.
  public func script(_ target: String, _ answer: Scripted, times: Int = 1) {
    state.withLock { state in state.scripts[target, default: []] += Array(repeating: answer, count: times) }
  }

  /// A new service account the fake knows, as Google's console writes its JSON file (an RSA
  /// key made here, `token_uri` this fake's, `project_id` its project): for tests and the demo.
  public func newServiceAccount(email: String) throws -> Data {
    let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
    let keyId = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    let project = state.withLock { state in
      state.accounts[email] = (keyId, key.publicKey)
      return state.project
    }
    let object: [String: String] = [
      "type": "service_account", "project_id": project, "private_key_id": keyId,
      "private_key": key.pemRepresentation, "client_email": email, "token_uri": tokenURI,
    ]
    return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .prettyPrinted])
  }

  /// Forgets every access token issued (as a revoked key would): the next message gets a 401.
  public func revokeAccessTokens() {
    state.withLock { $0.access = [:] }
  }

  public var accepted: [Accepted] { state.withLock { $0.accepted } }
  public var acceptedCount: Int { state.withLock { $0.acceptedCount } }
  public var rejected: [Rejection] { state.withLock { $0.rejected } }
  public var connections: Int { state.withLock { $0.connections } }
  /// Access tokens issued so far.
  public var accessTokensIssued: Int { state.withLock { $0.issued } }
  /// Every access token issued so far.
  public var accessTokens: [String] { state.withLock { $0.everIssued } }

  func answer(_ request: LoopbackHTTP2.Request) -> LoopbackHTTP2.Answer {
    if request.path == Self.tokenPath { return token(request) }
    let prefix = "/v1/projects/"
    let suffix = "/messages:send"
    guard request.path.hasPrefix(prefix), request.path.hasSuffix(suffix) else {
      return refuse(404, nil, "NOT_FOUND", "no such path \(request.path.prefix(80))")
    }
    return send(request, project: String(request.path.dropFirst(prefix.count).dropLast(suffix.count)))
  }

  /// An error answer in FCM's format (and kept as a rejection).
  func refuse(
    _ status: Int, _ code: String?, _ grpc: String, _ detail: String, field: String? = nil,
    headers: [(String, String)] = []
  ) -> LoopbackHTTP2.Answer {
    state.withLock { $0.rejected.append(Rejection(status: status, code: code ?? grpc, detail: detail)) }
    var details: [[String: Any]] = []
    if let code { details.append(["@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": code]) }
    if let field {
      details.append([
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        "fieldViolations": [["field": field, "description": detail]],
      ])
    }
    var error: [String: Any] = ["code": status, "message": detail, "status": grpc]
    if !details.isEmpty { error["details"] = details }
    return .init(status: status, body: LoopbackHTTP2.json(["error": error]), headers: headers)
  }
}
