import StatlineCore

/// Per-host circuit breaker (architecture.md#a-poll): after `threshold` consecutive failures the host is
/// open for `cooldown`; then one half-open probe decides between closed and open again.
///
/// A blocked answer counts as a failure like any other. The state sits behind a mutex: every
/// request asks it twice, and an actor hop each time cost more than the decision.
public final class CircuitBreaker<C: Clock>: Sendable where C.Duration == Duration {
  public struct Configuration: Sendable, Equatable {
    public var threshold: Int = 3
    public var cooldown: Duration = .seconds(30)
    public init() {}
  }

  public enum State: Sendable, Equatable {
    case closed(failures: Int)
    case open(until: C.Instant)
    /// The cool-down is over and one probe is in flight.
    case halfOpen
  }

  public enum Permit: Sendable, Equatable {
    case allowed
    /// The single request that tests a host after its cool-down.
    case probe
    /// Not now; `until` is when the host may be tried again (nil while a probe is in flight).
    case rejected(until: C.Instant?)
  }

  private let clock: C
  private let configuration: Configuration
  private let states = Locked<[String: State]>([:])

  public init(clock: C, configuration: Configuration = Configuration()) {
    self.clock = clock
    self.configuration = configuration
  }

  /// Asks to send a request to `host`.
  public func permit(_ host: String) -> Permit {
    let now = clock.now
    return states.withLock { states in
      switch states[host] ?? .closed(failures: 0) {
      case .closed: return .allowed
      case .halfOpen: return .rejected(until: nil)
      case .open(let until):
        guard now >= until else { return .rejected(until: until) }
        states[host] = .halfOpen
        return .probe
      }
    }
  }

  /// Records how a permitted request ended.
  public func record(_ host: String, success: Bool) {
    let reopened = State.open(until: clock.now.advanced(by: configuration.cooldown))
    let threshold = configuration.threshold
    states.withLock { states in
      switch states[host] ?? .closed(failures: 0) {
      case .closed(let failures):
        if success {
          if failures != 0 || states[host] == nil { states[host] = .closed(failures: 0) }
        } else {
          states[host] = failures + 1 >= threshold ? reopened : .closed(failures: failures + 1)
        }
      case .halfOpen:
        states[host] = success ? .closed(failures: 0) : reopened
      case .open:
        break  // a late answer to a request sent before the circuit opened changes nothing
      }
    }
  }

  public func state(_ host: String) -> State { states.withLock { $0[host] ?? .closed(failures: 0) } }

  /// Hosts whose circuit is not closed, for status reports.
  public func openHosts() -> [String] {
    states.withLock { states in
      states.filter { if case .closed = $0.value { false } else { true } }.keys.sorted()
    }
  }
}
