import StatlineCore
import StatlineServer
import StatlineTesting
import Testing

/// The hub's starting point is the store's newest event when its first client subscribed, read
/// before `subscribe` returns: an event stored right after is sent, never taken for the past
/// (it was, when the loop's first read came late on a busy machine, and the client waited for
/// an event no one would send).
@Suite(.timeLimit(.minutes(1))) struct EventHubStartTests {
  @Test func anEventStoredTheMomentAfterSubscribingIsSent() async throws {
    let store = MemoryStore()
    _ = try await store.write(Batch(games: [EventHubBellTests.game(0)]))
    // Each wait of the hub is announced and lasts until the test says go.
    let (waits, waiting) = AsyncStream.makeStream(of: Duration.self)
    let (goes, go) = AsyncStream.makeStream(of: Void.self)
    let hub = EventHub(
      reader: store,
      sleep: { duration in
        waiting.yield(duration)
        var next = goes.makeAsyncIterator()
        guard await next.next() != nil else { throw CancellationError() }
      })
    let subscription = await hub.subscribe()
    _ = try await store.write(Batch(games: [EventHubBellTests.game(1)]))
    var waited = waits.makeAsyncIterator()
    // The hub waits; once more it reads the store (after the goal, whenever its first read was)
    // and waits again: what it sent by then is all it will.
    _ = await waited.next()
    go.yield()
    _ = await waited.next()
    await hub.finishAll()
    go.finish()
    var sent: [EventHub.Item] = []
    for await item in subscription.items { sent.append(item) }
    let goal = try #require(try await store.events(since: 0, limit: 10).last)
    #expect(goal.type == .goal)
    #expect(sent == [.event(goal)], "the goal stored after subscribe, and nothing from before")
  }
}
