import CoreMetrics
import Foundation
import NIOCore
import Synchronization

/// Holds a server to its `ClientLimits`: the read rate's buckets and the requests each address
/// has being answered. A request refused is answered 429 with `Retry-After`, and counted in
/// `/metrics` (`statline_api_limited_total{reason}`).
final class ClientGate: Sendable {
  let limits: ClientLimits
  private let reads: RateLimiter?
  private let answering = Mutex<[String: Int]>([:])
  private let limitedByRate: CoreMetrics.Counter?
  private let limitedByConcurrency: CoreMetrics.Counter?

  init(limits: ClientLimits, metrics: ServerMetrics?, seconds: @escaping @Sendable () -> Double) {
    self.limits = limits
    reads = limits.readRate.map { RateLimiter(rate: $0, burst: limits.readBurst, now: seconds) }
    limitedByRate = metrics.map {
      CoreMetrics.Counter(label: "statline_api_limited_total", dimensions: [("reason", "rate")], factory: $0.factory)
    }
    limitedByConcurrency = metrics.map {
      CoreMetrics.Counter(
        label: "statline_api_limited_total", dimensions: [("reason", "concurrency")], factory: $0.factory)
    }
  }

  /// Whether reads are limited at all (the event loop's answers need not ask otherwise).
  var limitsReads: Bool { reads != nil }

  /// The operator's endpoints, which a load balancer and Prometheus ask often from one address:
  /// never rate limited (they are cheap, and a limited health check takes the server out).
  static func isOperators(_ path: String) -> Bool { ["/healthz", "/readyz", "/metrics"].contains(path) }

  /// The client's address, without its port.
  static func address(of channel: any Channel) -> String { channel.remoteAddress?.ipAddress ?? "unknown" }

  /// Takes a read token for `address`: nil when it may go on, else the 429 to answer (counted
  /// unless `counting` is false: the event loop passes a refused request on to be answered).
  func read(_ address: String, counting: Bool = true) -> Problem? {
    guard let reads, let wait = reads.take(address) else { return nil }
    if counting { limitedByRate?.increment() }
    return Self.tooMany(wait, "read requests from \(address) (more than \(Self.number(limits.readRate ?? 0)) a second)")
  }

  /// Takes a place among the requests `address` has being answered: nil when it has one (give
  /// it back with `leave`), else the 429 to answer.
  func enter(_ address: String) -> Problem? {
    guard let cap = limits.concurrentRequests else { return nil }
    let entered = answering.withLock { counts in
      let count = counts[address, default: 0]
      guard count < cap else { return false }
      counts[address] = count + 1
      return true
    }
    guard !entered else { return nil }
    limitedByConcurrency?.increment()
    return Self.tooMany(1, "requests at once from \(address) (\(cap) are being answered)")
  }

  func leave(_ address: String) {
    guard limits.concurrentRequests != nil else { return }
    answering.withLock { counts in
      let count = counts[address, default: 1] - 1
      counts[address] = count > 0 ? count : nil
    }
  }

  static func tooMany(_ wait: Double, _ what: String) -> Problem {
    let seconds = Int(max(1, wait.rounded(.up)))
    var problem = Problem(
      title: "Too many requests", status: 429, detail: "too many \(what): try again in \(seconds) s")
    problem.retryAfter = seconds
    return problem
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
  }
}
