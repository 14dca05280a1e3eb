import Foundation
import StatlineCore

/// One request to APNs (`POST /3/device/<token>`): where it goes, the headers Apple reads, and
/// the JSON payload. Built from what the evaluator planned (`APNsPush.alert`); the sender adds
/// the provider token.
public struct APNsPush: Sendable, Equatable {
  /// `apns-push-type`.
  public enum PushType: String, Sendable, Equatable {
    case alert, liveactivity, background
  }

  /// Apple's most bytes in a payload (413 `PayloadTooLarge` beyond): checked before sending.
  public static let maximumPayloadBytes = 4096

  public var deviceToken: String
  public var environment: Device.Environment
  /// `apns-topic`: the bundle id, with `.push-type.liveactivity` for a Live Activity.
  public var topic: String
  public var pushType: PushType
  /// `apns-priority`: 10 now, 5 when the phone likes (a clock-only Live Activity update).
  public var priority: Int
  /// `apns-expiration`: past it APNs stops trying (and the sender stops retrying).
  public var expiresAt: Date
  /// `apns-collapse-id` (none for a Live Activity: the phone keeps the newest `timestamp`).
  public var collapseId: String?
  /// `apns-id`, echoed back: lets a log line of APNs' and ours be matched.
  public var id: UUID
  public var payload: Data
  /// A broadcast (iOS 18) to every Live Activity subscribed to this channel instead of one
  /// device: `POST /4/broadcasts/apps/<topic>` with `apns-channel-id` (`deviceToken` is then the
  /// channel id too, for logs).
  public var channelId: String?

  public init(
    deviceToken: String, environment: Device.Environment, topic: String, pushType: PushType, priority: Int,
    expiresAt: Date, collapseId: String?, id: UUID, payload: Data
  ) {
    self.deviceToken = deviceToken
    self.environment = environment
    self.topic = topic
    self.pushType = pushType
    self.priority = priority
    self.expiresAt = expiresAt
    self.collapseId = collapseId
    self.id = id
    self.payload = payload
  }

  /// The request path.
  public var path: String {
    guard channelId != nil else { return "/3/device/\(deviceToken)" }
    return "/4/broadcasts/apps/\(topic)"
  }

  /// Every header but `authorization`, lowercase as HTTP/2 sends them.
  public var headers: [(String, String)] {
    if let channelId {
      // A broadcast: the bundle is in the path (no apns-topic), the id is apns-request-id.
      return [
        ("apns-channel-id", channelId), ("apns-push-type", pushType.rawValue), ("apns-priority", String(priority)),
        ("apns-expiration", String(Int(expiresAt.timeIntervalSince1970.rounded(.down)))),
        ("apns-request-id", id.uuidString.lowercased()),
      ]
    }
    var headers = [
      ("apns-topic", topic), ("apns-push-type", pushType.rawValue), ("apns-priority", String(priority)),
      ("apns-expiration", String(Int(expiresAt.timeIntervalSince1970.rounded(.down)))),
      ("apns-id", id.uuidString.lowercased()),
    ]
    if let collapseId { headers.append(("apns-collapse-id", collapseId)) }
    return headers
  }

  /// An alert for `device` as the evaluator planned it: the text as the body, the game as
  /// `thread-id` and collapse id, passive and without sound in quiet hours, the deep link
  /// (`gameId`, `sport`, `eventId`) beside `aps`.
  public static func alert(_ alert: PlannedAlert, to device: Device, id: UUID) -> APNsPush {
    let aps = AlertPayload.APS(
      alert: .init(body: alert.body), threadId: alert.threadId, sound: alert.silent ? nil : "default",
      interruptionLevel: alert.silent ? "passive" : "active")
    return APNsPush(
      deviceToken: device.token, environment: device.environment, topic: device.topic, pushType: .alert,
      priority: alert.silent ? 5 : 10, expiresAt: alert.expiresAt, collapseId: alert.collapseId, id: id,
      payload: encode(AlertPayload(aps: aps, data: alert.data)))
  }

  /// A payload's JSON, keys sorted. Strings, integers and doubles in a fixed shape: encoding
  /// cannot fail.
  static func encode(_ payload: some Encodable) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(payload)) ?? Data()
  }
}

/// The JSON of an alert push.
struct AlertPayload: Encodable {
  struct APS: Encodable {
    struct Alert: Encodable {
      var body: String
    }
    var alert: Alert
    var threadId: String
    var sound: String?
    var interruptionLevel: String

    enum CodingKeys: String, CodingKey {
      case alert, sound
      case threadId = "thread-id"
      case interruptionLevel = "interruption-level"
    }
  }

  var aps: APS
  var data: [String: String]

  struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(aps, forKey: Key(stringValue: "aps"))
    for (key, value) in data where key != "aps" { try container.encode(value, forKey: Key(stringValue: key)) }
  }
}
