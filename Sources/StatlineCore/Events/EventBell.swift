/// Rung by a store each time a commit writes change events, so that what reads the events in
/// the same process (event delivery, the SSE hub) wakes at once instead of at its next poll:
/// an event is pushed the moment the poll that made it is stored (architecture.md#events).
///
/// A reader notes `rings` before it looks in the store and, finding nothing new, waits for a
/// ring after that count: a ring between the look and the wait is never missed. The readers
/// still poll (`atMost`), for events another process wrote (workers sharing PostgreSQL, or a
/// `statline serve` beside the job), which ring no bell here.
public final class EventBell: Sendable {
  private struct State {
    var rings: UInt64 = 0
    var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter = 0
  }

  private let state = Locked(State())

  public init() {}

  /// How many times the bell has rung.
  public var rings: UInt64 { state.withLock { $0.rings } }

  /// Wakes every waiter.
  public func ring() {
    let waiters = state.withLock { state in
      state.rings &+= 1
      defer { state.waiters.removeAll() }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// Rings when `write` wrote events; returns it (a store's commit paths end with this).
  @discardableResult
  public func ring(after write: StoreWrite) -> StoreWrite {
    if !write.events.isEmpty { ring() }
    return write
  }

  /// Returns once the bell has rung more than `seen` times (at once if it has), or when the task
  /// is cancelled.
  public func wait(after seen: UInt64) async {
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state in
          // Cancelled before the handler could find this waiter: it is not left waiting.
          if state.rings != seen || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }

  /// Waits for a ring after `seen` or for `timeout` (whichever comes first): true when the bell
  /// rang. Throws `CancellationError` when the task is cancelled.
  public func wait(after seen: UInt64, orSleep timeout: @escaping @Sendable () async throws -> Void) async throws
    -> Bool
  {
    let rang = try await withThrowingTaskGroup(of: Bool.self) { group in
      group.addTask {
        await self.wait(after: seen)
        return true
      }
      group.addTask {
        try await timeout()
        return false
      }
      defer { group.cancelAll() }
      return try await group.next() ?? false
    }
    try Task.checkCancellation()
    return rang
  }

  /// `wait(after:orSleep:)` with a sleep of `timeout` on `clock`.
  public func wait<C: Clock>(after seen: UInt64, atMost timeout: Duration, on clock: C) async throws -> Bool
  where C.Duration == Duration {
    try await wait(after: seen) { try await clock.sleep(for: timeout) }
  }
}
