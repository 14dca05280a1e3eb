import Foundation

/// Where devices are kept (architecture.md#devices): every store holds them beside its records
/// (SQLite, PostgreSQL, the memory store), indexed by team so that the push evaluator reads the
/// followers of two teams without scanning every device. `DeviceRegistryContract` is what each
/// must do.
public protocol DeviceRegistry: Sendable {
  /// Stores `device` under its id, replacing what was there (its `registeredAt` kept when the
  /// device was there before). Says whether it was new.
  func upsertDevice(_ device: Device) async throws -> DeviceUpsert
  /// The device under `id`, if any.
  func device(id: String) async throws -> Device?
  /// The devices under `ids` that exist, in any order (a sender reads a batch's at once).
  func devices(ids: [String]) async throws -> [Device]
  /// Removes the device; false when there was none.
  func deleteDevice(id: String) async throws -> Bool
  /// The devices that follow any of `teams`, in id order after `after` (nil: from the first), at
  /// most `limit`: the evaluator pages through them.
  func devices(following teams: [String], after: String?, limit: Int) async throws -> [Device]
  /// The Live Activities (`apns-liveactivity`) that follow any of `gameIds` (a canonical game's
  /// id and its sources' ids: an activity may have been registered with either), in id order
  /// after `after`, at most `limit`: indexed by game, so a game's change reads only its own.
  func devices(watching gameIds: [String], after: String?, limit: Int) async throws -> [Device]
  /// How many devices there are of each kind.
  func deviceCounts() async throws -> [Device.Kind: Int]
  /// How many devices are suspended, of each kind of suspension.
  func suspendedCounts() async throws -> [Device.Suspension.Kind: Int]
  /// The suspended devices (`Device.suspended` set), in id order after `after`, at most `limit`:
  /// `statline devices list` shows them with why.
  func suspendedDevices(after: String?, limit: Int) async throws -> [Device]
  /// Suspends the device by `Device.suspending` (the sender's answer): the device as stored
  /// after, or nil when there is no such device or the rule leaves it as it is.
  func suspendDevice(id: String, _ suspension: Device.Suspension) async throws -> Device?
}

/// What an upsert did.
public struct DeviceUpsert: Sendable, Equatable {
  /// The device as stored (with the `registeredAt` it keeps).
  public var device: Device
  /// False when a device was there under the id before.
  public var created: Bool

  public init(device: Device, created: Bool) {
    self.device = device
    self.created = created
  }
}

extension DeviceRegistry {
  /// Deletes the devices disabled (the service said their token is gone) before `before`, with
  /// their outbox slots: a token APNs or FCM gave up on is not kept for ever. Quarantined devices
  /// stay, listed with why, for an operator. Written once over `suspendedDevices` and
  /// `deleteDevice`, so every store purges alike. Returns how many went.
  public func purgeDisabledDevices(before: Date) async throws -> Int {
    var purged = 0
    var after: String?
    while true {
      let page = try await suspendedDevices(after: after, limit: 500)
      guard let last = page.last else { return purged }
      after = last.id
      for device in page where device.suspended?.kind == .disabled {
        guard let since = device.suspended.flatMap({ Freshness.date($0.since) }), since < before else { continue }
        if try await deleteDevice(id: device.id) { purged += 1 }
      }
    }
  }
}
