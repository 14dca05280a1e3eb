import Foundation
import Logging
import StatlineCore

/// The Live Activity planner's loop step (architecture.md#live-activities): reads the store's
/// changes (delta sync's feed: each game's newest version) from its own cursor, and for each
/// canonical game that changed, the activities following it (through the registry's game index,
/// a page at a time), and queues what `LiveActivityPlanner` plans for each into the outbox in the
/// transaction that moves the cursor. A clock that ticks is a new version of its game but no
/// event, so this reads versions, not events; a game that changed twice since the last read is
/// read once, at its newest (at most one update per poll, usually fewer).
public struct ActivityEvaluator: Sendable {
  public struct Configuration: Sendable {
    /// Changes read per page.
    public var changePage = 500
    /// Activities read per query.
    public var devicePage = 1_000
    /// Updates written per transaction.
    public var alertsPerWrite = 1_000
    public var timing = LiveActivityPlanner.Timing()
    /// The app whose activities a game's broadcast channel serves, when channels are used.
    public var broadcast: Broadcast?

    public init() {}
  }

  /// Broadcast channels (iOS 18): one per game for one app and environment, opened when the game
  /// is first seen live, updated with one request per change, deleted after its end was sent.
  public struct Broadcast: Sendable, Equatable {
    public var topic: String
    public var environment: Device.Environment

    public init(topic: String, environment: Device.Environment) {
      self.topic = topic
      self.environment = environment
    }
  }

  /// What one page came to.
  public struct Report: Sendable, Equatable {
    /// Changes read (0: nothing new), and of them the games.
    public var changes = 0
    public var games = 0
    public var queued = 0
    public var ignored = 0
    public var moved = true
  }

  let changes: any StoreReader
  let outbox: any DeviceRegistry & PushOutbox
  let channels: (any BroadcastChannels)?
  let configuration: Configuration
  let now: @Sendable () -> Date
  let logger: Logger

  public init(
    changes: any StoreReader, outbox: any DeviceRegistry & PushOutbox, channels: (any BroadcastChannels)? = nil,
    configuration: Configuration = Configuration(), now: @escaping @Sendable () -> Date,
    logger: Logger = Logger(label: "statline.push")
  ) {
    self.changes = changes
    self.outbox = outbox
    self.channels = channels
    self.configuration = configuration
    self.now = now
    self.logger = logger
  }

  /// Run once as the push path starts: a cursor that has planned nothing starts at the store's
  /// version (a game's old versions are no activity's news). Says the version it starts at.
  @discardableResult
  public func startAtEnd() async throws -> Int64 {
    guard try await outbox.outboxCursor(of: .activities) == .start else { return 0 }
    let version = try await changes.version()
    // An empty store is marked begun (`OutboxCursor.begun`), as the event planner's.
    _ = try await outbox.enqueueAlerts(
      [], from: .start, to: version > 0 ? OutboxCursor(sequence: version) : .begun, cap: OutboxSlot.defaultCap,
      in: .activities)
    return version
  }

  /// Plans the next page of changes after the cursor; `changes` is 0 when there were none.
  public func evaluatePage() async throws -> Report {
    var pass = try await PlanningPass(
      outbox: outbox, feed: .activities, cap: OutboxSlot.defaultCap, devicePage: configuration.devicePage,
      alertsPerWrite: configuration.alertsPerWrite)
    let page: [StoreChange]
    do {
      page = try await changes.changes(since: pass.cursor.readAfter, limit: configuration.changePage)
    } catch let resync as StoreResync {
      // The store renamed its games under the cursor: go on from now (an activity wants the
      // game as it is, not its history).
      logger.warning("the Live Activity planner starts again at the store's version", metadata: ["why": "\(resync)"])
      pass.skip(try await changes.version())
      try await pass.finish()
      return Report()
    }
    var report = Report()
    let time = now()
    for change in page {
      guard case .game(let game) = change.record, game.isCanonical, !game.isRetired else {
        pass.skip(change.version)
        report.changes += 1
        continue
      }
      let followed = [game.id] + (game.sources ?? [])
      var first: [QueuedAlert] = []
      if pass.starts(change.version), let channel = try await channel(of: game),
        let alert = LiveActivityPlanner.plan(
          game, version: change.version, for: channel, at: time, timing: configuration.timing)
      {
        first.append(QueuedAlert(alert, sequence: change.version))
      }
      let planned = try await pass.plan(
        change.version, first: first,
        followers: { after, limit in try await outbox.devices(watching: followed, after: after, limit: limit) },
        alerts: { devices in
          devices.compactMap { device in
            LiveActivityPlanner.plan(game, version: change.version, for: device, at: time, timing: configuration.timing)
              .map { QueuedAlert($0, sequence: change.version) }
          }
        })
      guard planned else { break }
      report.changes += 1
      report.games += 1
    }
    try await pass.finish()
    report.queued = pass.queued
    report.ignored = pass.ignored
    report.moved = pass.moved
    return report
  }

  /// The game's broadcast channel device when channels are used: the one stored, or, for a game
  /// that is live and has none (or one APNs no longer knows), a channel opened now and stored.
  /// A channel that cannot be opened is logged and tried again at the game's next change (its
  /// activities registered by token get their updates meanwhile).
  func channel(of game: Game) async throws -> Device? {
    guard let broadcast = configuration.broadcast, let channels else { return nil }
    let id = Device.channelDeviceId(gameId: game.id, topic: broadcast.topic, environment: broadcast.environment)
    let stored = try await outbox.device(id: id)
    if let stored, stored.isLive { return stored }
    guard game.status == .live else { return nil }
    let channel: String
    do {
      channel = try await channels.open(topic: broadcast.topic, environment: broadcast.environment)
    } catch {
      logger.warning(
        "a game's broadcast channel could not be opened", metadata: ["game": "\(game.id)", "error": "\(error)"])
      return nil
    }
    let device = Device.channel(
      gameId: game.id, topic: broadcast.topic, environment: broadcast.environment, channelId: channel,
      at: Freshness.iso(now()))
    logger.info(
      "a game's broadcast channel is open", metadata: ["game": "\(game.id)", "channel": "\(device.shownToken)"])
    return try await outbox.upsertDevice(device).device
  }
}
