import Foundation

/// The push path at a glance (`/v1/status`'s `push`, `statline status`): the devices by kind,
/// how many are suspended, and what the outbox holds.
public struct PushStatus: Codable, Sendable, Equatable {
  /// Devices of each kind (`apns`, `apns-liveactivity`, `fcm`).
  public var devices: [String: Int]
  /// Devices the service said are gone (410), and those with a token not this app's.
  public var disabled: Int
  public var quarantined: Int
  /// Alerts still to send, those held by a sender now, and those waiting out a backoff.
  public var pending: Int
  public var leased: Int
  public var backingOff: Int

  public init(
    devices: [String: Int], disabled: Int, quarantined: Int, pending: Int, leased: Int, backingOff: Int
  ) {
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
    return PushStatus(
      devices: Dictionary(uniqueKeysWithValues: Device.Kind.allCases.map { ($0.rawValue, kinds[$0] ?? 0) }),
      disabled: suspended[.disabled] ?? 0, quarantined: suspended[.quarantined] ?? 0, pending: backlog.pending,
      leased: backlog.leased, backingOff: backlog.backingOff)
  }
}
