import Foundation
import StatlineCore

/// A way to a phone: the APNs sender for `apns` devices (`APNsTransport`), FCM's for `fcm` ones
/// (`FCMTransport`). One
/// attempt per call; what to do next is the dispatcher's, from the verdict.
public protocol PushTransport: Sendable {
  /// The device kinds it reaches.
  var kinds: Set<Device.Kind> { get }
  func deliver(_ alert: PlannedAlert, to device: Device) async -> PushVerdict
  /// After the last push a device made by the push path will get was delivered (a game's
  /// broadcast channel after its `end`): deletes what the service holds for it. Nil when done,
  /// else why not.
  func retire(_ device: Device) async -> String?
}

extension PushTransport {
  public func retire(_ device: Device) async -> String? { nil }
}

/// What one attempt came to, in the outbox's terms.
public enum PushVerdict: Sendable, Equatable {
  /// The service took it.
  case delivered
  /// The token is gone or not this app's: the device is suspended, the alert done.
  case suspend(Device.Suspension)
  /// Refused for good (too large, …): done, counted, never retried.
  case dropped(String)
  /// No answer, a 429 or a 5xx: tried again after a backoff, until the alert expires; not
  /// sooner than `after` seconds when the service said so (`Retry-After`).
  case retry(String, after: TimeInterval? = nil)
  /// The key, team, topic or clock is wrong: nothing will go until an operator mends it. The
  /// alert is retried (it may still go once mended) and the dispatcher pauses, saying why.
  case misconfigured(String)
}

/// `APNsSender` as a transport: an alert to an `apns` device, a Live Activity's update or end to
/// an `apns-liveactivity` one; the matrix's action as a verdict.
public struct APNsTransport: PushTransport {
  public let sender: APNsSender
  /// Where games' broadcast channels are deleted (nil: channels are not used).
  public let channels: (any BroadcastChannels)?
  public var kinds: Set<Device.Kind> {
    channels == nil ? [.apns, .apnsLiveActivity] : [.apns, .apnsLiveActivity, .apnsChannel]
  }

  public init(sender: APNsSender, channels: (any BroadcastChannels)? = nil) {
    self.sender = sender
    self.channels = channels
  }

  /// Deletes a game's broadcast channel after its end went out.
  public func retire(_ device: Device) async -> String? {
    guard device.kind == .apnsChannel, let channels else { return nil }
    do {
      try await channels.close(device.token, topic: device.topic, environment: device.environment)
      return nil
    } catch {
      return "\(error)"
    }
  }

  public func deliver(_ alert: PlannedAlert, to device: Device) async -> PushVerdict {
    let outcome = await sender.send(Self.push(alert, to: device, id: UUID()))
    return Self.verdict(outcome.action, failure: outcome.failure, at: sender.now())
  }

  /// The request for `alert`: a Live Activity push when it carries an update, else an alert.
  static func push(_ alert: PlannedAlert, to device: Device, id: UUID) -> APNsPush {
    guard let update = alert.activity, device.kind == .apnsLiveActivity || device.kind == .apnsChannel else {
      return APNsPush.alert(alert, to: device, id: id)
    }
    return APNsPush.liveActivity(
      update.state, ending: update.ending, to: device, at: update.timestamp, staleDate: update.staleDate,
      dismissalDate: update.dismissalDate, relevance: update.relevance, priority: update.priority,
      expiresAt: alert.expiresAt, id: id)
  }

  /// The matrix's action as a verdict (`at`: when a quarantine was answered).
  static func verdict(_ action: APNsAnswer.Action, failure: String?, at now: Date) -> PushVerdict {
    switch action {
    case .accepted: return .delivered
    case .disable(let since):
      return .suspend(.init(kind: .disabled, why: "APNs 410 Unregistered", since: Self.instant(since)))
    case .quarantine(let why): return .suspend(.init(kind: .quarantined, why: why, since: Self.instant(now)))
    case .drop(let why): return .dropped(why)
    case .backOffDevice: return .retry("APNs 429 TooManyRequests for this device")
    case .recycleConnection: return .retry("APNs 429 TooManyProviderTokenUpdates: a new connection")
    case .renewTokenAndRetryOnce: return .retry("APNs ExpiredProviderToken")
    case .retryUntilExpiry: return .retry(failure ?? "APNs is unavailable")
    case .configurationError(let why): return .misconfigured(why)
    }
  }

  static func instant(_ date: Date) -> String { date.formatted(Date.ISO8601FormatStyle()) }
}
