import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import StatlineCore

/// APNs' channel management API (iOS 18 broadcast; PUSH.md §1): opens a game's channel
/// (`POST /1/apps/<bundle>/channels`, the id in the answer's `apns-channel-id`) and deletes it
/// (`DELETE` with that header), on Apple's management hosts, with the same provider token as the
/// pushes and a deadline on each request. An `ExpiredProviderToken` renews the token and retries
/// once; a channel APNs no longer knows counts as deleted.
public struct APNsChannels: BroadcastChannels {
  /// How APNs keeps a channel's messages for a phone that is offline: none, or the newest one
  /// (then a push may carry an expiration).
  public enum Storage: Int, Sendable, Equatable {
    case none = 0
    case latest = 1
  }

  /// Apple's management hosts.
  public static let apple = APNsConnections.Endpoints(
    production: "https://api-manage-broadcast.push.apple.com:2196",
    sandbox: "https://api-manage-broadcast.sandbox.push.apple.com:2195")

  public let tokens: APNsProviderTokens
  public let connections: APNsConnections
  public let storage: Storage
  public let deadline: Duration
  let logger: Logger

  public init(
    tokens: APNsProviderTokens, connections: APNsConnections, storage: Storage = .latest,
    deadline: Duration = .seconds(10), logger: Logger = Logger(label: "statline.push.apns")
  ) {
    self.tokens = tokens
    self.connections = connections
    self.storage = storage
    self.deadline = deadline
    self.logger = logger
  }

  /// What a management request came to.
  public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: Int?
    public var reason: String
    public var description: String {
      "APNs channel management: " + (status.map { "\($0) " } ?? "") + reason
    }
  }

  /// Opens a channel for `topic`'s Live Activities in `environment`; its id.
  public func open(topic: String, environment: Device.Environment) async throws(Failure) -> String {
    let body = Data(#"{"message-storage-policy":\#(storage.rawValue),"push-type":"LiveActivity"}"#.utf8)
    let answer = try await request(.open, topic: topic, environment: environment, channel: nil, body: body)
    guard answer.status == 201, let channel = answer.channel, !channel.isEmpty else {
      throw Failure(status: answer.status, reason: answer.reason ?? "no apns-channel-id in the answer")
    }
    return channel
  }

  /// Deletes a channel (done when APNs answers 204, or no longer knows it).
  public func close(_ channel: String, topic: String, environment: Device.Environment) async throws(Failure) {
    let answer = try await request(.close, topic: topic, environment: environment, channel: channel, body: nil)
    guard answer.status == 204 || answer.reason == "ChannelNotRegistered" else {
      throw Failure(status: answer.status, reason: answer.reason ?? "no reason")
    }
  }

  struct Answer {
    var status: Int
    var reason: String?
    var channel: String?
  }

  enum Method { case open, close }

  private func request(
    _ method: Method, topic: String, environment: Device.Environment, channel: String?, body: Data?
  ) async throws(Failure) -> Answer {
    var token = tokens.current()
    for attempt in 1...2 {
      let (client, index) = connections.take(environment)
      var request = HTTPClientRequest(url: connections.endpoints.base(environment) + "/1/apps/\(topic)/channels")
      request.method = method == .open ? .POST : .DELETE
      request.headers.add(name: "authorization", value: "bearer \(token)")
      request.headers.add(name: "apns-request-id", value: UUID().uuidString.lowercased())
      if let channel { request.headers.add(name: "apns-channel-id", value: channel) }
      if let body {
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: body))
      }
      let answer: Answer
      do {
        let response = try await client.execute(request, deadline: deadline.deadlineFromNow, logger: nil)
        let bytes = try await response.body.collect(upTo: 64 * 1024)
        let object = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any]
        answer = Answer(
          status: Int(response.status.code), reason: object?["reason"] as? String,
          channel: response.headers.first(name: "apns-channel-id"))
      } catch {
        throw Failure(status: nil, reason: APNsSender.describe(error))
      }
      if answer.status == 403, answer.reason == "ExpiredProviderToken", attempt == 1 {
        token = tokens.renewed(after: token)
        connections.replace(environment, index, client)
        continue
      }
      return answer
    }
    throw Failure(status: 403, reason: "ExpiredProviderToken to a renewed token: is this machine's clock right?")
  }
}

/// Where the push path opens and deletes games' broadcast channels (`APNsChannels`; a test's
/// own in the unit tests).
public protocol BroadcastChannels: Sendable {
  func open(topic: String, environment: Device.Environment) async throws -> String
  func close(_ channel: String, topic: String, environment: Device.Environment) async throws
}
