import Foundation
import Logging
import StatlineCore

/// The push path as a long-running part of the job (architecture.md#the-push-outbox): the
/// evaluator, the Live Activity planner (when a sender reaches activities) and the send loop
/// side by side, so a fan-out to many devices is being sent while
/// the rest is still being planned; `lanes` send loops, so one claims and settles while another's
/// requests are in flight. Each waits on the event bell (or `idle`) when there is
/// nothing to do; a store error is logged and retried after `idle`, never the end of the job;
/// a misconfigured sender pauses sending for `pause`, saying why, and tries again after it.
public struct PushService<C: Clock<Duration>>: Sendable {
  let log: any EventLog
  let evaluator: PushEvaluator
  let activities: ActivityEvaluator?
  let dispatcher: PushDispatcher
  let clock: C
  let idle: Duration
  let pause: Duration
  let lanes: Int
  /// Disabled devices are deleted this long after they were disabled (nil: kept).
  let purgeDisabledAfter: Duration?
  let report: @Sendable (PushDispatcher.Report) -> Void
  let logger: Logger
  /// Rung when a planner queued alerts: the send loops waiting for work wake at once rather
  /// than at their next `idle` look (another worker's loops still look every `idle`).
  let queued = EventBell()

  public init(
    log: any EventLog, evaluator: PushEvaluator, activities: ActivityEvaluator? = nil, dispatcher: PushDispatcher,
    clock: C,
    idle: Duration = .milliseconds(250), pause: Duration = .seconds(60), lanes: Int = PushDispatcher.lanes,
    purgeDisabledAfter: Duration? = nil, report: @escaping @Sendable (PushDispatcher.Report) -> Void = { _ in },
    logger: Logger = Logger(label: "statline.push")
  ) {
    self.log = log
    self.evaluator = evaluator
    self.activities = activities
    self.dispatcher = dispatcher
    self.clock = clock
    self.idle = idle
    self.pause = pause
    self.lanes = max(1, lanes)
    self.purgeDisabledAfter = purgeDisabledAfter
    self.report = report
    self.logger = logger
  }

  /// Runs until cancelled.
  public func run() async {
    await withTaskGroup(of: Void.self) { group in
      group.addTask {
        await self.plan("the push evaluator") {
          let page = try await evaluator.evaluatePage()
          if page.queued > 0 { queued.ring() }
          return page.events > 0
        }
      }
      if let activities {
        group.addTask {
          await self.plan("the Live Activity planner") {
            let page = try await activities.evaluatePage()
            if page.queued > 0 { queued.ring() }
            return page.changes > 0
          }
        }
      }
      // Several send loops, each with its own claimed batch: one claims and settles while the
      // other's requests are in flight, so the connections never wait for the store.
      for _ in 0..<lanes { group.addTask { await self.dispatch() } }
      if let purgeDisabledAfter { group.addTask { await self.purge(after: purgeDisabledAfter) } }
    }
  }

  /// A planner's loop: pages; with nothing to plan it waits for the event bell or `idle` (a
  /// clock's tick rings no bell: the activity planner looks again after `idle`). Where the
  /// planners start (`PushEvaluator.skipHistory`, `ActivityEvaluator.startAtEnd`) is settled
  /// before the job polls (`JobPush`): done here, it raced the first poll's events.
  func plan(_ name: String, page: @Sendable () async throws -> Bool) async {
    while !Task.isCancelled {
      do {
        let seen = log.eventBell.rings
        if !(try await page()) { _ = try await log.eventBell.wait(after: seen, atMost: idle, on: clock) }
      } catch is CancellationError {
        return
      } catch {
        logger.error("\(name) could not use the store", metadata: ["error": "\(error)"])
        try? await clock.sleep(for: idle)
      }
    }
  }

  /// How often disabled devices are looked for.
  static var purgeEvery: Duration { .seconds(3600) }

  /// Deletes the devices disabled more than `age` ago, at start and then hourly.
  func purge(after age: Duration) async {
    while !Task.isCancelled {
      do {
        let before = dispatcher.now().addingTimeInterval(-Double(age.components.seconds))
        let purged = try await dispatcher.outbox.purgeDisabledDevices(before: before)
        if purged > 0 {
          logger.notice(
            "disabled devices purged",
            metadata: ["devices": "\(purged)", "disabled before": "\(Freshness.iso(before))"])
        }
        try await clock.sleep(for: Self.purgeEvery)
      } catch is CancellationError {
        return
      } catch {
        logger.error("disabled devices could not be purged", metadata: ["error": "\(error)"])
        try? await clock.sleep(for: Self.purgeEvery)
      }
    }
  }

  func dispatch() async {
    while !Task.isCancelled {
      do {
        let seen = queued.rings
        let batch = try await dispatcher.dispatchBatch()
        report(batch)
        if let why = batch.misconfigured {
          logger.critical(
            "push sending is paused: the sender is misconfigured",
            metadata: ["why": "\(why)", "retry in": "\(pause)"])
          try await clock.sleep(for: pause)
        } else if batch.claimed == 0 {
          _ = try await queued.wait(after: seen, atMost: idle, on: clock)
        }
      } catch is CancellationError {
        return
      } catch {
        logger.error("the push sender could not use the store", metadata: ["error": "\(error)"])
        try? await clock.sleep(for: idle)
      }
    }
  }
}
