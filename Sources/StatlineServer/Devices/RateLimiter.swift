import Foundation
import Synchronization

/// Token buckets by key (an API key's hash, a client address): `rate` requests a second, up to
/// `burst` at once. A request past them is refused with how long to wait. Buckets full again
/// are forgotten, so a scan of many addresses holds no memory for long.
final class RateLimiter: Sendable {
  struct Bucket {
    var tokens: Double
    var at: Double
  }

  let rate: Double
  let burst: Double
  private let now: @Sendable () -> Double
  private let buckets = Mutex<[String: Bucket]>([:])

  /// - Parameter now: seconds on any monotonic scale (injected in tests).
  init(rate: Double, burst: Double, now: @escaping @Sendable () -> Double) {
    self.rate = rate
    self.burst = burst
    self.now = now
  }

  /// Takes one token for `key`; nil when it had one, else the seconds until it will.
  func take(_ key: String) -> Double? {
    let time = now()
    return buckets.withLock { buckets in
      var bucket = buckets[key] ?? Bucket(tokens: burst, at: time)
      bucket.tokens = min(burst, bucket.tokens + max(0, time - bucket.at) * rate)
      bucket.at = time
      guard bucket.tokens >= 1 else {
        buckets[key] = bucket
        return (1 - bucket.tokens) / rate
      }
      bucket.tokens -= 1
      buckets[key] = bucket
      if buckets.count > 10_000 {
        buckets = buckets.filter { $0.value.tokens + (time - $0.value.at) * rate < burst }
      }
      return nil
    }
  }
}
