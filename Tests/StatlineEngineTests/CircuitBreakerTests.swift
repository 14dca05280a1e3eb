import Clocks
import StatlineEngine
import Testing

@Suite struct CircuitBreakerTests {
  @Test func threeFailuresOpenForThirtySecondsThenOneProbe() async {
    let clock = TestClock()
    let breaker = CircuitBreaker(clock: clock)
    let host = "stats.ncaa.org"
    for _ in 0..<2 {
      #expect(breaker.permit(host) == .allowed)
      breaker.record(host, success: false)
    }
    #expect(breaker.state(host) == .closed(failures: 2))
    breaker.record(host, success: false)
    let reopenAt = clock.now.advanced(by: .seconds(30))
    #expect(breaker.permit(host) == .rejected(until: reopenAt))
    #expect(breaker.openHosts() == [host])

    await clock.advance(by: .seconds(29))
    #expect(breaker.permit(host) == .rejected(until: reopenAt))
    await clock.advance(by: .seconds(1))
    #expect(breaker.permit(host) == .probe)
    #expect(breaker.permit(host) == .rejected(until: nil), "one probe at a time")

    breaker.record(host, success: false)
    #expect(breaker.permit(host) == .rejected(until: clock.now.advanced(by: .seconds(30))), "open again")
    await clock.advance(by: .seconds(30))
    #expect(breaker.permit(host) == .probe)
    breaker.record(host, success: true)
    #expect(breaker.state(host) == .closed(failures: 0))
    #expect(breaker.permit(host) == .allowed)
  }

  @Test func aSuccessResetsTheCountAndHostsAreIndependent() async {
    let clock = TestClock()
    let breaker = CircuitBreaker(clock: clock)
    breaker.record("a", success: false)
    breaker.record("a", success: false)
    breaker.record("a", success: true)
    breaker.record("a", success: false)
    #expect(breaker.state("a") == .closed(failures: 1))
    for _ in 0..<3 { breaker.record("b", success: false) }
    #expect(breaker.permit("a") == .allowed)
    #expect(breaker.openHosts() == ["b"])
  }

  @Test func aLateAnswerDoesNotCloseAnOpenCircuit() async {
    let clock = TestClock()
    let breaker = CircuitBreaker(clock: clock)
    for _ in 0..<3 { breaker.record("a", success: false) }
    breaker.record("a", success: true)
    #expect(breaker.permit("a") != .allowed)
  }
}
