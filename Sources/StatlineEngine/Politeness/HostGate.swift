import StatlineCore

/// Per-host concurrency and spacing (architecture.md#a-poll: at most 2 requests in flight and at least
/// 50 ms between starts, per host; stats.ncaa.org one request per 5 s).
///
/// A free slot is taken under a mutex without suspending; only a caller that must wait for a
/// slot or for the spacing suspends. Waiters are served in arrival order.
public final class HostGate<C: Clock>: Sendable where C.Duration == Duration {
  private struct HostState {
    var active = 0
    var lastStart: C.Instant?
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private enum Attempt {
    case acquired
    case full
    case spaced(until: C.Instant)
  }

  private let clock: C
  private let defaults: HostLimits
  private let overrides: [String: HostLimits]
  private let hosts = Locked<[String: HostState]>([:])

  public init(clock: C, defaults: HostLimits = HostLimits(), overrides: [String: HostLimits] = [:]) {
    self.clock = clock
    self.defaults = defaults
    self.overrides = overrides
  }

  public func limits(for host: String) -> HostLimits { overrides[host] ?? defaults }

  /// Takes a slot if one is free and the spacing has passed.
  private func attempt(_ host: String, _ limits: HostLimits, queue: CheckedContinuation<Void, Never>? = nil)
    -> Attempt
  {
    let now = clock.now
    return hosts.withLock { hosts in
      var state = hosts[host] ?? HostState()
      defer { hosts[host] = state }
      if state.active >= limits.concurrency {
        if let queue { state.waiters.append(queue) }
        return .full
      }
      if let last = state.lastStart, limits.spacing > .zero, now < last.advanced(by: limits.spacing) {
        return .spaced(until: last.advanced(by: limits.spacing))
      }
      state.active += 1
      state.lastStart = now
      return .acquired
    }
  }

  /// Waits for a slot and the spacing, then holds the slot until `release`.
  public func acquire(_ host: String) async throws {
    let limits = limits(for: host)
    while true {
      switch attempt(host, limits) {
      case .acquired: return
      case .spaced(let until): try await clock.sleep(until: until, tolerance: nil)
      case .full:
        // Queue under the same lock that saw the host full, so a release cannot be missed.
        await withCheckedContinuation { continuation in
          switch attempt(host, limits, queue: continuation) {
          case .full: break
          case .acquired:
            release(host)
            continuation.resume()
          case .spaced: continuation.resume()
          }
        }
      }
    }
  }

  public func release(_ host: String) {
    let next = hosts.withLock { hosts -> CheckedContinuation<Void, Never>? in
      guard var state = hosts[host], state.active > 0 else { return nil }
      state.active -= 1
      let next = state.waiters.isEmpty ? nil : state.waiters.removeFirst()
      hosts[host] = state
      return next
    }
    next?.resume()
  }

  /// Runs `body` holding a slot for `host`.
  public func withSlot<T: Sendable>(_ host: String, _ body: @Sendable () async throws -> T) async throws -> T {
    try await acquire(host)
    do {
      let result = try await body()
      release(host)
      return result
    } catch {
      release(host)
      throw error
    }
  }

  /// Requests in flight to `host`.
  public func active(_ host: String) -> Int { hosts.withLock { $0[host]?.active ?? 0 } }
}
