import StatlineCore
import StatlineEngine
import Testing

@Suite struct SingleFlightTests {
  final class Counter: Sendable {
    let value = Locked(0)
    func increment() -> Int {
      value.withLock {
        $0 += 1
        return $0
      }
    }
  }

  @Test func concurrentIdenticalRequestsShareOneFetch() async throws {
    let flight = SingleFlight<String, Int>()
    let calls = Counter()
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    let first = Task {
      try await flight.run("https://x.test/1") {
        _ = calls.increment()
        for await _ in stream { break }  // hold the fetch open until the others have joined
        return 42
      }
    }
    // The first must lead: a joiner that ran first would lead a fetch that ends at once, and
    // fewer than four would ever join (the suite hung here now and then).
    while calls.value.withLock({ $0 }) < 1 { await Task.yield() }
    var others: [Task<Int, any Error>] = []
    for _ in 0..<4 {
      others.append(Task { try await flight.run("https://x.test/1") { calls.increment() } })
    }
    while flight.joined < 4 { await Task.yield() }
    continuation.yield()
    #expect(try await first.value == 42)
    for other in others { #expect(try await other.value == 42) }
    #expect(calls.value.withLock { $0 } == 1)
  }

  @Test func differentKeysAndLaterCallsFetchAgain() async throws {
    let flight = SingleFlight<String, Int>()
    let calls = Counter()
    #expect(try await flight.run("a") { calls.increment() } == 1)
    #expect(try await flight.run("a") { calls.increment() } == 2, "a finished fetch is not cached")
    #expect(try await flight.run("b") { calls.increment() } == 3)
  }
}
