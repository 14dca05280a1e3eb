/// Per-host concurrency and spacing (DESIGN.md §3: at most 2 requests in flight and at least
/// 50 ms between starts, per host; stats.ncaa.org one request per 5 s).
public actor HostGate<C: Clock> where C.Duration == Duration {
  private struct HostState {
    var active = 0
    var lastStart: C.Instant?
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let clock: C
  private let defaults: HostLimits
  private let overrides: [String: HostLimits]
  private var hosts: [String: HostState] = [:]

  public init(clock: C, defaults: HostLimits = HostLimits(), overrides: [String: HostLimits] = [:]) {
    self.clock = clock
    self.defaults = defaults
    self.overrides = overrides
  }

  public func limits(for host: String) -> HostLimits { overrides[host] ?? defaults }

  /// Waits for a slot and the spacing, then holds the slot until `release`.
  public func acquire(_ host: String) async throws {
    let limits = limits(for: host)
    while true {
      let state = hosts[host] ?? HostState()
      if state.active >= limits.concurrency {
        await withCheckedContinuation { hosts[host, default: HostState()].waiters.append($0) }
        continue
      }
      if let last = state.lastStart, clock.now < last.advanced(by: limits.spacing) {
        try await clock.sleep(until: last.advanced(by: limits.spacing), tolerance: nil)
        continue
      }
      hosts[host, default: HostState()].active += 1
      hosts[host, default: HostState()].lastStart = clock.now
      return
    }
  }

  public func release(_ host: String) {
    guard var state = hosts[host], state.active > 0 else { return }
    state.active -= 1
    let next = state.waiters.isEmpty ? nil : state.waiters.removeFirst()
    hosts[host] = state
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
  public func active(_ host: String) -> Int { hosts[host]?.active ?? 0 }
}

/// The politeness limits for one host.
public struct HostLimits: Sendable, Equatable {
  public var concurrency: Int
  public var spacing: Duration

  public init(concurrency: Int = 2, spacing: Duration = .milliseconds(50)) {
    self.concurrency = concurrency
    self.spacing = spacing
  }

  /// Politeness lifted, for loopback benchmarks.
  public static let unlimited = HostLimits(concurrency: .max, spacing: .zero)
}
