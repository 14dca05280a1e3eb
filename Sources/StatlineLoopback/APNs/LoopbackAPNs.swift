import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// An APNs provider API on 127.0.0.1 for tests: HTTP/2 over TLS (ALPN `h2`, certificates made
/// at start), checking each request as Apple documents (PUSH.md §2, in the order of Pushy's
/// validating mock server: apns-id, method, path, topic, collapse id, priority, push type,
/// expiration, token, topic for the push type, the provider token's signature, key, team and
/// age, the 20-minute rule per connection, the payload), answering in Apple's format, and
/// scriptable per device token: any status and reason, a 410 timestamp, a delay, no answer at
/// all, a GOAWAY. Its JWT checks share no code with the sender's.
public final class LoopbackAPNs: Sendable {
  /// What the fake says to the next request(s) for one token (or `*`).
  public struct Scripted: Sendable {
    public var status: Int
    public var reason: String?
    /// A 410's `timestamp` (milliseconds).
    public var timestamp: Int64?
    /// Answer after this long.
    public var delay: Duration?
    /// Never answer (the sender's deadline ends it).
    public var never: Bool

    public init(
      status: Int = 200, reason: String? = nil, timestamp: Int64? = nil, delay: Duration? = nil, never: Bool = false
    ) {
      self.status = status
      self.reason = reason
      self.timestamp = timestamp
      self.delay = delay
      self.never = never
    }
  }

  /// A push the fake accepted.
  public struct Accepted: Sendable {
    public var deviceToken: String
    public var headers: [String: String]
    public var payload: [String: any Sendable]
    public var payloadBytes: Int
    public var keyId: String
    public var issuedAt: Int
    /// Which connection (1, 2, …) and stream carried it.
    public var connection: Int
    public var stream: Int
  }

  /// A request refused, with the reason APNs would give and why.
  public struct Rejection: Error, Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var detail: String
  }

  struct Key {
    var teamId: String
    var publicKey: P256.Signing.PublicKey
  }

  struct State {
    var keys: [String: Key]
    var topics: Set<String>
    var scripts: [String: [Scripted]] = [:]
    var accepted: [Accepted] = []
    var rejected: [Rejection] = []
    /// Per connection: the token it last presented and when it was first presented.
    var tokens: [Int: (token: String, since: Date)] = [:]
    var connections = 0
    var goAwayAfter: Int?
    /// Whether each accepted push is kept whole (tests) or only counted (benchmarks).
    var keepsAccepted = true
    var acceptedCount = 0
    var firstAccepted: ContinuousClock.Instant?
    var lastAccepted: ContinuousClock.Instant?
    /// Provider tokens whose signature was checked, with their claims (APNs checks a token
    /// once, not per request).
    var verified: [String: (keyId: String, issuedAt: Int)] = [:]
    /// Broadcast channels open (id → message storage policy), and those deleted.
    var channels: [String: Int] = [:]
    var closedChannels: [String] = []
  }

  let state: Mutex<State>
  let now: @Sendable () -> Date
  public let certificates: LoopbackCertificates
  public let port: Int
  private let channel: any Channel
  let log: LoopbackPushLog?

  /// Starts listening on a free port of 127.0.0.1.
  /// - Parameters:
  ///   - keys: key id → (team id, the key's public half as PEM).
  ///   - topics: the bundle ids allowed.
  ///   - now: the fake's clock (a provider token's age, the 20-minute rule).
  ///   - keepsAccepted: false to only count accepted pushes (`acceptedCount`, a benchmark's
  ///     100,000), not keep each.
  ///   - log: where each accepted push and each closed connection is written as it happens.
  public static func start(
    keys: [String: (teamId: String, publicKeyPEM: String)], topics: [String],
    now: @escaping @Sendable () -> Date = { Date() }, keepsAccepted: Bool = true, log: LoopbackPushLog? = nil
  ) async throws -> LoopbackAPNs {
    let certificates = try LoopbackCertificates()
    var parsed: [String: Key] = [:]
    for (id, key) in keys {
      parsed[id] = Key(teamId: key.teamId, publicKey: try .init(pemRepresentation: key.publicKeyPEM))
    }
    var state = State(keys: parsed, topics: Set(topics))
    state.keepsAccepted = keepsAccepted
    let box = LoopbackHTTP2.Held<LoopbackAPNs>()
    let channel = try await LoopbackHTTP2.listen(
      certificates: certificates, maxStreams: 1000,
      connected: {
        box.value?.state.withLock { state in
          state.connections += 1
          return state.connections
        } ?? 0
      },
      disconnected: { log?.closed(api: "apns", connection: $0) },
      answer: { request in
        box.value?.answer(request) ?? .init(status: 503, body: Self.reason("Shutdown", timestamp: nil))
      })
    let fake = LoopbackAPNs(
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

  /// `https://127.0.0.1:<port>`, for both environments.
  public var baseURL: String { "https://127.0.0.1:\(port)" }

  public func stop() async {
    try? await channel.close()
  }

  /// The next `times` requests for `target` (a device token, or `*` for any) get `answer`.
  public func script(_ target: String, _ answer: Scripted, times: Int = 1) {
    state.withLock { state in state.scripts[target, default: []] += Array(repeating: answer, count: times) }
  }

  /// A GOAWAY on each connection after `requests` more requests (0: at the next).
  public func goAway(after requests: Int) {
    state.withLock { $0.goAwayAfter = requests }
  }

  public var accepted: [Accepted] { state.withLock { $0.accepted } }
  public var rejected: [Rejection] { state.withLock { $0.rejected } }
  public var connections: Int { state.withLock { $0.connections } }
  /// Starts the count and its times again (a benchmark's next round).
  public func resetCount() {
    state.withLock { state in
      state.acceptedCount = 0
      state.firstAccepted = nil
      state.lastAccepted = nil
    }
  }

  /// Pushes accepted so far (kept or not), and when the first and the last were.
  public var acceptedCount: Int { state.withLock { $0.acceptedCount } }
  public var acceptedBetween: (first: ContinuousClock.Instant, last: ContinuousClock.Instant)? {
    state.withLock { state in state.firstAccepted.flatMap { first in state.lastAccepted.map { (first, $0) } } }
  }

  typealias Request = LoopbackHTTP2.Request
  typealias Answer = LoopbackHTTP2.Answer

  func answer(_ request: Request) -> Answer {
    let apnsId = request.headers.first(name: "apns-id") ?? UUID().uuidString.lowercased()
    let goAway = state.withLock { state -> Bool in
      guard let after = state.goAwayAfter else { return false }
      if after <= 0 {
        state.goAwayAfter = nil
        return true
      }
      state.goAwayAfter = after - 1
      return false
    }
    if request.path.hasPrefix(Self.channelsPath.prefix) && request.path.hasSuffix(Self.channelsPath.suffix) {
      return manageChannels(request)
    }
    let broadcast = request.path.hasPrefix(Self.broadcastPrefix)
    var answer: Answer
    switch broadcast ? checkBroadcast(request) : check(request) {
    case .failure(let rejection):
      state.withLock { $0.rejected.append(rejection) }
      answer = Answer(status: rejection.status, apnsId: apnsId, body: Self.reason(rejection.reason, timestamp: nil))
    case .success(let accepted):
      let token = accepted.deviceToken
      let scripted = state.withLock { state -> Scripted? in
        for target in [token, "*"] {
          if var queue = state.scripts[target], !queue.isEmpty {
            let first = queue.removeFirst()
            state.scripts[target] = queue
            return first
          }
        }
        return nil
      }
      if let scripted, scripted.status != 200 {
        answer = Answer(
          status: scripted.status, apnsId: apnsId,
          body: Self.reason(scripted.reason ?? "InternalServerError", timestamp: scripted.timestamp),
          delay: scripted.delay, never: scripted.never)
      } else {
        let at = ContinuousClock.now
        state.withLock { state in
          if state.keepsAccepted { state.accepted.append(accepted) }
          state.acceptedCount += 1
          state.firstAccepted = state.firstAccepted ?? at
          state.lastAccepted = at
        }
        log?.accepted(
          api: "apns", target: token, payload: accepted.payload, connection: request.connection,
          expires: accepted.headers["apns-expiration"].flatMap(Double.init).flatMap { $0 > 0 ? $0 : nil })
        answer = Answer(status: 200, apnsId: apnsId, body: [], delay: scripted?.delay, never: scripted?.never ?? false)
      }
    }
    answer.goAway = goAway
    if broadcast {
      // A broadcast answers with its request id (and a unique id when accepted), not apns-id.
      answer.headers = [("apns-request-id", request.headers.first(name: "apns-request-id") ?? apnsId)]
      if answer.status == 200 { answer.headers.append(("apns-unique-id", UUID().uuidString.lowercased())) }
      answer.apnsId = nil
    }
    return answer
  }

  static func reason(_ reason: String, timestamp: Int64?) -> [UInt8] {
    var object: [String: Any] = ["reason": reason]
    if let timestamp { object["timestamp"] = timestamp }
    return LoopbackHTTP2.json(object)
  }
}
