import Foundation

/// A phone's push address and what its owner wants told (architecture.md#devices): registered
/// through `/v1/devices`, kept in every store (`DeviceRegistry`), read by the push evaluator by
/// the teams it follows.
public struct Device: Codable, Sendable, Hashable {
  /// How the device is reached.
  public enum Kind: String, Codable, Sendable, CaseIterable {
    /// An app's APNs device token (alerts).
    case apns
    /// One Live Activity's APNs push token, following one game (`gameId`).
    case apnsLiveActivity = "apns-liveactivity"
    /// A Firebase Cloud Messaging registration token.
    case fcm
    /// A broadcast channel Statline opened for one game (iOS 18: one request updates every
    /// activity subscribed to it): `token` is APNs' channel id. Made by the push path when the
    /// game starts and deleted after its final, never registered through the device API.
    case apnsChannel = "apns-channel"

    /// The kinds an app registers (`apns-channel` is Statline's own).
    public static let registrable: [Kind] = [.apns, .apnsLiveActivity, .fcm]
  }

  /// What an FCM device's token is: a registration token (FCM's `token`) or, where the app
  /// sends one, a Firebase installation id (FCM's `fid`, the newer address).
  public enum TokenType: String, Codable, Sendable, CaseIterable {
    case registration, installation
  }

  /// The APNs environment a token belongs to (a sandbox token sent to production is refused).
  public enum Environment: String, Codable, Sendable, CaseIterable {
    case production, sandbox
  }

  /// What a fan can ask to be told of a team's games.
  public enum Alert: String, Codable, Sendable, CaseIterable, Comparable {
    case gameStart, score, leadChange, periodEnd, final, closeGame, ranking

    public static func < (lhs: Alert, rhs: Alert) -> Bool {
      allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
  }

  /// A time of day without alerts, in the device's own time zone (`22:00`–`07:00` crosses
  /// midnight). A final may still go, silently.
  public struct QuietHours: Codable, Sendable, Hashable {
    /// `HH:MM`, 24-hour.
    public var start: String
    public var end: String
    /// An IANA time zone (`America/New_York`).
    public var timeZone: String

    public init(start: String, end: String, timeZone: String) {
      self.start = start
      self.end = end
      self.timeZone = timeZone
    }

    /// `HH:MM` (24-hour, two digits each) as minutes after midnight; nil for anything else.
    public static func minutes(_ text: String) -> Int? {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, parts.allSatisfy({ $0.count == 2 }), let hours = Int(parts[0]),
        let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
      else { return nil }
      return hours * 60 + minutes
    }
  }

  /// `dev_` and 24 hex digits, derived from the kind and token: registering the same token again
  /// answers the same device (`Device.id(kind:token:)`).
  public var id: String
  public var kind: Kind
  public var token: String
  /// For an FCM device: what its token is (nil: a registration token).
  public var tokenType: TokenType?
  public var environment: Environment
  /// The app's bundle id (APNs topic) or Firebase project.
  public var topic: String
  /// Canonical team ids (`team:193`), each resolved by the registry when registered.
  public var teams: [String]
  /// For a Live Activity: the game it follows (a canonical game id).
  public var gameId: String?
  /// The alerts wanted; nil: the sport's defaults (`Device.defaultAlerts(for:)`).
  public var alerts: [Alert]?
  public var quietHours: QuietHours?
  /// When the token was first registered (ISO 8601, UTC), kept across updates.
  public var registeredAt: String
  /// When it was last registered or changed.
  public var updatedAt: String
  /// Why pushes no longer go to it (APNs said the token is gone, or not this app's); nil: live.
  /// Registering it again makes it live.
  public var suspended: Suspension?

  public init(
    id: String, kind: Kind, token: String, environment: Environment, topic: String, teams: [String],
    gameId: String? = nil, alerts: [Alert]? = nil, quietHours: QuietHours? = nil, registeredAt: String,
    updatedAt: String, suspended: Suspension? = nil, tokenType: TokenType? = nil
  ) {
    self.id = id
    self.kind = kind
    self.token = token
    self.tokenType = tokenType
    self.environment = environment
    self.topic = topic
    self.teams = teams
    self.gameId = gameId
    self.alerts = alerts
    self.quietHours = quietHours
    self.registeredAt = registeredAt
    self.updatedAt = updatedAt
    self.suspended = suspended
  }

  /// The id of the device with this kind and token: the same token always answers the same id
  /// (`ContentHash` of the kind and token, and of the token and kind: 96 bits; not a secret, it
  /// only names the row).
  public static func id(kind: Kind, token: String) -> String {
    let first = ContentHash.fnv1a(Array("\(kind.rawValue):\(token)".utf8))
    let second = ContentHash.fnv1a(Array("\(token):\(kind.rawValue)".utf8))
    func hex(_ value: UInt64, _ digits: Int) -> String {
      let text = String(value, radix: 16)
      return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
    return "dev_" + hex(first, 16) + hex(second >> 32, 8)
  }

  /// The broadcast channel device of a game for one app (`topic`) and environment: its id is
  /// made from the three (so the push path finds it without a scan), its token is the channel
  /// id APNs gave.
  public static func channel(
    gameId: String, topic: String, environment: Environment, channelId: String, at stamp: String
  ) -> Device {
    Device(
      id: channelDeviceId(gameId: gameId, topic: topic, environment: environment), kind: .apnsChannel,
      token: channelId, environment: environment, topic: topic, teams: [], gameId: gameId, registeredAt: stamp,
      updatedAt: stamp)
  }

  /// The id of a game's channel device (`channel(gameId:…)`).
  public static func channelDeviceId(gameId: String, topic: String, environment: Environment) -> String {
    id(kind: .apnsChannel, token: "\(topic)|\(environment.rawValue)|\(gameId)")
  }

  /// The token as it may be shown (logs, status, errors): its last 8 characters.
  public var shownToken: String { Self.shown(token) }

  /// Any token as it may be shown: `…` and its last 8 characters.
  public static func shown(_ token: String) -> String { "…" + token.suffix(8) }

  /// The alerts a device that chose none gets for a game of `sport`: everything but each score
  /// in a sport scored in points or runs (every basket would flood a phone), lead changes and
  /// period ends.
  public static func defaultAlerts(for sport: Sport) -> [Alert] {
    switch sport.profile?.scoring {
    case .points?, .runs?: [.gameStart, .final, .closeGame, .ranking]
    default: [.gameStart, .score, .final, .closeGame, .ranking]
    }
  }
}
