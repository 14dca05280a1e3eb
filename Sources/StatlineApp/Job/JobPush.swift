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
  /// Closes the senders' connections.
  let closers: [@Sendable () async -> Void]
  let closeStore: @Sendable () async -> Void

  init(
    service: PushService<C>, outbox: any DeviceRegistry & PushOutbox, closers: [@Sendable () async -> Void],
    closeStore: @escaping @Sendable () async -> Void
  ) {
    self.service = service
    self.outbox = outbox
    self.closers = closers
    self.closeStore = closeStore
  }

  /// What `check --config` verifies without sending: the APNs key file is a P-256 key with
  /// well-formed ids, the FCM service-account file is whole (an RSA key, an https token URI, a
  /// project), and the trust roots (when given) hold certificates.
  public static func check(_ settings: PushSettings) throws(StatlineError) {
    if let apns = settings.apns {
      _ = try APNsSigningKey(file: apns.keyFile, keyId: apns.keyId, teamId: apns.teamId)
      _ = try HTTP2Clients.trustRoots(apns.trustRoots, key: "push.apns.trustRoots")
    }
    if let fcm = settings.fcm {
      _ = try project(fcm, try FCMServiceAccount(file: fcm.serviceAccountFile))
      _ = try HTTP2Clients.trustRoots(fcm.trustRoots, key: "push.fcm.trustRoots")
    }
  }

  /// The Firebase project: the configuration's, else the service-account file's.
  static func project(_ fcm: PushSettings.FCM, _ account: FCMServiceAccount) throws(StatlineError) -> String {
    guard let project = fcm.project ?? account.projectId, !project.isEmpty else {
      throw StatlineError(
        .configuration, "push.fcm names no project and the service-account file has no project_id",
        location: fcm.serviceAccountFile, hint: "add push.fcm.project: <the Firebase project id>")
    }
    return project
  }

  /// The transports `settings` name, and what closes their connections. Nothing is left open
  /// when one cannot be built: a pool connects at its first request.
  static func transports(_ settings: PushSettings, now: @escaping @Sendable () -> Date, logger: Logger)
    throws(StatlineError) -> (
      transports: [any PushTransport], closers: [@Sendable () async -> Void], channels: APNsChannels?
    )
  {
    var transports: [any PushTransport] = []
    var closers: [@Sendable () async -> Void] = []
    var channels: APNsChannels?
    if let apns = settings.apns {
      let key = try APNsSigningKey(file: apns.keyFile, keyId: apns.keyId, teamId: apns.teamId)
      let connections = try APNsConnections(
        endpoints: .init(production: apns.production, sandbox: apns.sandbox), perEnvironment: apns.connections,
        trustRootsFile: apns.trustRoots)
      closers.append { await connections.shutdown() }
      let tokens = APNsProviderTokens(key: key, now: now)
      let sender = APNsSender(
        tokens: tokens, connections: connections, deadline: apns.timeout, now: now, logger: logger)
      // Broadcast channels: their own connections to APNs' management hosts, the same token.
      if let broadcast = apns.broadcast {
        let management = try APNsConnections(
          endpoints: .init(production: broadcast.production, sandbox: broadcast.sandbox), perEnvironment: 1,
          trustRootsFile: apns.trustRoots)
        closers.append { await management.shutdown() }
        channels = APNsChannels(
          tokens: tokens, connections: management, storage: broadcast.storesLatest ? .latest : .none,
          deadline: apns.timeout, logger: logger)
      }
      transports.append(APNsTransport(sender: sender, channels: channels))
    }
    if let fcm = settings.fcm {
      let account = try FCMServiceAccount(file: fcm.serviceAccountFile)
      let project = try project(fcm, account)
      let roots = try HTTP2Clients.trustRoots(fcm.trustRoots, key: "push.fcm.trustRoots")
      let connections = HTTP2Clients(size: fcm.connections(inFlight: settings.inFlight), trustRoots: roots)
      // The token endpoint is another host (oauth2.googleapis.com): a connection of its own.
      let oauth = HTTP2Clients(size: 1, trustRoots: roots)
      closers.append {
        await connections.shutdown()
        await oauth.shutdown()
      }
      let tokens = FCMAccessTokens(account: account, client: oauth, deadline: fcm.timeout, now: now)
      transports.append(
        FCMTransport(
          sender: FCMSender(
            tokens: tokens, connections: connections, baseURL: fcm.baseURL, project: project, deadline: fcm.timeout,
            now: now, logger: logger)))
    }
    return (transports, closers, channels)
  }

  static func build(
    _ settings: PushSettings, location: StoreLocation, log: any EventLog & StoreReader, liveCadence: Duration,
    clock: C, now: @escaping @Sendable () -> Date, report: @escaping @Sendable (PushDispatcher.Report) -> Void
  ) async throws(StatlineError) -> JobPush {
    guard settings.apns != nil || settings.fcm != nil else {
      throw StatlineError(.configuration, "push names no sender", hint: "add push.apns or push.fcm")
    }
    let logger = Logger(label: "statline.push")
    // On a failure below, what opened is closed.
    let (transports, closers, channels) = try Self.transports(settings, now: now, logger: logger)
    func closeSenders() async { for close in closers { await close() } }
    // The job's own store when it keeps devices (PostgreSQL: no second pool), else the
    // store's device connection (SQLite).
    let opened: (registry: any DeviceRegistry & PushOutbox, close: @Sendable () async -> Void)
    if let shared = log as? any DeviceRegistry & PushOutbox {
      opened = (shared, {})
    } else {
      do {
        opened = try await location.openDevices()
      } catch {
        await closeSenders()
        throw error
      }
    }
    var sending = PushDispatcher.Configuration()
    sending.batch = settings.batch
    sending.inFlight = max(1, settings.inFlight / PushDispatcher.lanes)
    sending.lease = Double(settings.lease.components.seconds)
    let longest = max(settings.apns?.timeout ?? .zero, settings.fcm?.timeout ?? .zero)
    sending.requestDeadline = Double(longest.components.seconds) + 1
    var burst = SuspensionGuard.Configuration()
    burst.share = settings.disableBurst
    let dispatcher = PushDispatcher(
      outbox: opened.registry, transports: transports, configuration: sending,
      suspensions: SuspensionGuard(configuration: burst, logger: logger), now: now, logger: logger)
    var planning = PushEvaluator.Configuration()
    planning.cap = settings.cap
    planning.kinds = dispatcher.kinds
    let evaluator = PushEvaluator(
      log: log, outbox: opened.registry, configuration: planning, now: now, logger: logger)
    var activityPlanning = ActivityEvaluator.Configuration()
    activityPlanning.timing.cadence = Double(liveCadence.components.seconds)
    activityPlanning.broadcast = settings.apns?.broadcast.map { .init(topic: $0.topic, environment: $0.environment) }
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
      await closeSenders()
      await opened.close()
      throw StatlineError(
        .store, "the push path cannot read where it starts in the outbox: \(error)",
        hint: "check that the store is reachable and writable")
    }
    return JobPush(
      service: PushService(
        log: log, evaluator: evaluator, activities: dispatcher.kinds.contains(.apnsLiveActivity) ? activities : nil,
        dispatcher: dispatcher, clock: clock, purgeDisabledAfter: settings.purgeDisabledAfter, report: report,
        logger: logger),
      outbox: opened.registry, closers: closers, closeStore: opened.close)
  }

  func shutdown() async {
    for close in closers { await close() }
    await closeStore()
  }
}
