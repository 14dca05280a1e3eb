import Clocks
import StatlineCore
import StatlineEngine
import Testing

@Suite struct HostGateTests {
  @Test func startsAreSpacedFiftyMilliseconds() async throws {
    let clock = TestClock()
    let gate = HostGate(clock: clock)
    try await gate.acquire("a")
    let second = Task { try await gate.acquire("a") }
    await clock.advance(by: .milliseconds(49))
    #expect(gate.active("a") == 1)
    await clock.advance(by: .milliseconds(1))
    try await second.value
    #expect(gate.active("a") == 2)
  }

  @Test func atMostTwoInFlightPerHost() async throws {
    let clock = TestClock()
    let gate = HostGate(clock: clock)
    try await gate.acquire("a")
    await clock.advance(by: .milliseconds(50))
    try await gate.acquire("a")
    let third = Task { try await gate.acquire("a") }
    await clock.advance(by: .seconds(10))
    #expect(gate.active("a") == 2, "the third waits for a slot, not for time")
    try await gate.acquire("b")
    #expect(gate.active("b") == 1, "another host is not held up")
    gate.release("a")
    try await third.value
    #expect(gate.active("a") == 2)
  }

  @Test func aHostOverrideSpacesRequestsFiveSeconds() async throws {
    let clock = TestClock()
    let gate = HostGate(clock: clock, overrides: ["stats.ncaa.org": HostLimits(concurrency: 1, spacing: .seconds(5))])
    try await gate.acquire("stats.ncaa.org")
    gate.release("stats.ncaa.org")
    let next = Task { try await gate.acquire("stats.ncaa.org") }
    await clock.advance(by: .milliseconds(4_999))
    #expect(gate.active("stats.ncaa.org") == 0)
    await clock.advance(by: .milliseconds(1))
    try await next.value
    #expect(gate.active("stats.ncaa.org") == 1)
  }
}
