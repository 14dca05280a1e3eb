import Foundation
import StatlineCore

/// Retries with exponential backoff and full jitter, honouring `Retry-After` (architecture.md#a-poll).
public struct RetryPolicy: Sendable, Equatable {
  public var maxRetries: Int = 3
  public var base: Duration = .milliseconds(500)
  public var cap: Duration = .seconds(30)
  /// Statuses worth another try. 403 and other walls never are: a block does not clear on retry.
  public var retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

  public init() {}

  public static let `default` = RetryPolicy()

  /// Whether the `attempt`-th retry (from 1) of an answer with `status` should happen.
  public func shouldRetry(status: Int, attempt: Int) -> Bool {
    attempt <= maxRetries && retryableStatuses.contains(status)
  }

  /// The wait before retry number `attempt` (from 1): a `Retry-After` the server sent wins
  /// (capped), else full jitter, uniform in 0…min(cap, base × 2^(attempt−1)). `unit` is a random
  /// number in 0..<1 from the caller.
  public func delay(attempt: Int, unit: Double, retryAfter: Duration? = nil) -> Duration {
    if let retryAfter { return min(max(retryAfter, .zero), cap) }
    let ceiling = min(base * (1 << min(max(attempt - 1, 0), 30)), cap)
    let milliseconds = Double(ceiling.components.seconds) * 1000 + Double(ceiling.components.attoseconds) / 1e15
    return .milliseconds(Int64((milliseconds * min(max(unit, 0), 1)).rounded(.down)))
  }

  /// A `Retry-After` header as a wait from `now`: delta-seconds or an HTTP-date.
  public static func retryAfter(_ header: String?, now: Date) -> Duration? {
    guard let value = header?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
    if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
    guard let date = HTTPDate.parse(value) else { return nil }
    return .milliseconds(max(0, Int64((date.timeIntervalSince(now) * 1000).rounded())))
  }
}
