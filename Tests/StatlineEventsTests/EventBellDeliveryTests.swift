import Clocks
import Logging
import StatlineCore
import StatlineEvents
import StatlineTesting
import Testing

/// An event is pushed the moment the poll that made it is stored: a caught-up sink is woken by
/// the store's bell, not by its next idle poll (the clock here never moves, so no poll comes).
@Suite(.timeLimit(.minutes(1))) struct EventBellDeliveryTests {
  /// A sink that hands each event to the test.
  struct StreamSink: EventSink {
    let name = "stream"
    let filter = EventFilter.all
    let continuation: AsyncStream<ChangeEvent>.Continuation
    func deliver(_ event: ChangeEvent) async throws { continuation.yield(event) }
  }

  @Test func aCaughtUpSinkGetsTheNextEventWithoutWaitingForItsIdlePoll() async throws {
    let store = MemoryStore()
    let (events, continuation) = AsyncStream.makeStream(of: ChangeEvent.self)
    let clock = TestClock<Duration>()
    var configuration = EventDelivery<TestClock<Duration>>.Configuration()
    configuration.idlePoll = .seconds(3600)
    let delivery = EventDelivery(
      log: store, sinks: [StreamSink(continuation: continuation)], clock: clock, configuration: configuration,
      logger: Logger(label: "test"))
    let running = Task { try await delivery.run() }
    defer { running.cancel() }
    var received = events.makeAsyncIterator()
    // The sink is caught up (nothing stored) and idles; then a poll stores a game, and a goal.
    _ = try await store.write(Batch(games: [EventDay.game("g:1", .live, 0, 0, period: 1)]))
    #expect(await received.next()?.type == .discovered)
    _ = try await store.write(Batch(games: [EventDay.game("g:1", .live, 1, 0, period: 1)]))
    let goal = await received.next()
    #expect(goal?.type == .goal && goal?.awayScore == 1)
  }
}
