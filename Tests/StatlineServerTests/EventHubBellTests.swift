import StatlineCore
import StatlineServer
import StatlineTesting
import Testing

/// `run --serve`: the hub of the job's own process sends an event the moment the job stores it,
/// woken by the store's bell, not at its next read of the store (whose sleep here never ends).
@Suite(.timeLimit(.minutes(1))) struct EventHubBellTests {
  static func game(_ away: Int) -> Game {
    Game(
      id: "g:1", sport: .lacrosseMen, status: .live, period: 1,
      away: TeamLine(team: TeamRef(id: "t:duke", name: "Duke"), score: away),
      home: TeamLine(team: TeamRef(id: "t:uva", name: "Virginia"), score: 0))
  }

  @Test func theJobsCommitWakesTheHubAndTheWaitIsNoHeartbeat() async throws {
    let store = MemoryStore()
    let (waits, waiting) = AsyncStream.makeStream(of: Duration.self)
    var configuration = EventHub.Configuration()
    configuration.heartbeat = .milliseconds(1)
    let hub = EventHub(
      reader: store, configuration: configuration, bell: store.eventBell,
      sleep: { duration in
        waiting.yield(duration)
        try await Task.sleep(for: .seconds(3600))
      })
    let subscription = await hub.subscribe()
    var items = subscription.items.makeAsyncIterator()
    var waited = waits.makeAsyncIterator()
    // The hub has read the store and waits.
    _ = await waited.next()
    _ = try await store.write(Batch(games: [Self.game(0)]))
    #expect(await items.next() == .event(try #require(try await store.events(since: 0, limit: 1).first)))
    _ = await waited.next()
    _ = try await store.write(Batch(games: [Self.game(1)]))
    let sent = try await store.events(since: 0, limit: 10)
    #expect(sent.map(\.type) == [.discovered, .goal])
    #expect(await items.next() == .event(sent[1]), "no heartbeat first: waits cut short by the bell are not counted")
    await hub.finishAll()
  }
}
