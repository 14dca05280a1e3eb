import Foundation
import StatlineEngine
import Testing

@Suite struct RetryPolicyTests {
  let policy = RetryPolicy.default

  @Test func retriesServerErrorsAndRateLimitsButNeverWalls() {
    for status in [429, 500, 502, 503, 504] { #expect(policy.shouldRetry(status: status, attempt: 1)) }
    for status in [200, 304, 401, 403, 404, 410] { #expect(!policy.shouldRetry(status: status, attempt: 1)) }
    #expect(policy.shouldRetry(status: 503, attempt: 3))
    #expect(!policy.shouldRetry(status: 503, attempt: 4), "three retries at most")
  }

  @Test func fullJitterStaysUnderTheExponentialCeiling() {
    #expect(policy.delay(attempt: 1, unit: 0) == .zero)
    #expect(policy.delay(attempt: 1, unit: 0.999_999) == .milliseconds(499))
    #expect(policy.delay(attempt: 3, unit: 0.5) == .milliseconds(1_000))
    #expect(policy.delay(attempt: 20, unit: 1) == .seconds(30), "capped")
  }

  @Test func retryAfterWins() {
    #expect(policy.delay(attempt: 1, unit: 0.1, retryAfter: .seconds(7)) == .seconds(7))
    #expect(policy.delay(attempt: 1, unit: 0.1, retryAfter: .seconds(600)) == .seconds(30), "capped")
  }

  @Test func retryAfterReadsSecondsAndHTTPDates() {
    let now = Date(timeIntervalSince1970: 1_771_200_000)  // Mon, 16 Feb 2026 00:00:00 GMT
    #expect(RetryPolicy.retryAfter("120", now: now) == .seconds(120))
    #expect(RetryPolicy.retryAfter("Mon, 16 Feb 2026 00:00:45 GMT", now: now) == .seconds(45))
    #expect(RetryPolicy.retryAfter("Sun, 15 Feb 2026 23:00:00 GMT", now: now) == .zero, "a past date: now")
    #expect(RetryPolicy.retryAfter("soon", now: now) == nil)
    #expect(RetryPolicy.retryAfter("-5", now: now) == nil)
    #expect(RetryPolicy.retryAfter(nil, now: now) == nil)
  }
}
