import Foundation
import Logging
import StatlineCore
import StatlineEvents
import StatlinePostgres
import StatlineTesting
import Testing

/// Two workers' event deliveries on one store, one webhook-like sink between them: each event
/// reaches the sink once, not once per worker; when the holder stops, the other takes over.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct SinkLeaseDeliveryTests {
  /// One receiver behind every worker's sink of the same name: what it got, from whom.
  final class Receiver: Sendable {
    let log = Locked<[(sequence: Int64, worker: String)]>([])
  }

  struct Hook: EventSink {
    let name = "hook"
    let filter = EventFilter.all
    let receiver: Receiver
    let worker: String

    func deliver(_ event: ChangeEvent) async throws {
      receiver.log.withLock { $0.append((event.sequence, worker)) }
    }
  }

  static func game(_ n: Int, away: Int) -> Game {
    Game(
      id: "g:\(n)", sport: .lacrosseMen, status: .live, period: 1,
      away: TeamLine(team: TeamRef(id: "t:a", name: "A"), score: away),
      home: TeamLine(team: TeamRef(id: "t:h", name: "H"), score: 0))
  }

  @Test(.timeLimit(.minutes(1))) func eachEventReachesTheSinkOnceWhateverTheNumberOfWorkers() async throws {
    try await TestPostgres.withStores { make in
      let first = try await make()
      let second = try await PostgresStore.open(first.location)
      var logger = Logger(label: "test")
      logger.logLevel = .error
      let receiver = Receiver()
      var configuration = EventDelivery<ContinuousClock>.Configuration()
      configuration.idlePoll = .milliseconds(20)
      func delivery(_ store: PostgresStore, _ worker: String) -> EventDelivery<ContinuousClock> {
        EventDelivery(
          log: store, sinks: [Hook(receiver: receiver, worker: worker)], clock: ContinuousClock(),
          configuration: configuration,
          logger: logger, lease: EventDelivery<ContinuousClock>.SinkLease(leases: store, holder: worker))
      }
      let (a, b) = (delivery(first, "a"), delivery(second, "b"))
      let runA = Task { try await a.run() }
      let runB = Task { try await b.run() }
      for round in 0..<10 {
        _ = try await first.write(Batch(games: (0..<5).map { Self.game($0, away: round) }))
        try await Task.sleep(for: .milliseconds(30))
      }
      let halfway = try await first.lastEventSequence()
      // The holder stops: the other worker takes the sink over at once (the lease is given back).
      runA.cancel()
      runB.cancel()
      _ = try? await runA.value
      _ = try? await runB.value
      let runB2 = Task { try await delivery(second, "b").run() }
      for round in 10..<15 {
        _ = try await first.write(Batch(games: (0..<5).map { Self.game($0, away: round) }))
      }
      let last = try await first.lastEventSequence()
      for _ in 0..<200 where try await first.cursor(of: "hook") < last { try await Task.sleep(for: .milliseconds(20)) }
      runB2.cancel()
      _ = try? await runB2.value
      await second.close()

      let log = receiver.log.withLock { $0 }
      #expect(log.map(\.sequence) == Array(1...last), "every event once, in order (\(halfway) before the stop)")
      #expect(Set(log.map(\.worker)).count <= 2)
      #expect(try await first.cursor(of: "hook") == last)
    }
  }
}
