import Foundation

/// What APNs said to one push, and what the sender does about it: Apple's answer matrix
/// (architecture.md#devices; PUSH.md §2) as a pure function, apart from the transport, so every
/// row has a test without a connection.
public struct APNsAnswer: Sendable, Equatable {
  /// The `reason` of an error answer; `unknown` keeps one Apple adds later.
  public enum Reason: Sendable, Equatable, Hashable {
    case badCollapseId, badDeviceToken, badExpirationDate, badMessageId, badPriority, badTopic
    case deviceTokenNotForTopic, duplicateHeaders, idleTimeout, invalidPushType, missingDeviceToken, missingTopic
    case payloadEmpty, topicDisallowed, badCertificate, badCertificateEnvironment, expiredProviderToken, forbidden
    case invalidProviderToken, missingProviderToken, unrelatedKeyIdInToken, badPath, methodNotAllowed
    case payloadTooLarge, unregistered, expiredToken, tooManyProviderTokenUpdates, tooManyRequests
    case internalServerError, serviceUnavailable, shutdown
    case channelNotRegistered, badChannelId, missingChannelId, cannotCreateChannelConfig
    case unknown(String)

    static let named: [String: Reason] = [
      "BadCollapseId": .badCollapseId, "BadDeviceToken": .badDeviceToken, "BadExpirationDate": .badExpirationDate,
      "BadMessageId": .badMessageId, "BadPriority": .badPriority, "BadTopic": .badTopic,
      "DeviceTokenNotForTopic": .deviceTokenNotForTopic, "DuplicateHeaders": .duplicateHeaders,
      "IdleTimeout": .idleTimeout, "InvalidPushType": .invalidPushType, "MissingDeviceToken": .missingDeviceToken,
      "MissingTopic": .missingTopic, "PayloadEmpty": .payloadEmpty, "TopicDisallowed": .topicDisallowed,
      "BadCertificate": .badCertificate, "BadCertificateEnvironment": .badCertificateEnvironment,
      "ExpiredProviderToken": .expiredProviderToken, "Forbidden": .forbidden,
      "InvalidProviderToken": .invalidProviderToken, "MissingProviderToken": .missingProviderToken,
      "UnrelatedKeyIdInToken": .unrelatedKeyIdInToken, "BadPath": .badPath, "MethodNotAllowed": .methodNotAllowed,
      "PayloadTooLarge": .payloadTooLarge, "Unregistered": .unregistered, "ExpiredToken": .expiredToken,
      "TooManyProviderTokenUpdates": .tooManyProviderTokenUpdates, "TooManyRequests": .tooManyRequests,
      "InternalServerError": .internalServerError, "ServiceUnavailable": .serviceUnavailable, "Shutdown": .shutdown,
      "ChannelNotRegistered": .channelNotRegistered, "BadChannelId": .badChannelId,
      "MissingChannelId": .missingChannelId, "CannotCreateChannelConfig": .cannotCreateChannelConfig,
    ]

    /// Each reason's name, the other way round.
    static let names = Dictionary(uniqueKeysWithValues: named.map { ($0.value, $0.key) })

    public init(_ text: String) { self = Self.named[text] ?? .unknown(text) }

    /// The reason as APNs spells it.
    public var name: String {
      if case .unknown(let text) = self { return text }
      return Self.names[self] ?? "\(self)"
    }
  }

  /// What the sender does next.
  public enum Action: Sendable, Equatable {
    /// Delivered to APNs (`apns-id` kept).
    case accepted(apnsId: String?)
    /// The token is dead as of `since`: the device stops receiving, unless it registered again
    /// after that time.
    case disable(since: Date)
    /// A token APNs will not take here (often a sandbox token sent to production, or the wrong
    /// topic): the device is set aside with why, not deleted.
    case quarantine(why: String)
    /// Too many pushes to this device: wait (with jitter) before its next one.
    case backOffDevice
    /// The provider token expired: renew it (the 20-minute floor holds), open a new connection,
    /// retry once.
    case renewTokenAndRetryOnce
    /// The connection is unusable for a while (too many token updates: a bug): recycle it, retry.
    case recycleConnection
    /// The key, team, topic or request is wrong: report loudly, never retry.
    case configurationError(String)
    /// The push itself cannot go (too large, bad fields): dropped and counted, not retried.
    case drop(String)
    /// APNs is failing (5xx, reset, timeout): retry with backoff until the push's own expiry.
    case retryUntilExpiry
  }

  public var status: Int
  public var reason: Reason?
  /// A 410's `timestamp` (milliseconds since 1970).
  public var timestamp: Int64?
  public var apnsId: String?

  public init(status: Int, reason: Reason? = nil, timestamp: Int64? = nil, apnsId: String? = nil) {
    self.status = status
    self.reason = reason
    self.timestamp = timestamp
    self.apnsId = apnsId
  }

  /// An answer from its status, `apns-id` header and JSON body (`{"reason": …, "timestamp": …}`).
  public init(status: Int, apnsId: String?, body: Data) {
    let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
    self.init(
      status: status, reason: (object?["reason"] as? String).map(Reason.init),
      timestamp: (object?["timestamp"] as? NSNumber)?.int64Value, apnsId: apnsId)
  }

  /// What to do, answered at `now` (a 410 without a timestamp is dead as of then).
  public func action(at now: Date) -> Action {
    switch (status, reason) {
    case (200, _): return .accepted(apnsId: apnsId)
    case (410, _):
      return .disable(since: timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) } ?? now)
    case (_, .badDeviceToken?):
      return .quarantine(
        why:
          "BadDeviceToken: the token is not one APNs issued for this environment (a sandbox token sent to production?)")
    case (_, .deviceTokenNotForTopic?):
      return .quarantine(why: "DeviceTokenNotForTopic: the token belongs to another app (topic)")
    case (_, .channelNotRegistered?), (_, .badChannelId?):
      return .quarantine(why: "\(reason?.name ?? ""): APNs no longer knows this game's broadcast channel")
    case (403, .expiredProviderToken?): return .renewTokenAndRetryOnce
    case (429, .tooManyProviderTokenUpdates?): return .recycleConnection
    case (429, _): return .backOffDevice
    case (413, _), (_, .payloadTooLarge?): return .drop("PayloadTooLarge: the payload is over 4096 bytes")
    case (400, .idleTimeout?): return .retryUntilExpiry
    case (500...599, _): return .retryUntilExpiry
    // Any other 4xx (InvalidProviderToken, BadTopic, …): the key, team, topic or request.
    default: return .configurationError("APNs answered \(status) \(reason.map(\.name) ?? "with no reason")")
    }
  }
}
