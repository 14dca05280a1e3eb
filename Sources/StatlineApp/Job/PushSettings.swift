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

  public var apns: APNs?
  /// Requests in flight at once.
  public var inFlight = 64
  /// Alerts claimed per batch.
  public var batch = 256
  /// How long a worker holds the alerts it claimed (another takes them after, if it died).
  public var lease: Duration = .seconds(60)
  /// Alerts per device per game before only the final goes.
  public var cap = OutboxSlot.defaultCap

  public init() {}
}
