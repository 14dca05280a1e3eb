import Foundation
import Logging
import StatlineCore
import StatlinePush

/// The job's push path, built from `push:` (architecture.md#the-push-outbox): the store's
/// devices and outbox, the APNs sender (its key read and checked at start), the evaluator and
/// the send loop, run beside the scheduler by `statline run`.
///
/// A class, not a struct: `JobRuntime` keeps it as an optional, and an optional of this generic
/// struct (a clock and closures inside) was destroyed wrongly on this toolchain (a crash in the
/// compiler's outlined destroy of `JobRuntime<SteppingClock>`, then corrupted metadata); an
/// optional reference has no such layout.
public final class JobPush<C: Clock<Duration>>: Sendable {
  public let service: PushService<C>
  public let outbox: any DeviceRegistry & PushOutbox
  let connections: [APNsConnections]
  let closeStore: @Sendable () async -> Void

  init(
    service: PushService<C>, outbox: any DeviceRegistry & PushOutbox, connections: [APNsConnections],
    closeStore: @escaping @Sendable () async -> Void
  ) {
    self.service = service
    self.outbox = outbox
    self.connections = connections
    self.closeStore = closeStore
  }

  /// What `check --config` verifies without sending: the key file is a P-256 key with
  /// well-formed ids, and the trust roots (when given) hold certificates.
  public static func check(_ settings: PushSettings) throws(StatlineError) {
    guard let apns = settings.apns else { return }
    _ = try APNsSigningKey(file: apns.keyFile, keyId: apns.keyId, teamId: apns.teamId)
    _ = try APNsConnections(
      endpoints: .init(production: apns.production, sandbox: apns.sandbox), perEnvironment: 1,
      trustRootsFile: apns.trustRoots)
  }

  static func build(
    _ settings: PushSettings, location: StoreLocation, log: any EventLog & StoreReader, liveCadence: Duration,
    clock: C, now: @escaping @Sendable () -> Date, report: @escaping @Sendable (PushDispatcher.Report) -> Void
  ) async throws(StatlineError) -> JobPush {
    guard let apns = settings.apns else {
      throw StatlineError(.configuration, "push names no sender", hint: "add push.apns")
    }
    let key = try APNsSigningKey(file: apns.keyFile, keyId: apns.keyId, teamId: apns.teamId)
    let connections = try APNsConnections(
      endpoints: .init(production: apns.production, sandbox: apns.sandbox), perEnvironment: apns.connections,
      trustRootsFile: apns.trustRoots)
    let logger = Logger(label: "statline.push")
    // The job's own store when it keeps devices (PostgreSQL: no second pool), else the
    // store's device connection (SQLite).
    let opened: (registry: any DeviceRegistry & PushOutbox, close: @Sendable () async -> Void)
    if let shared = log as? any DeviceRegistry & PushOutbox {
      opened = (shared, {})
    } else {
      do {
        opened = try await location.openDevices()
      } catch {
        await connections.shutdown()
        throw error
      }
    }
    let tokens = APNsProviderTokens(key: key, now: now)
    let sender = APNsSender(
      tokens: tokens, connections: connections, deadline: apns.timeout, now: now, logger: logger)
    // Broadcast channels: their own connections to APNs' management hosts, the same token.
    var channels: APNsChannels?
    if let broadcast = apns.broadcast {
      do {
        channels = APNsChannels(
          tokens: tokens,
          connections: try APNsConnections(
            endpoints: .init(production: broadcast.production, sandbox: broadcast.sandbox), perEnvironment: 1,
            trustRootsFile: apns.trustRoots),
          storage: broadcast.storesLatest ? .latest : .none, deadline: apns.timeout, logger: logger)
      } catch {
        await connections.shutdown()
        await opened.close()
        throw error
      }
    }
    var sending = PushDispatcher.Configuration()
    sending.batch = settings.batch
    sending.inFlight = max(1, settings.inFlight / PushDispatcher.lanes)
    sending.lease = Double(settings.lease.components.seconds)
    sending.requestDeadline = Double(apns.timeout.components.seconds) + 1
    let dispatcher = PushDispatcher(
      outbox: opened.registry, transports: [APNsTransport(sender: sender, channels: channels)],
      configuration: sending, now: now,
      logger: logger)
    var planning = PushEvaluator.Configuration()
    planning.cap = settings.cap
    planning.kinds = dispatcher.kinds
    let evaluator = PushEvaluator(
      log: log, outbox: opened.registry, configuration: planning, now: now, logger: logger)
    var activityPlanning = ActivityEvaluator.Configuration()
    activityPlanning.timing.cadence = Double(liveCadence.components.seconds)
    activityPlanning.broadcast = apns.broadcast.map { .init(topic: $0.topic, environment: $0.environment) }
    let activities = ActivityEvaluator(
      changes: log, outbox: opened.registry, channels: channels, configuration: activityPlanning, now: now,
      logger: logger)
    // Where the planners start, before the job polls: push switched on for a store with a
    // season of events announces none of them, and the first poll's events are not taken for
    // history (settled in the service's own start, they raced it).
    do {
      try await evaluator.skipHistory()
      if dispatcher.kinds.contains(.apnsLiveActivity) { try await activities.startAtEnd() }
    } catch {
      for pool in [connections] + (channels.map { [$0.connections] } ?? []) { await pool.shutdown() }
      await opened.close()
      throw StatlineError(
        .store, "the push path cannot read where it starts in the outbox: \(error)",
        hint: "check that the store is reachable and writable")
    }
    return JobPush(
      service: PushService(
        log: log, evaluator: evaluator, activities: dispatcher.kinds.contains(.apnsLiveActivity) ? activities : nil,
        dispatcher: dispatcher, clock: clock, report: report, logger: logger),
      outbox: opened.registry, connections: [connections] + (channels.map { [$0.connections] } ?? []),
      closeStore: opened.close)
  }

  func shutdown() async {
    for pool in connections { await pool.shutdown() }
    await closeStore()
  }
}
