import Foundation
import Logging
import ServiceLifecycle
import StatlineCore
import Testing

@testable import StatlineSQLite
@testable import StatlineServer

#if canImport(Glibc)
  import Glibc
#endif

/// Clients that open `/v1/events/stream?since=0` and never read (300 of them starved the store
/// reader: a live client stopped receiving and `/v1/status` timed out). Replays are bounded in
/// number (one more is a 503 with `Retry-After`), a stalled one is ended, a short catch-up is
/// never refused, and the live tail and other routes answer throughout.
@Suite(.serialized, .timeLimit(.minutes(1))) struct EventReplayTests {
  /// A store with 20,000 events (goals of one game): 40 pages, megabytes more than a socket's
  /// buffers hold. Written straight into the events table: the write path is not what is tried.
  static func store() async throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID()).sqlite").path
    let writer = try SQLiteStore(path: path)
    let game = Game(
      id: "ncaa:1", sport: .lacrosseMen, status: .live, period: 1, clock: "10:00", date: "2026-03-07",
      away: TeamLine(team: TeamRef(id: "ncaa:a", name: "Away"), score: 0),
      home: TeamLine(team: TeamRef(id: "ncaa:h", name: "Home"), score: 0))
    let events = (1...20_000).map { sequence in
      ChangeEvent(.goal, game: game).numbered(sequence: Int64(sequence), version: 1, source: "ncaa", parser: "test")
    }
    try await writer.insertInOneTransaction(events)
    return path
  }

  @Test func replaysAreBoundedAndNeverBlockTheLiveTailOrOtherRoutes() async throws {
    let path = try await Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = try SQLiteStore(readOnlyPath: path)
    let newest = try await reader.lastEventSequence()
    #expect(newest == 20_000)
    var hub = EventHub.Configuration()
    hub.heartbeat = .milliseconds(300)
    let limits = ConnectionLimits(maximumConnections: 100, maximumReplays: 2, replayStallTimeout: .seconds(2))
    let server = APIServer(
      api: ReadAPI(reader: reader, now: { ReadAPITests.now }), hub: EventHub(reader: reader, configuration: hub),
      limits: limits)
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "replay-test")
    logger.logLevel = .critical
    let app = server.application(host: "127.0.0.1", port: 0, logger: logger) { continuation.yield($0) }
    let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
    let running = Task { try await group.run() }
    defer { running.cancel() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    func stream(_ query: String) throws -> RawClient {
      try RawClient(
        port: port, request: "GET /v1/events/stream\(query) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    }

    // Two replays that never read take both places.
    let stalled = try (0..<2).map { _ in try stream("?since=0") }
    defer { for client in stalled { client.close() } }
    let deadline = ContinuousClock.now + .seconds(5)
    while server.replays.inFlight < 2, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    #expect(server.replays.inFlight == 2)

    // A third is refused at once, with when to come back.
    let refused = try stream("?since=0")
    defer { refused.close() }
    #expect(try await refused.closes(within: .seconds(3)))
    #expect(refused.received.hasPrefix("HTTP/1.1 503 "), "\(refused.received.prefix(300))")
    #expect(refused.received.lowercased().contains("retry-after: 5"))
    #expect(refused.received.contains("2 event streams are reading the past already"))

    // A reconnect a few events back is no replay: welcome, whatever the replays do.
    let resumed = try stream("?since=\(newest - 10)")
    defer { resumed.close() }
    #expect(try await !resumed.reads("id: \(newest)\n"))
    #expect(resumed.received.hasPrefix("HTTP/1.1 200 ") && resumed.received.contains("id: \(newest)\n"))

    // The live tail and an uncached route answer while the replays are stuck.
    let live = try stream("")
    defer { live.close() }
    #expect(try await !live.reads(": heartbeat"))
    #expect(live.received.contains(": heartbeat"), "\(live.received.prefix(300))")
    let started = ContinuousClock.now
    let status = try await ReadAPITests.get("http://127.0.0.1:\(port)/v1/status")
    #expect(status.status == 200 && ContinuousClock.now - started < .seconds(1))

    // A replay that took nothing for the stall timeout is ended, and its place is free again.
    let cut = ContinuousClock.now + .seconds(8)
    while server.replays.stats.stalled < 2, ContinuousClock.now < cut { try await Task.sleep(for: .milliseconds(50)) }
    for client in stalled {
      #expect(try await client.closes(within: .seconds(6)), "a stalled replay is ended")
      let frames = client.received.components(separatedBy: "\nid: ").count
      #expect(frames < 20_000, "it ended before the client read the store: \(frames) frames")
    }
    #expect(server.replays.stats.stalled == 2 && server.replays.stats.refused == 1)
    let again = Task { () -> Bool in
      for _ in 0..<100 where server.replays.inFlight > 0 { try await Task.sleep(for: .milliseconds(20)) }
      return server.replays.inFlight == 0
    }
    #expect(try await again.value, "the stalled replays gave their places back")
    let next = try stream("?since=0")
    defer { next.close() }
    #expect(try await !next.reads("id: 1\n"))
    #expect(
      next.received.hasPrefix("HTTP/1.1 200 ") && next.received.contains("id: 1\n"), "\(next.received.prefix(300))")
  }
}

/// A replay's place taken for an answer whose body never ran (its client gone first) is given
/// back after the stall timeout; one claimed is held until the replay leaves.
@Suite struct ReplayPlacesTests {
  @Test func anUnclaimedPlaceLapsesAndAClaimedOneIsHeld() throws {
    let clock = Locked(ContinuousClock.now)
    let replays = EventReplays(
      limits: ConnectionLimits(maximumReplays: 1, replayStallTimeout: .seconds(10)), now: { clock.withLock { $0 } })
    let first = try #require(replays.enter())
    #expect(replays.enter() == nil, "the one place is taken")
    clock.withLock { $0 += .seconds(11) }
    let second = try #require(replays.enter(), "the unclaimed place lapsed")
    replays.claim(second)
    clock.withLock { $0 += .seconds(11) }
    #expect(replays.enter() == nil, "a claimed place is held however long the replay runs")
    replays.claim(first)  // a body that started late takes its place again
    #expect(replays.inFlight == 2)
    replays.leave()
    replays.leave()
    #expect(replays.inFlight == 0 && replays.enter() != nil)
  }
}

extension RawClient {
  /// Reads until `text` has come (within 10 s); true when the server closed first.
  func reads(_ text: String) async throws -> Bool {
    for _ in 0..<100 where !received.contains(text) {
      if try await closes(within: .milliseconds(100)) { return true }
    }
    return false
  }
}

extension SQLiteStore {
  fileprivate func insertInOneTransaction(_ events: [ChangeEvent]) throws {
    try connection.execute("BEGIN")
    try insert(events)
    try connection.execute("COMMIT")
  }
}
