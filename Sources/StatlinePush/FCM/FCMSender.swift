import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import StatlineCore

/// Sends one message to FCM HTTP v1 (`POST <base>/v1/projects/<project>/messages:send`) and
/// says what its answer means (`FCMAnswer.Action`): with the shared access token, over the
/// pooled long-lived HTTP/2 connections (each keeps within FCM's 100 streams: async-http-client
/// obeys the server's `MAX_CONCURRENT_STREAMS` and queues the rest), with a finite deadline on
/// every request. A 401 drops the access token and retries once with a new one; a message over
/// 4096 bytes is dropped before a byte is sent; no answer at all is a retry. Retrying later is
/// the outbox's.
public struct FCMSender: Sendable {
  public struct Outcome: Sendable, Equatable {
    public var action: FCMAnswer.Action
    public var answer: FCMAnswer?
    /// Requests made (2 after a refresh).
    public var requests: Int
  }

  public let tokens: FCMAccessTokens
  public let connections: HTTP2Clients
  /// `https://fcm.googleapis.com`, or a loopback fake's.
  public let baseURL: String
  /// The Firebase project id.
  public let project: String
  public let deadline: Duration
  let now: @Sendable () -> Date
  let logger: Logger

  public static let google = "https://fcm.googleapis.com"

  public init(
    tokens: FCMAccessTokens, connections: HTTP2Clients, baseURL: String = Self.google, project: String,
    deadline: Duration = .seconds(10), now: @escaping @Sendable () -> Date,
    logger: Logger = Logger(label: "statline.push.fcm")
  ) {
    self.tokens = tokens
    self.connections = connections
    self.baseURL = baseURL
    self.project = project
    self.deadline = deadline
    self.now = now
    self.logger = logger
  }

  public var sendURL: String { baseURL + "/v1/projects/\(project)/messages:send" }

  public func send(_ message: FCMMessage) async -> Outcome {
    guard message.size <= FCMMessage.maximumBytes else {
      return Outcome(
        action: .drop("the message is \(message.size) bytes, over FCM's \(FCMMessage.maximumBytes)"), answer: nil,
        requests: 0)
    }
    var requests = 0
    while true {
      let token: String
      do {
        token = try await tokens.current()
      } catch {
        switch error {
        case .refused(let why):
          return Outcome(
            action: .configurationError("no FCM access token: \(why)"), answer: nil, requests: requests)
        case .unavailable(let why):
          return Outcome(
            action: .retry(why: "no FCM access token: \(why)", retryAfter: nil), answer: nil, requests: requests)
        }
      }
      requests += 1
      let answer: FCMAnswer
      do {
        answer = try await post(message, token: token)
      } catch {
        logger.debug(
          "FCM gave no answer", metadata: ["token": "\(Device.shown(message.deviceToken))", "error": "\(error)"])
        return Outcome(
          action: .retry(why: "FCM gave no answer: \(APNsSender.describe(error))", retryAfter: nil), answer: nil,
          requests: requests)
      }
      switch answer.action {
      case .refreshTokenAndRetryOnce where requests == 1:
        await tokens.refused(token)
        continue
      case .refreshTokenAndRetryOnce:
        return Outcome(
          action: .configurationError(
            "FCM answered 401 to a fresh access token: does the service account have the Firebase Messaging role?"),
          answer: answer, requests: requests)
      case let action:
        return Outcome(action: action, answer: answer, requests: requests)
      }
    }
  }

  private func post(_ message: FCMMessage, token: String) async throws -> FCMAnswer {
    var request = HTTPClientRequest(url: sendURL)
    request.method = .POST
    request.headers.add(name: "authorization", value: "Bearer \(token)")
    request.headers.add(name: "content-type", value: "application/json; charset=UTF-8")
    request.body = .bytes(ByteBuffer(bytes: message.body))
    let (client, _) = connections.take()
    let response = try await client.execute(request, deadline: deadline.deadlineFromNow, logger: nil)
    let body = try await response.body.collect(upTo: 64 * 1024)
    return FCMAnswer(
      status: Int(response.status.code), retryAfter: response.headers.first(name: "retry-after"),
      body: Data(body.readableBytesView), at: now())
  }
}

/// `FCMSender` as a transport: an alert to an `fcm` device; the answer's action as a verdict.
public struct FCMTransport: PushTransport {
  public let sender: FCMSender
  public var kinds: Set<Device.Kind> { [.fcm] }

  public init(sender: FCMSender) { self.sender = sender }

  public func deliver(_ alert: PlannedAlert, to device: Device) async -> PushVerdict {
    let time = sender.now()
    guard alert.activity == nil else { return .dropped("a Live Activity update is APNs', not FCM's") }
    let outcome = await sender.send(FCMMessage.alert(alert, to: device, at: time))
    return Self.verdict(outcome.action, at: sender.now())
  }

  static func verdict(_ action: FCMAnswer.Action, at now: Date) -> PushVerdict {
    switch action {
    case .accepted: return .delivered
    case .disable(let why):
      return .suspend(.init(kind: .disabled, why: why, since: APNsTransport.instant(now)))
    case .drop(let why): return .dropped(why)
    case .refreshTokenAndRetryOnce: return .retry("FCM refused the access token")
    case .configurationError(let why): return .misconfigured(why)
    case .retry(let why, let after): return .retry(why, after: after)
    }
  }
}
