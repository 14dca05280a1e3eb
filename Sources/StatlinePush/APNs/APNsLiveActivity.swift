import Foundation
import StatlineCore

/// What a Live Activity shows of its game (`aps.content-state`): it must decode into the app's
/// `ContentState` with a default `JSONDecoder`, so its keys are plain and its values strings and
/// integers.
public struct LiveActivityState: Codable, Sendable, Equatable {
  public var gameId: String
  public var awayName: String
  public var homeName: String
  public var awayScore: Int
  public var homeScore: Int
  /// `scheduled`, `live`, `final`, …
  public var status: String
  public var period: String?
  public var clock: String?
  /// The scoreboard line as the app prints it: "Duke 5, North Carolina 4 · 2nd 04:06".
  public var line: String

  public init(game: Game) {
    gameId = game.id
    awayName = game.away.team.name
    homeName = game.home.team.name
    awayScore = game.away.score ?? 0
    homeScore = game.home.score ?? 0
    status = game.status.rawValue
    period = game.periodLabel
    clock = game.clock
    let when =
      game.status == .final ? "Final" : [game.periodLabel, game.clock].compactMap { $0 }.joined(separator: " ")
    line = "\(awayName) \(awayScore), \(homeName) \(homeScore)" + (when.isEmpty ? "" : " · \(when)")
  }
}

extension APNsPush {
  /// The topic suffix Live Activity pushes carry.
  public static let liveActivitySuffix = ".push-type.liveactivity"

  /// A Live Activity push: `update` while the game goes on (priority 10 for a score, 5 for a
  /// clock-only change), `end` at the final with a `dismissal-date`; `stale-date` tells the phone
  /// when the shown state is old (a little after the next poll is due); a higher
  /// `relevance-score` for a close game late. No collapse id: the phone keeps the newest
  /// `timestamp`.
  public static func liveActivity(
    _ state: LiveActivityState, ending: Bool, to device: Device, at time: Date, staleDate: Date,
    dismissalDate: Date? = nil, relevance: Double, priority: Int, expiresAt: Date, id: UUID
  ) -> APNsPush {
    let aps = LiveActivityPayload.APS(
      timestamp: Int(time.timeIntervalSince1970.rounded(.down)), event: ending ? "end" : "update",
      contentState: state, staleDate: Int(staleDate.timeIntervalSince1970.rounded(.down)),
      dismissalDate: ending ? dismissalDate.map { Int($0.timeIntervalSince1970.rounded(.down)) } : nil,
      relevanceScore: relevance)
    return APNsPush(
      deviceToken: device.token, environment: device.environment, topic: device.topic + liveActivitySuffix,
      pushType: .liveactivity, priority: priority, expiresAt: expiresAt, collapseId: nil, id: id,
      payload: encode(LiveActivityPayload(aps: aps)))
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
