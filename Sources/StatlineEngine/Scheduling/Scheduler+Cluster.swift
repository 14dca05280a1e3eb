import Foundation
import StatlineCore

/// This job as one worker of several sharing a `ClusterStore`.
public struct ClusterMembership: Sendable {
  public var store: any ClusterStore
  public var worker: WorkerInfo
  /// How long a claimed target stays this worker's without a renewal; a killed worker's
  /// targets pass to the others this long after its last renewal.
  public var leaseDuration: Duration = .seconds(60)
  /// How often the worker asks for due targets (and so the most a due target waits).
  public var claimEvery: Duration = .seconds(1)
  /// How often the worker renews its leases and beats its heartbeat.
  public var renewEvery: Duration = .seconds(15)
  /// How often the worker refreshes its view of the whole schedule (for summaries, and to know
  /// which games a game target already feeds).
  public var mirrorEvery: Duration = .seconds(30)

  public init(store: any ClusterStore, worker: WorkerInfo) {
    self.store = store
    self.worker = worker
  }

  static let leaseLost = "the lease passed to another worker (this poll outlived it); nothing was written"
}

extension Scheduler {
  private enum ClusterEvent: Sendable {
    case claim
    case maintain
    case summary
    case done(TargetState, Poller.Result)
  }

  /// The worker's loop: claim due targets into leases, poll them, commit each through its
  /// lease; renew the leases in flight and beat the heartbeat; on cancellation give every lease
  /// back at once, so the other workers take this one's targets without waiting for expiry.
  func runInCluster(configured: [Target], _ cluster: ClusterMembership) async throws {
    let store = cluster.store
    let worker = cluster.worker.id
    let clock = self.clock
    try await store.heartbeat(cluster.worker, at: clock.now())
    var book = ScheduleBook(
      states: try await store.targets(), policies: configuration.policies, defaultPolicy: configuration.defaultPolicy,
      sports: configuration.sports)
    let known = Set(book.states.keys)
    let seeded = book.seed(configured, now: clock.now())
    try await store.seed(
      new: seeded.filter { !known.contains($0.id) }, changed: seeded.filter { known.contains($0.id) },
      at: clock.now())
    var mirrored = clock.now()
    let (events, continuation) = AsyncStream<ClusterEvent>.makeStream()
    var cutShort: [String: Date] = [:]
    let configuration = self.configuration
    await withDiscardingTaskGroup { group in
      for (event, every) in [
        (ClusterEvent.claim, cluster.claimEvery), (.maintain, cluster.renewEvery),
        (.summary, configuration.summaryEvery),
      ] {
        group.addTask {
          while !Task.isCancelled {
            do { try await clock.clock.sleep(for: every) } catch { return }
            continuation.yield(event)
          }
        }
      }
      var busy: Set<String> = []
      // A claim at the next due time this worker knows of (the targets it polled last), not up
      // to `claimEvery` after it.
      var timer: Task<Void, Never>?
      var timerDue: Date?
      var claimFilled = false
      continuation.yield(.claim)
      for await event in events {
        switch event {
        case .claim: break
        case .maintain:
          let now = clock.now()
          var beat = cluster.worker
          beat.heartbeat = now
          do {
            try await store.heartbeat(beat, at: now)
            let until = now.addingTimeInterval(JobClock<C>.seconds(cluster.leaseDuration))
            _ = try await store.renew(worker: worker, targets: Array(busy), until: until)
            if now.timeIntervalSince(mirrored) >= JobClock<C>.seconds(cluster.mirrorEvery) {
              book.mirror(try await store.targets(), keeping: busy)
              mirrored = now
            }
          } catch {
            report(.storeFailed(target: worker, error: "\(error)"))
          }
        case .summary: await reportSummary(book)
        case .done(let state, let result):
          busy.remove(state.id)
          _ = await settle(result, of: state, in: &book, lease: Lease(worker: worker, target: state.id))
        }
        if Task.isCancelled { break }
        let now = clock.now()
        if let next = book.nextWake(excluding: busy, after: now), next != timerDue {
          timer?.cancel()
          timerDue = next
          timer = Task {
            do { try await clock.sleep(until: next) } catch { return }
            continuation.yield(.claim)
          }
        }
        let free = configuration.maxConcurrentPolls - busy.count
        guard free > 0 else { continue }
        // A finished poll frees a slot, but asks the store again only when something may be
        // due: a target this worker knows is due, or the last claim filled every free slot.
        // Targets it does not know are found by the next tick or timer.
        if case .done = event, !claimFilled, !book.anyPassed(excluding: busy) { continue }
        let claimed: [TargetState]
        do {
          claimed = try await store.claim(
            worker: worker, now: now, limit: free,
            until: now.addingTimeInterval(JobClock<C>.seconds(cluster.leaseDuration)))
        } catch {
          report(.storeFailed(target: worker, error: "\(error)"))
          continue
        }
        claimFilled = claimed.count == free
        for state in claimed where !busy.contains(state.id) {
          book.adopt(state)
          busy.insert(state.id)
          group.addTask {
            let result = await poller.poll(state, now: clock.now)
            if !Task.isCancelled { continuation.yield(.done(state, result)) }
          }
        }
      }
      timer?.cancel()
      continuation.finish()
      group.cancelAll()
      // The polls cut short may have asked the site at any moment until now (a request goes
      // out when its host's turn comes, not when its target was claimed): not again before a
      // live cadence (the shortest regular one) from now, whichever worker takes them.
      let stopped = clock.now()
      for id in busy {
        guard let target = book.states[id]?.target else { continue }
        cutShort[id] = stopped.addingTimeInterval(JobClock<C>.seconds(book.policy(for: target).live))
      }
    }
    // Outside the cancelled task: the leases go back now, not when they expire.
    let now = clock.now()
    let deferred = cutShort
    await Task { try? await store.release(worker: worker, at: now, cutShort: deferred) }.value
  }
}
