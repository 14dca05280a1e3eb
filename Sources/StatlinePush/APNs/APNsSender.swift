import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import StatlineCore

/// Sends one push to APNs and says what its answer means (`APNsAnswer.Action`): with the shared
/// provider token, over the pooled HTTP/2 connections, with a finite deadline on every request
/// (a hung request ends, it never waits until a restart). An `ExpiredProviderToken` renews the
/// token (the 20-minute floor holds) and the connection and retries once; a payload over 4096
/// bytes is dropped before a byte is sent; no answer at all (a reset, a timeout, a refused
/// connection) is `retryUntilExpiry`. Retrying later is the caller's (the outbox's): the sender
/// makes one attempt, or two after a renewal.
public struct APNsSender: Sendable {
  /// What came of one push.
  public struct Outcome: Sendable, Equatable {
    public var action: APNsAnswer.Action
    /// The answer, when there was one.
    public var answer: APNsAnswer?
    /// Why there was none (`timed out after 10 s`, `connection reset`).
    public var failure: String?
    /// Requests made (2 after a renewal).
    public var requests: Int
  }

  public let tokens: APNsProviderTokens
  public let connections: APNsConnections
  /// Each request's deadline.
  public let deadline: Duration
  let now: @Sendable () -> Date
  let logger: Logger

  public init(
    tokens: APNsProviderTokens, connections: APNsConnections, deadline: Duration = .seconds(10),
    now: @escaping @Sendable () -> Date, logger: Logger = Logger(label: "statline.push.apns")
  ) {
    self.tokens = tokens
    self.connections = connections
    self.deadline = deadline
    self.now = now
    self.logger = logger
  }

  public func send(_ push: APNsPush) async -> Outcome {
    guard push.payload.count <= APNsPush.maximumPayloadBytes else {
      return Outcome(
        action: .drop("PayloadTooLarge: the payload is \(push.payload.count) bytes, over APNs' 4096"), answer: nil,
        failure: nil, requests: 0)
    }
    var token = tokens.current()
    var requests = 0
    while true {
      let (client, index) = connections.take(push.environment)
      requests += 1
      let answer: APNsAnswer
      do {
        answer = try await post(push, token: token, on: client)
      } catch {
        logger.debug(
          "APNs gave no answer", metadata: ["token": "\(Device.shown(push.deviceToken))", "error": "\(error)"])
        return Outcome(action: .retryUntilExpiry, answer: nil, failure: Self.describe(error), requests: requests)
      }
      let action = answer.action(at: now())
      switch action {
      case .renewTokenAndRetryOnce where requests == 1:
        token = tokens.renewed(after: token)
        connections.replace(push.environment, index, client)
        continue
      case .renewTokenAndRetryOnce:
        return Outcome(
          action: .configurationError(
            "APNs answered ExpiredProviderToken to a renewed token: is this machine's clock right?"),
          answer: answer, failure: nil, requests: requests)
      case .recycleConnection:
        connections.replace(push.environment, index, client)
        return Outcome(action: action, answer: answer, failure: nil, requests: requests)
      default:
        return Outcome(action: action, answer: answer, failure: nil, requests: requests)
      }
    }
  }

  private func post(_ push: APNsPush, token: String, on client: HTTPClient) async throws -> APNsAnswer {
    var request = HTTPClientRequest(url: connections.endpoints.base(push.environment) + push.path)
    request.method = .POST
    request.headers.add(name: "authorization", value: "bearer \(token)")
    for (name, value) in push.headers { request.headers.add(name: name, value: value) }
    request.headers.add(name: "content-type", value: "application/json")
    request.body = .bytes(ByteBuffer(bytes: push.payload))
    let response = try await client.execute(request, deadline: deadline.deadlineFromNow, logger: nil)
    let body = try await response.body.collect(upTo: 64 * 1024)
    return APNsAnswer(
      status: Int(response.status.code),
      apnsId: response.headers.first(name: "apns-id") ?? response.headers.first(name: "apns-request-id"),
      body: Data(body.readableBytesView))
  }

  /// A transport error in a few words.
  static func describe(_ error: any Error) -> String {
    if let error = error as? HTTPClientError {
      switch error {
      case .deadlineExceeded: return "no answer before the deadline"
      case .remoteConnectionClosed: return "APNs closed the connection"
      default: return "\(error)"
      }
    }
    return "\(error)"
  }
}
