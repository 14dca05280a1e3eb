import Foundation
import NIOHTTP1

/// Broadcast channels (iOS 18) as APNs has them: the management API (`POST` and `DELETE
/// /1/apps/<bundle>/channels`, served here on the same port as the pushes) and broadcasts
/// (`POST /4/broadcasts/apps/<bundle>` with `apns-channel-id`), checked as Apple checks them.
extension LoopbackAPNs {
  static let channelsPath = (prefix: "/1/apps/", suffix: "/channels")
  static let broadcastPrefix = "/4/broadcasts/apps/"

  /// The channels open now, and those deleted, in order.
  public var openChannels: [String] { state.withLock { $0.channels.keys.sorted() } }
  public var closedChannels: [String] { state.withLock { $0.closedChannels } }

  /// A channel management request's answer.
  func manageChannels(_ request: Request) -> Answer {
    func refuse(_ status: Int, _ reason: String, _ detail: String) -> Answer {
      state.withLock { $0.rejected.append(Rejection(status: status, reason: reason, detail: detail)) }
      return Answer(status: status, apnsId: nil, body: Self.reason(reason, timestamp: nil))
    }
    let bundle = String(
      request.path.dropFirst(Self.channelsPath.prefix.count).dropLast(Self.channelsPath.suffix.count))
    guard state.withLock({ $0.topics.contains(bundle) }) else {
      return refuse(403, "TopicMismatch", "'\(bundle)' is not an allowed bundle id")
    }
    if case .failure(let rejection) = authorize(request) {
      return refuse(rejection.status, rejection.reason, rejection.detail)
    }
    let requestId = [("apns-request-id", request.headers.first(name: "apns-request-id") ?? UUID().uuidString)]
    switch request.method {
    case .POST:
      let spec = (try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any]
      guard let spec, Set(spec.keys) == ["message-storage-policy", "push-type"],
        spec["push-type"] as? String == "LiveActivity", let policy = spec["message-storage-policy"] as? Int,
        [0, 1].contains(policy)
      else { return refuse(400, "BadRequestParams", "message-storage-policy 0 or 1 and push-type LiveActivity") }
      var bytes = [UInt8](repeating: 0, count: 16)
      for index in bytes.indices { bytes[index] = UInt8.random(in: 0...255) }
      let channel = Data(bytes).base64EncodedString()
      state.withLock { $0.channels[channel] = policy }
      return Answer(status: 201, apnsId: nil, body: [], headers: requestId + [("apns-channel-id", channel)])
    case .DELETE:
      guard let channel = request.headers.first(name: "apns-channel-id") else {
        return refuse(400, "MissingChannelId", "no apns-channel-id")
      }
      let known = state.withLock { state -> Bool in
        guard state.channels.removeValue(forKey: channel) != nil else { return false }
        state.closedChannels.append(channel)
        return true
      }
      guard known else { return refuse(400, "ChannelNotRegistered", "no channel '\(channel)'") }
      return Answer(status: 204, apnsId: nil, body: [], headers: requestId)
    default:
      return refuse(405, "MethodNotAllowed", "\(request.method)")
    }
  }

  /// A broadcast's checks, in Apple's order; the push as accepted (its `deviceToken` is the
  /// channel id), or the first refusal.
  func checkBroadcast(_ request: Request) -> Result<Accepted, Rejection> {
    func refuse(_ status: Int, _ reason: String, _ detail: String) -> Result<Accepted, Rejection> {
      .failure(Rejection(status: status, reason: reason, detail: detail))
    }
    let headers = request.headers
    guard request.method == .POST else { return refuse(405, "MethodNotAllowed", "\(request.method) is not POST") }
    let claims: (keyId: String, issuedAt: Int)
    switch authorize(request) {
    case .success(let verified): claims = verified
    case .failure(let rejection): return .failure(rejection)
    }
    let bundle = String(request.path.dropFirst(Self.broadcastPrefix.count))
    guard state.withLock({ $0.topics.contains(bundle) }) else {
      return refuse(403, "TopicMismatch", "'\(bundle)' is not an allowed bundle id")
    }
    if let topic = headers.first(name: "apns-topic"), topic != bundle {
      return refuse(400, "TopicDisallowed", "apns-topic must be the bare bundle id")
    }
    guard headers.first(name: "apns-push-type")?.lowercased() == "liveactivity" else {
      return refuse(400, "InvalidPushType", "a broadcast is a liveactivity push")
    }
    guard let priority = headers.first(name: "apns-priority"), ["1", "5", "10"].contains(priority) else {
      return refuse(400, "BadPriority", "apns-priority is 1, 5 or 10")
    }
    guard let channel = headers.first(name: "apns-channel-id") else {
      return refuse(400, "MissingChannelId", "no apns-channel-id")
    }
    guard let policy = state.withLock({ $0.channels[channel] }) else {
      return refuse(400, "ChannelNotRegistered", "no channel '\(channel)'")
    }
    guard let expiration = headers.first(name: "apns-expiration"), Int(expiration) != nil else {
      return refuse(400, "BadExpirationDate", "apns-expiration is required")
    }
    if policy == 0 && expiration != "0" {
      return refuse(400, "BadExpirationDate", "a No Message Stored channel takes only apns-expiration 0")
    }
    return accepted(request, for: channel, claims: claims, liveActivity: true)
  }
}
