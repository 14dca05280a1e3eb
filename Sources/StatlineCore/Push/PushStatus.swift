import Foundation

/// The push path at a glance (`/v1/status`'s `push`, `statline status`): the devices by kind,
/// how many are suspended and the first of them with why, and what the outbox holds.
public struct PushStatus: Codable, Sendable, Equatable {
  /// A suspended device as the status shows it: never its whole token.
  public struct Suspended: Codable, Sendable, Equatable {
    public var id: String
    public var kind: String
    /// `…` and the token's last 8 characters.
    public var token: String
    /// `disabled` or `quarantined`.
    public var state: String
    public var why: String
    public var since: String
  }

  /// The most suspended devices the status lists (`statline devices list` has them all).
  public static let listed = 20

  /// Devices of each kind (`apns`, `apns-liveactivity`, `fcm`).
  public var devices: [String: Int]
  /// Devices the service said are gone (410), and those with a token not this app's.
  public var disabled: Int
  public var quarantined: Int
  /// Alerts still to send, those held by a sender now, and those waiting out a backoff.
  public var pending: Int
  public var leased: Int
  public var backingOff: Int
  /// The first `listed` suspended devices, in id order, with why.
  public var suspended: [Suspended]

  public init(
    devices: [String: Int], disabled: Int, quarantined: Int, pending: Int, leased: Int, backingOff: Int,
    suspended: [Suspended] = []
  ) {
    self.suspended = suspended
    self.devices = devices
    self.disabled = disabled
    self.quarantined = quarantined
    self.pending = pending
    self.leased = leased
    self.backingOff = backingOff
  }

  /// Read from a store's devices and outbox at `now`.
  public static func read(from store: any DeviceRegistry & PushOutbox, at now: Date) async throws -> PushStatus {
    let kinds = try await store.deviceCounts()
    let suspended = try await store.suspendedCounts()
    let backlog = try await store.outboxBacklog(at: now)
    let listed = try await store.suspendedDevices(after: nil, limit: Self.listed).compactMap { device in
      device.suspended.map {
        Suspended(
          id: device.id, kind: device.kind.rawValue, token: device.shownToken, state: $0.kind.rawValue, why: $0.why,
          since: $0.since)
      }
    }
    return PushStatus(
      devices: Dictionary(uniqueKeysWithValues: Device.Kind.allCases.map { ($0.rawValue, kinds[$0] ?? 0) }),
      disabled: suspended[.disabled] ?? 0, quarantined: suspended[.quarantined] ?? 0, pending: backlog.pending,
      leased: backlog.leased, backingOff: backlog.backingOff, suspended: listed)
  }
}
