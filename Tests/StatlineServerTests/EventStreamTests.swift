import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import StatlineCore
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `/v1/events/stream` through a real client against the real server: resuming from
/// `Last-Event-ID` with nothing lost or repeated, heartbeats, a slow client cut off, streams
/// closed by graceful shutdown. A stream that never ends fails the time limit instead of hanging.
@Suite(.serialized, .timeLimit(.minutes(1))) struct EventStreamTests {
  /// Runs the server (in a service group, as `statline run --serve` does) for the body.
  static func withServer(
    _ path: String, hub configuration: EventHub.Configuration = EventHub.Configuration(),
    _ body: (String, EventHub, ServiceGroup) async throws -> Void
  ) async throws {
    let reader = try SQLiteStore(readOnlyPath: path)
    let api = ReadAPI(reader: reader, now: { ReadAPITests.now })
    let hub = EventHub(reader: reader, configuration: configuration)
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "stream-test")
    logger.logLevel = .critical
    let app = APIServer(api: api, hub: hub).application(host: "127.0.0.1", port: 0, logger: logger) { port in
      continuation.yield(port)
    }
    let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
    let server = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    defer { server.cancel() }
    try await body("http://127.0.0.1:\(port)", hub, group)
  }

  /// One frame of the stream: an event (id, type, data) or a comment.
  struct Frame: Equatable {
    var id: Int64?
    var event: String?
    var data: String?
    var comment: String?
  }

  /// Reads frames from a streaming response body.
  struct FrameReader {
    var iterator: HTTPClientResponse.Body.AsyncIterator
    var pending = ""

    init(_ response: HTTPClientResponse) { iterator = response.body.makeAsyncIterator() }

    /// The next frame; nil when the stream ends.
    mutating func next() async throws -> Frame? {
      while true {
        if let end = pending.range(of: "\n\n") {
          let block = pending[..<end.lowerBound]
          pending.removeSubrange(..<end.upperBound)
          var frame = Frame()
          for line in block.split(separator: "\n") {
            if line.hasPrefix(":") { frame.comment = line.dropFirst().trimmingCharacters(in: .whitespaces) }
            if line.hasPrefix("id: ") { frame.id = Int64(line.dropFirst(4)) }
            if line.hasPrefix("event: ") { frame.event = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { frame.data = String(line.dropFirst(6)) }
          }
          return frame
        }
        guard let chunk = try await iterator.next() else { return nil }
        pending += String(buffer: chunk)
      }
    }

    /// Events until (and including) `sequence`.
    mutating func events(through sequence: Int64) async throws -> [Frame] {
      var frames: [Frame] = []
      while let frame = try await next() {
        guard let id = frame.id else { continue }
        frames.append(frame)
        if id >= sequence { break }
      }
      return frames
    }
  }

  static func open(_ url: String, headers: [String: String] = [:]) async throws -> HTTPClientResponse {
    var request = HTTPClientRequest(url: url)
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    return try await ReadAPITests.client.execute(request, timeout: .seconds(30))
  }

  /// Scores `count` goals in the live game ncaa:1, one write each (each gives events).
  static func score(_ count: Int, writer: SQLiteStore) async throws {
    for _ in 0..<count {
      var game = try #require(try await writer.sourceGame(id: "ncaa:1"))
      game.away.score = (game.away.score ?? 0) + 1
      _ = try await writer.write(Batch(source: "test", parser: "test", games: [game]))
    }
  }

  @Test func aStreamResumesFromLastEventIDWithNothingLostOrRepeated() async throws {
    let (path, writer) = try await ReadAPITests.store()
    try await Self.withServer(path) { base, hub, _ in
      var seen: [Int64] = []
      do {
        let first = try await Self.open(base + "/v1/events/stream?since=0")
        #expect(first.status == .ok && first.headers["content-type"].first == "text/event-stream; charset=utf-8")
        var reader = FrameReader(first)
        let hello = try #require(try await reader.next())
        #expect(hello.comment?.hasPrefix("connected") == true)
        seen = try await reader.events(through: 4).compactMap(\.id)
        #expect(seen == [1, 2, 3, 4], "the stored events first")
        try await Self.score(3, writer: writer)
        let live = try await reader.events(through: try await writer.lastEventSequence())
        #expect(
          live.first?.event == "game.goal" && live.first?.data?.contains("\"gameId\":\"\(ReadAPITests.one)\"") == true)
        seen += live.compactMap(\.id)
      }
      // The client dropped; goals go on; it reconnects with the last id it saw.
      try await Self.score(2, writer: writer)
      let last = try await writer.lastEventSequence()
      let again = try await Self.open(base + "/v1/events/stream", headers: ["Last-Event-ID": String(seen.last ?? 0)])
      var resumed = FrameReader(again)
      seen += try await resumed.events(through: last).compactMap(\.id)
      #expect(seen == Array(1...last), "every event once, in order")
      #expect(await hub.stats.connected == 2)
    }
  }

  @Test func aStreamWithoutACursorStartsWithWhatHappensNextAndBeatsItsHeart() async throws {
    let (path, writer) = try await ReadAPITests.store()
    var configuration = EventHub.Configuration()
    configuration.heartbeat = .milliseconds(100)
    configuration.pollInterval = .milliseconds(20)
    try await Self.withServer(path, hub: configuration) { base, _, _ in
      var reader = FrameReader(try await Self.open(base + "/v1/events/stream"))
      _ = try await reader.next()
      var beat = false
      while let frame = try await reader.next(), !beat { beat = frame.comment == "heartbeat" }
      #expect(beat)
      try await Self.score(1, writer: writer)
      let next = try await reader.events(through: 5)
      #expect(next.first?.id == 5, "events 1-4 were before the client came")
    }
  }

  @Test func badStreamRequestsAreProblems() async throws {
    let (path, _) = try await ReadAPITests.store()
    try await Self.withServer(path) { base, _, _ in
      let cases: [(String, [String: String], Int, String)] = [
        ("/v1/events/stream", ["Last-Event-ID": "abc"], 400, "Last-Event-ID is 'abc'"),
        ("/v1/events/stream?since=-1", [:], 400, "'since'"),
        ("/v1/events/stream?since=99999", [:], 410, "beyond this store's newest event 4"),
        ("/v1/events/stream?from=1", [:], 400, "'from' is not known here"),
        ("/v1/events/stream", ["Accept": "application/json"], 406, "text/event-stream"),
      ]
      for (url, headers, status, detail) in cases {
        let answer = try await ReadAPITests.get(base + url, headers: headers)
        #expect(answer.status == status, "\(url)")
        #expect((answer.json["detail"] as? String)?.contains(detail) == true, "\(url): \(answer.json)")
      }
      let head = try await ReadAPITests.get(base + "/v1/events/stream", method: .HEAD)
      #expect(head.status == 200 && head.headers["content-type"] == "text/event-stream; charset=utf-8")
      #expect(try await ReadAPITests.get(base + "/v1/events/stream", method: .POST).status == 405)
    }
  }

  @Test func gracefulShutdownEndsEveryStream() async throws {
    let (path, _) = try await ReadAPITests.store()
    try await Self.withServer(path) { base, hub, group in
      var reader = FrameReader(try await Self.open(base + "/v1/events/stream?since=0"))
      #expect(try await reader.events(through: 4).count == 4)
      await group.triggerGracefulShutdown()
      var ended = false
      while !ended { ended = try await reader.next() == nil }
      #expect(ended, "the stream ends instead of holding the shutdown")
      #expect(await hub.stats.subscribers == 0)
    }
  }

  @Test func aClientThatCannotKeepUpIsDisconnectedWithItsBufferBounded() async throws {
    let (path, writer) = try await ReadAPITests.store()
    // Enough stored events to fill the kernel's buffers for a client that reads nothing.
    let games = (0..<200).map { index in
      Game(
        id: "slow:\(index)", sport: .lacrosseMen, status: .live, period: 1, clock: "10:00", date: "2026-03-07",
        away: TeamLine(team: TeamRef(id: "t:a\(index)", name: "Away \(index)"), score: 0),
        home: TeamLine(team: TeamRef(id: "t:h\(index)", name: "Home \(index)"), score: 0))
    }
    func goals(_ round: Int) -> Batch {
      Batch(
        source: "test", parser: "test",
        games: games.map { game in
          var game = game
          game.away.score = round
          return game
        })
    }
    for round in 0...50 { _ = try await writer.write(goals(round)) }
    var configuration = EventHub.Configuration()
    configuration.clientBuffer = 8
    configuration.pollInterval = .milliseconds(20)
    try await Self.withServer(path, hub: configuration) { base, hub, _ in
      let port = try #require(URL(string: base)?.port)
      let socket = try RawClient(port: port, request: "GET /v1/events/stream?since=0 HTTP/1.1\r\nHost: x\r\n\r\n")
      defer { socket.close() }
      // New events reach the hub while the server is stuck writing to the silent client.
      var round = 51
      while await hub.stats.disconnectedSlow == 0, round < 400 {
        _ = try await writer.write(goals(round))
        round += 1
        try await Task.sleep(for: .milliseconds(20))
      }
      let stats = await hub.stats
      #expect(stats.disconnectedSlow == 1, "cut off after \(round - 51) more rounds")
      #expect(stats.subscribers == 0, "nothing is kept for it")
      #expect(socket.readsToTheEnd(), "the server closed the connection")
    }
  }
}

/// A client that sends one request and reads nothing until asked (a slow phone on a bad link).
final class RawClient {
  let descriptor: Int32
  /// What was read so far (by `closes(within:)`).
  var received = ""

  init(port: Int, request: String) throws {
    guard let descriptor = LoopbackSocket.connect(port: port, receiveBuffer: 4096) else {
      throw POSIXError(.ECONNREFUSED)
    }
    self.descriptor = descriptor
    if !request.isEmpty { _ = request.withCString { Glibc.send(descriptor, $0, strlen($0), 0) } }
  }

  /// Reads until the server closes (true) or 10 s pass without a byte (false).
  func readsToTheEnd() -> Bool {
    var timeout = timeval(tv_sec: 10, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = recv(descriptor, &buffer, buffer.count, 0)
      if count == 0 { return true }
      if count < 0 { return errno == ECONNRESET }
    }
  }

  func close() { _ = Glibc.close(descriptor) }
}
