import Foundation
import Logging
import StatlineCore

/// Delivers the store's events to each sink, beside the scheduler (architecture.md#events).
///
/// Every sink runs on its own task from its own cursor in the store: at least once (the cursor
/// advances only past events the sink accepted, and every event before them), in order per game
/// (up to the sink's `maxInFlight` at once, never two of one game; in store order at 1), resumed
/// after a restart. A failed delivery is retried with exponential
/// backoff and jitter, honouring `Retry-After`, until `giveUpAfter` has passed since its first
/// attempt or the failure is final (a 4xx other than 408 and 429); the event then becomes a dead
/// letter and delivery goes on. A slow or dead sink never slows polling or the other sinks: they
/// read the store, not a queue the poller fills, and memory holds at most one page per sink.
public final class EventDelivery<C: Clock<Duration>>: Sendable {
  public struct Configuration: Sendable {
    /// Events read from the store at a time, per sink.
    public var pageSize = 200
    /// How often a caught-up sink looks for new events another process wrote (this process's
    /// commits wake it at once: `EventLog.eventBell`).
    public var idlePoll: Duration = .milliseconds(500)
    /// Retries of every sink, unless `sinkRetry` names the sink.
    public var retry = DeliveryRetry()
    public var sinkRetry: [String: DeliveryRetry] = [:]
    /// A backlog (events not yet delivered) above this is logged as a warning.
    public var backlogWarning: Int64 = 10_000

    public init() {}

    func retry(for sink: String) -> DeliveryRetry { sinkRetry[sink] ?? retry }
  }

  /// What happened to one event.
  public enum Outcome: Sendable, Equatable {
    case delivered(attempts: Int)
    case skipped
    case deadLettered(attempts: Int, error: String)
  }

  let log: any EventLog
  public let sinks: [any EventSink]
  let clock: C
  let configuration: Configuration
  let logger: Logger
  let now: @Sendable () -> Date
  let random: @Sendable () -> Double
  /// Set when several workers share the store: a sink is delivered only by the worker holding
  /// its lease (nil: this process delivers every sink).
  let lease: SinkLease?

  /// Who delivers a sink when workers share a store.
  public struct SinkLease: Sendable {
    public var leases: any SinkLeases
    public var holder: String
    /// A holder that stops renewing (killed) loses the sink after this long.
    public var duration: Duration = .seconds(30)

    public init(leases: any SinkLeases, holder: String) {
      self.leases = leases
      self.holder = holder
    }
  }

  /// - Parameters:
  ///   - now: the wall clock for dead letters' times (the job clock).
  ///   - random: jitter in 0..<1.
  public init(
    log: any EventLog, sinks: [any EventSink], clock: C, configuration: Configuration = Configuration(),
    logger: Logger, now: @escaping @Sendable () -> Date = Date.init,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, lease: SinkLease? = nil
  ) {
    self.lease = lease
    self.log = log
    self.sinks = sinks
    self.clock = clock
    self.configuration = configuration
    self.logger = logger
    self.now = now
    self.random = random
  }

  /// Delivers until cancelled, every sink on its own task; under a lease, gives every sink
  /// back on the way out, so another worker takes over at once.
  public func run() async throws {
    defer {
      if let lease { Task { try? await lease.leases.releaseSinks(holder: lease.holder) } }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for sink in sinks {
        group.addTask { try await self.run(sink) }
      }
      try await group.waitForAll()
    }
  }

  func run(_ sink: any EventSink) async throws {
    while !Task.isCancelled {
      do {
        if let lease {
          guard try await hold(sink, lease) else {
            // Another worker delivers this sink.
            try await clock.sleep(for: configuration.idlePoll)
            continue
          }
          let seen = log.eventBell.rings
          if try await deliverPageHolding(sink, lease) == 0 { try await idle(after: seen) }
          continue
        }
        let seen = log.eventBell.rings
        if try await deliverPage(to: sink) == 0 { try await idle(after: seen) }
      } catch is CancellationError {
        return
      } catch is LeaseLost {
        // It lapsed mid-page (this worker stalled): the sink's new holder goes on from the cursor.
        logger.warning("the sink's lease passed to another worker mid-page", metadata: ["sink": "\(sink.name)"])
      } catch {
        // The store could not be read or written: try again later, never stop the job.
        logger.error("event delivery could not use the store", metadata: ["sink": "\(sink.name)", "error": "\(error)"])
        try await clock.sleep(for: configuration.idlePoll)
      }
    }
  }

  /// A caught-up sink waits for the store's next commit of events in this process, or for
  /// `idlePoll` (events another process wrote ring no bell here).
  private func idle(after seen: UInt64) async throws {
    _ = try await log.eventBell.wait(after: seen, atMost: configuration.idlePoll, on: clock)
  }

  private func hold(_ sink: any EventSink, _ lease: SinkLease) async throws -> Bool {
    let at = now()
    let until = at.addingTimeInterval(Double(lease.duration.components.seconds))
    return try await lease.leases.holdSink(sink.name, holder: lease.holder, now: at, until: until)
  }

  struct LeaseLost: Error {}

  /// Moves a sink's cursor past an event it accepted, even while the job is stopping: a cursor
  /// write cancelled after the delivery would have the sink's next holder deliver it again.
  private func record(_ sequence: Int64, of sink: any EventSink) async throws {
    let log = self.log
    let name = sink.name
    try await Task { try await log.setCursor(sequence, of: name) }.value
  }

  /// A page delivered while the sink's lease is renewed beside it (a receiver that is down
  /// can hold a page for long); a lease lost mid-page stops the page, so two workers never
  /// deliver one sink at once.
  private func deliverPageHolding(_ sink: any EventSink, _ lease: SinkLease) async throws -> Int {
    try await withThrowingTaskGroup(of: Int.self) { group in
      group.addTask { try await self.deliverPage(to: sink) }
      group.addTask {
        while true {
          try await self.clock.sleep(for: lease.duration / 3)
          guard try await self.hold(sink, lease) else { throw LeaseLost() }
        }
      }
      defer { group.cancelAll() }
      return try await group.next() ?? 0
    }
  }

  /// Delivers the next page of events after the sink's cursor; returns how many it handled
  /// (0 when the sink is caught up).
  @discardableResult
  public func deliverPage(to sink: any EventSink) async throws -> Int {
    var cursor = try await log.cursor(of: sink.name)
    let events = try await log.events(since: cursor, limit: configuration.pageSize)
    guard !events.isEmpty else { return 0 }
    if events.count == configuration.pageSize {
      let backlog = try await log.lastEventSequence() - cursor
      if backlog > configuration.backlogWarning {
        logger.warning(
          "event sink is behind", metadata: ["sink": "\(sink.name)", "backlog": "\(backlog)", "cursor": "\(cursor)"])
      }
    }
    if sink.maxInFlight <= 1 {
      for event in events {
        _ = try await deliver(event, to: sink)
        cursor = event.sequence
        try await record(cursor, of: sink)
      }
      return events.count
    }
    try await deliverConcurrently(events, to: sink, lanes: sink.maxInFlight)
    return events.count
  }

  /// Up to `lanes` deliveries at once, never two of one game (in order per game); the cursor
  /// advances to the highest sequence below which every event is done, so a crash repeats only
  /// the deliveries that were in flight.
  func deliverConcurrently(_ events: [ChangeEvent], to sink: any EventSink, lanes: Int) async throws {
    var queues: [String: ArraySlice<ChangeEvent>] = [:]
    var games: [String] = []
    for event in events {
      if queues[event.gameId] == nil { games.append(event.gameId) }
      queues[event.gameId, default: []].append(event)
    }
    var done = Set<Int64>()
    var next = 0  // index in `events` of the first event not yet done
    try await withThrowingTaskGroup(of: (game: String, sequence: Int64).self) { group in
      var busy = Set<String>()
      func start(_ group: inout ThrowingTaskGroup<(game: String, sequence: Int64), any Error>) {
        for game in games where busy.count < lanes && !busy.contains(game) {
          guard let event = queues[game]?.first else { continue }
          queues[game] = queues[game]?.dropFirst()
          busy.insert(game)
          group.addTask {
            _ = try await self.deliver(event, to: sink)
            return (game, event.sequence)
          }
        }
      }
      start(&group)
      while let finished = try await group.next() {
        busy.remove(finished.game)
        done.insert(finished.sequence)
        let before = next
        while next < events.count, done.contains(events[next].sequence) { next += 1 }
        if next > before { try await record(events[next - 1].sequence, of: sink) }
        start(&group)
      }
    }
  }

  /// Delivers everything after the sink's cursor, then returns (for `statline events` and tests).
  public func drain(_ sink: any EventSink) async throws -> Int {
    var total = 0
    while true {
      let handled = try await deliverPage(to: sink)
      if handled == 0 { return total }
      total += handled
    }
  }

  /// One pass without waiting (for `statline once`): delivers the sink's pending events, each
  /// tried once, and stops at the first retryable failure, leaving the cursor there for the next
  /// run; a final refusal becomes a dead letter as usual. Returns how many events it handled and
  /// the failure it stopped at.
  public func deliverWithoutWaiting(to sink: any EventSink) async throws -> (handled: Int, stoppedAt: String?) {
    var handled = 0
    while true {
      let cursor = try await log.cursor(of: sink.name)
      let events = try await log.events(since: cursor, limit: configuration.pageSize)
      guard !events.isEmpty else { return (handled, nil) }
      for event in events {
        if sink.filter.matches(event) {
          do {
            try await sink.deliver(event)
          } catch let error as EventDeliveryError where !error.retryable {
            try await log.addDeadLetter(
              DeadLetter(sink: sink.name, event: event, attempts: 1, error: error.reason, failedAt: now()))
          } catch is CancellationError {
            throw CancellationError()
          } catch {
            return (handled, "\(event.id): \((error as? EventDeliveryError)?.reason ?? "\(error)")")
          }
        }
        try await log.setCursor(event.sequence, of: sink.name)
        handled += 1
      }
    }
  }

  /// Events not yet delivered to a sink.
  public func backlog(of sink: any EventSink) async throws -> Int64 {
    try await log.lastEventSequence() - log.cursor(of: sink.name)
  }

  /// One event to one sink, retried until delivered, final, or given up (then a dead letter).
  public func deliver(_ event: ChangeEvent, to sink: any EventSink) async throws -> Outcome {
    guard sink.filter.matches(event) else { return .skipped }
    let retry = configuration.retry(for: sink.name)
    let started = clock.now
    var attempt = 0
    while true {
      attempt += 1
      let failure: EventDeliveryError
      do {
        try await sink.deliver(event)
        return .delivered(attempts: attempt)
      } catch is CancellationError {
        throw CancellationError()
      } catch let error as EventDeliveryError {
        failure = error
      } catch {
        failure = EventDeliveryError("\(error)", retryable: true)
      }
      try Task.checkCancellation()
      let delay = failure.retryAfter ?? backoff(attempt: attempt, retry: retry)
      if !failure.retryable || started.duration(to: clock.now) + delay > retry.giveUpAfter {
        try await log.addDeadLetter(
          DeadLetter(sink: sink.name, event: event, attempts: attempt, error: failure.reason, failedAt: now()))
        logger.error(
          "event given up: kept as a dead letter (statline events failed)",
          metadata: [
            "sink": "\(sink.name)", "event": "\(event.id)", "type": "\(event.type)", "attempts": "\(attempt)",
            "error": "\(failure.reason)",
          ])
        return .deadLettered(attempts: attempt, error: failure.reason)
      }
      logger.warning(
        "event delivery failed; retrying",
        metadata: [
          "sink": "\(sink.name)", "event": "\(event.id)", "attempt": "\(attempt)", "error": "\(failure.reason)",
          "retryIn": "\(delay)",
        ])
      try await clock.sleep(for: delay)
    }
  }

  /// Exponential backoff with jitter: half of `base × 2^(attempt-1)` (capped) plus up to the other half.
  func backoff(attempt: Int, retry: DeliveryRetry) -> Duration {
    let exponent = min(attempt - 1, 30)
    let full = min(retry.cap, retry.base * (1 << exponent))
    return full / 2 + full / 2 * random()
  }

  /// Delivers dead letters again (one sequence, or all of the sink's); each one delivered is
  /// removed, each that fails again stays with its new error. Returns how many were delivered.
  public func redeliver(_ sink: any EventSink, sequence: Int64? = nil) async throws -> Int {
    var delivered = 0
    for letter in try await log.deadLetters(sink: sink.name) where sequence == nil || letter.event.sequence == sequence
    {
      do {
        try await sink.deliver(letter.event)
        try await log.removeDeadLetter(sink: sink.name, sequence: letter.event.sequence)
        delivered += 1
      } catch {
        var again = letter
        again.attempts += 1
        again.error = (error as? EventDeliveryError)?.reason ?? "\(error)"
        again.failedAt = now()
        try await log.addDeadLetter(again)
      }
    }
    return delivered
  }
}

/// How a failing delivery is retried.
public struct DeliveryRetry: Sendable, Equatable {
  /// The first retry's delay; each next one doubles, up to `cap` (then half of it plus jitter).
  public var base: Duration = .seconds(1)
  public var cap: Duration = .seconds(300)
  /// A failing event is given up (dead-lettered) once this long has passed since its first attempt.
  public var giveUpAfter: Duration = .seconds(3600)

  public init(base: Duration = .seconds(1), cap: Duration = .seconds(300), giveUpAfter: Duration = .seconds(3600)) {
    self.base = base
    self.cap = cap
    self.giveUpAfter = giveUpAfter
  }
}
