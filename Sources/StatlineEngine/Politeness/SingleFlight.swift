import StatlineCore

/// Identical concurrent requests share one fetch and its result (architecture.md#a-poll; ncaa-api does the same).
///
/// The first caller runs the operation itself; later callers with the same key wait for its
/// result. No task is created per request: this sits on every fetch.
public final class SingleFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
  private struct State {
    var waiting: [Key: [CheckedContinuation<Value, any Error>]] = [:]
    var joined = 0
  }

  private let state = Locked(State())

  public init() {}

  /// How many callers joined a fetch already in flight instead of starting their own.
  public var joined: Int { state.withLock { $0.joined } }

  public func run(_ key: Key, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let leads = state.withLock { state -> Bool in
      if state.waiting[key] != nil { return false }
      state.waiting[key] = []
      return true
    }
    guard leads else {
      return try await withCheckedThrowingContinuation { continuation in
        let started = state.withLock { state -> Bool in
          // The leader may have finished between the two locks: then fetch again.
          guard state.waiting[key] != nil else { return false }
          state.waiting[key]!.append(continuation)
          state.joined += 1
          return true
        }
        if !started {
          Task {
            do { continuation.resume(returning: try await self.run(key, operation)) } catch {
              continuation.resume(throwing: error)
            }
          }
        }
      }
    }
    let result: Result<Value, any Error>
    do { result = .success(try await operation()) } catch { result = .failure(error) }
    let waiters = state.withLock { $0.waiting.removeValue(forKey: key) ?? [] }
    for waiter in waiters { waiter.resume(with: result) }
    return try result.get()
  }
}
