import NIOCore
import Testing

@testable import StatlineServer

/// The deadlines one connection's watch keeps (the timer that acts on them is exercised on real
/// sockets by `SlowClientTests`).
@Suite struct ConnectionWatchTests {
  static let limits = ConnectionLimits(requestTimeout: .seconds(10), idleTimeout: .seconds(60))

  @Test func aRequestAfterALongQuietSpellGetsTheWholeIdleTimeout() {
    let watch = ConnectionWatch(limits: Self.limits)
    watch.requestEnded()
    watch.lastActivity = .now() - .seconds(59)  // answered 59 s ago, quiet since
    watch.headArrived()
    #expect(watch.deadline > .now() + .seconds(9), "reading: the request timeout from the head")
    watch.requestEnded()
    #expect(watch.deadline > .now() + .seconds(59), "answering: the idle timeout from the request's end")
  }

  @Test func writesMoveTheIdleDeadlineAndAHeadBringsBackTheRequestTimeout() {
    let watch = ConnectionWatch(limits: Self.limits)
    #expect(watch.deadline <= .now() + .seconds(10), "a new connection has the request timeout")
    watch.requestEnded()
    watch.lastActivity = .now() - .seconds(50)
    #expect(watch.deadline <= .now() + .seconds(10))
    watch.wrote()
    #expect(watch.deadline > .now() + .seconds(59))
    watch.headArrived()
    #expect(watch.deadline <= .now() + .seconds(10))
  }
}
