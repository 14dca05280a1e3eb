import Foundation
import StatlineCore

/// The `push:` section (docs/running.md): where alerts go and how the send loop runs. With it,
/// `statline run` plans each event's alerts for the devices that follow its teams and sends them.
public struct PushSettings: Sendable, Equatable {
  /// `push.apns`: token auth with a `.p8` key.
  public struct APNs: Sendable, Equatable {
    /// The `.p8` file Apple gives (PKCS#8 P-256, PEM); read at start, never printed.
    public var keyFile: String
    public var keyId: String
    public var teamId: String
    /// Long-lived HTTP/2 connections per environment.
    public var connections = 2
    /// Each request's deadline.
    public var timeout: Duration = .seconds(10)
    /// APNs' hosts; another (a loopback APNs) for tests and the demo.
    public var production = "https://api.push.apple.com"
    public var sandbox = "https://api.sandbox.push.apple.com"
    /// A PEM file of CA certificates to trust instead of the system's (a loopback APNs).
    public var trustRoots: String?
    /// Broadcast channels for one app's Live Activities (iOS 18), when set.
    public var broadcast: Broadcast?

    public init(keyFile: String, keyId: String, teamId: String) {
      self.keyFile = keyFile
      self.keyId = keyId
      self.teamId = teamId
    }
  }

  /// `push.apns.broadcast`: a channel per game for `topic`'s Live Activities in `environment`,
  /// opened when the game starts, deleted after its final.
  public struct Broadcast: Sendable, Equatable {
    public var topic: String
    public var environment: Device.Environment = .production
    /// How APNs keeps a channel's messages for an offline phone: `latest` (the newest) or `none`.
    public var storesLatest = true
    /// APNs' channel management hosts; another (a loopback APNs) for tests and the demo.
    public var production = "https://api-manage-broadcast.push.apple.com:2196"
    public var sandbox = "https://api-manage-broadcast.sandbox.push.apple.com:2195"

    public init(topic: String) { self.topic = topic }
  }

  /// `push.fcm`: FCM HTTP v1 with a service account.
  public struct FCM: Sendable, Equatable {
    /// The service-account JSON file Firebase gives; read at start, its key never printed.
    public var serviceAccountFile: String
    /// The Firebase project id; nil: the file's `project_id`.
    public var project: String?
    /// Long-lived HTTP/2 connections (each kept under FCM's 100 streams: at least enough for
    /// `push.inFlight`).
    public var connections = 2
    /// Each request's deadline.
    public var timeout: Duration = .seconds(10)
    /// FCM's base URL; another (a loopback FCM) for tests and the demo.
    public var baseURL = "https://fcm.googleapis.com"
    /// A PEM file of CA certificates to trust instead of the system's (a loopback FCM and its
    /// token endpoint).
    public var trustRoots: String?

    public init(serviceAccountFile: String) { self.serviceAccountFile = serviceAccountFile }

    /// The connections opened: `connections`, or more so that `inFlight` requests keep each
    /// under FCM's 100 streams.
    public func connections(inFlight: Int) -> Int { max(connections, (inFlight + 98) / 99) }
  }

  public var apns: APNs?
  public var fcm: FCM?
  /// Requests in flight at once.
  public var inFlight = 64
  /// Alerts claimed per batch.
  public var batch = 256
  /// How long a worker holds the alerts it claimed (another takes them after, if it died).
  public var lease: Duration = .seconds(60)
  /// Alerts per device per game before only the final goes.
  public var cap = OutboxSlot.defaultCap
  /// The share of a sender's answers in a minute that, disabling or quarantining their device,
  /// pauses it instead (a wrong key, topic or environment); 1: never.
  public var disableBurst = 0.5
  /// How long a disabled device is kept before it is deleted (nil: kept).
  public var purgeDisabledAfter: Duration? = .seconds(30 * 86_400)

  public init() {}
}
