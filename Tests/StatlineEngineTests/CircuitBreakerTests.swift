import Clocks
import StatlineEngine
import Testing

@Suite struct CircuitBreakerTests {
  @Test func threeFailuresOpenForThirtySecondsThenOneProbe() async {
    let clock = TestClock()
    let breaker = CircuitBreaker(clock: clock)
    let host = "stats.ncaa.org"
    for _ in 0..<2 {
      #expect(await breaker.permit(host) == .allowed)
      await breaker.record(host, success: false)
    }
    #expect(await breaker.state(host) == .closed(failures: 2))
    await breaker.record(host, success: false)
    let reopenAt = clock.now.advanced(by: .seconds(30))
    #expect(await breaker.permit(host) == .rejected(until: reopenAt))
    #expect(await breaker.openHosts() == [host])

    await clock.advance(by: .seconds(29))
    #expect(await breaker.permit(host) == .rejected(until: reopenAt))
    await clock.advance(by: .seconds(1))
    #expect(await breaker.permit(host) == .probe)
    #expect(await breaker.permit(host) == .rejected(until: nil), "one probe at a time")

    await breaker.record(host, success: false)
    #expect(await breaker.permit(host) == .rejected(until: clock.now.advanced(by: .seconds(30))), "open again")
    await clock.advance(by: .seconds(30))
    #expect(await breaker.permit(host) == .probe)
    await breaker.record(host, success: true)
    #expect(await breaker.state(host) == .closed(failures: 0))
    #expect(await breaker.permit(host) == .allowed)
  }

  @Test func aSuccessResetsTheCountAndHostsAreIndependent() async {
    let clock = TestClock()
    let breaker = CircuitBreaker(clock: clock)
    await breaker.record("a", success: false)
    await breaker.record("a", success: false)
    await breaker.record("a", success: true)
    await breaker.record("a", success: false)
    #expect(await breaker.state("a") == .closed(failures: 1))
    for _ in 0..<3 { await breaker.record("b", success: false) }
    #expect(await breaker.permit("a") == .allowed)
    #expect(await breaker.openHosts() == ["b"])
  }

  @Test func aLateAnswerDoesNotCloseAnOpenCircuit() async {
    let clock = TestClock()
    let breaker = CircuitBreaker(clock: clock)
    for _ in 0..<3 { await breaker.record("a", success: false) }
    await breaker.record("a", success: true)
    #expect(await breaker.permit("a") != .allowed)
  }
}
