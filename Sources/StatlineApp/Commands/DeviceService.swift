import Logging
import StatlineCanonical
import StatlineCore
import StatlineServer

/// The device routes a server mounts when API key hashes are configured: the store's devices
/// opened for writing (`StoreLocation.openDevices`) behind `DeviceRoutes`.
struct DeviceService: Sendable {
  let routes: DeviceRoutes
  let close: @Sendable () async -> Void

  /// Nil when no key hash is configured: the API stays read-only, and says so in the log.
  static func open(
    store: StoreLocation, hashes: [String], teams: TeamRegistry, limits: DeviceRoutes.Limits = DeviceRoutes.Limits(),
    logger: Logger
  ) async throws(StatlineError) -> DeviceService? {
    let keys = try DeviceKeys(hashes: hashes)
    guard !keys.isEmpty else {
      logger.info("the device routes are off: no API key hash is configured (api.deviceKeys, --device-key-hash)")
      return nil
    }
    let (registry, close) = try await store.openDevices(logger: logger)
    logger.info("the device routes are on", metadata: ["keys": "\(hashes.count)", "path": "/v1/devices"])
    return DeviceService(
      routes: DeviceRoutes(registry: registry, keys: keys, teams: teams, limits: limits), close: close)
  }

  /// Where `/v1/status` reads the devices and the push outbox: the reader itself when it keeps
  /// them (PostgreSQL), else the store's device connection (SQLite); nil when the store cannot
  /// give them (a file from before them), and the status says nothing of push.
  static func pushStatus(store: StoreLocation, reader: any StoreReader, logger: Logger) async
    -> (any DeviceRegistry & PushOutbox)?
  {
    if let shared = reader as? any DeviceRegistry & PushOutbox { return shared }
    do {
      return try await store.openDevices(logger: logger).registry
    } catch {
      logger.notice("/v1/status leaves out push: the store's devices cannot be read", metadata: ["error": "\(error)"])
      return nil
    }
  }
}
