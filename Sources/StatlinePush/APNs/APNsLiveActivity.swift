import Foundation
import StatlineCore

extension APNsPush {
  /// The topic suffix Live Activity pushes carry.
  public static let liveActivitySuffix = ".push-type.liveactivity"

  /// A Live Activity push: `update` while the game goes on (priority 10 for a score, 5 for a
  /// clock-only change), `end` at the final with a `dismissal-date`; `stale-date` tells the phone
  /// when the shown state is old (a little after the next poll is due); a higher
  /// `relevance-score` for a close game late. No collapse id: the phone keeps the newest
  /// `timestamp`. To a channel device (`apns-channel`), a broadcast to every subscriber.
  public static func liveActivity(
    _ state: LiveActivityState, ending: Bool, to device: Device, at time: Date, staleDate: Date,
    dismissalDate: Date? = nil, relevance: Double, priority: Int, expiresAt: Date, id: UUID
  ) -> APNsPush {
    let aps = LiveActivityPayload.APS(
      timestamp: Int(time.timeIntervalSince1970.rounded(.down)), event: ending ? "end" : "update",
      contentState: state, staleDate: Int(staleDate.timeIntervalSince1970.rounded(.down)),
      dismissalDate: ending ? dismissalDate.map { Int($0.timeIntervalSince1970.rounded(.down)) } : nil,
      relevanceScore: relevance)
    var push = APNsPush(
      deviceToken: device.token, environment: device.environment, topic: device.topic + liveActivitySuffix,
      pushType: .liveactivity, priority: priority, expiresAt: expiresAt, collapseId: nil, id: id,
      payload: encode(LiveActivityPayload(aps: aps)))
    if device.kind == .apnsChannel {
      // A game's broadcast channel: to the bare bundle id's broadcast path, by channel id.
      push.topic = device.topic
      push.channelId = device.token
    }
    return push
  }
}

/// The JSON of a Live Activity push.
struct LiveActivityPayload: Encodable {
  struct APS: Encodable {
    var timestamp: Int
    var event: String
    var contentState: LiveActivityState
    var staleDate: Int
    var dismissalDate: Int?
    var relevanceScore: Double

    enum CodingKeys: String, CodingKey {
      case timestamp, event
      case contentState = "content-state"
      case staleDate = "stale-date"
      case dismissalDate = "dismissal-date"
      case relevanceScore = "relevance-score"
    }
  }

  var aps: APS
}
