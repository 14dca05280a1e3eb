import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The API against clients that hold connections: a header dribbled a line at a time
/// (slowloris), a connection that sends nothing, an idle keep-alive connection, more clients than
/// the server takes. Each is closed, and /healthz keeps answering; an event stream is not cut.
@Suite(.serialized, .timeLimit(.minutes(1))) struct SlowClientTests {
  static let limits = ConnectionLimits(requestTimeout: .seconds(1), idleTimeout: .seconds(2), maximumConnections: 40)

  static func withServer(_ body: (Int) async throws -> Void) async throws {
    let (path, _) = try await ReadAPITests.store()
    let reader = try SQLiteStore(readOnlyPath: path)
    var hub = EventHub.Configuration()
    hub.heartbeat = .milliseconds(300)
    let api = ReadAPI(reader: reader, now: { ReadAPITests.now })
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "slow-client-test")
    logger.logLevel = .critical
    let app = APIServer(api: api, hub: EventHub(reader: reader, configuration: hub), limits: Self.limits)
      .application(host: "127.0.0.1", port: 0, logger: logger) { port in continuation.yield(port) }
    let group = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: logger)
    let server = Task { try await group.run() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    defer { server.cancel() }
    try await body(port)
  }

  @Test func aHeaderDribbledALineAtATimeIsCutOff() async throws {
    try await Self.withServer { port in
      let client = try RawClient(port: port, request: "GET /healthz HTTP/1.1\r\nHost: x\r\n")
      defer { client.close() }
      let started = ContinuousClock.now
      var closed = false
      for line in 0..<30 where !closed {  // a line every 200 ms: 6 s if nobody stops it
        client.send("X-Slow-\(line): yes\r\n")
        closed = try await client.closes(within: .milliseconds(200))
      }
      #expect(closed, "a request that takes more than the request timeout to arrive is cut off")
      #expect(ContinuousClock.now - started < .seconds(4))
    }
  }

  @Test func aSilentConnectionAndAnIdleKeepAliveConnectionAreClosed() async throws {
    try await Self.withServer { port in
      let silent = try RawClient(port: port, request: "")
      defer { silent.close() }
      #expect(try await silent.closes(within: .seconds(4)), "nothing sent: closed at the request timeout")
      let idle = try RawClient(port: port, request: "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
      defer { idle.close() }
      #expect(try await !idle.closes(within: .milliseconds(1_200)), "answered, then kept alive a while")
      #expect(idle.received.contains("HTTP/1.1 200"))
      #expect(try await idle.closes(within: .seconds(4)), "closed after the idle timeout")
    }
  }

  @Test func moreClientsThanTheLimitAreTurnedAwayAndHealthzAnswersAgain() async throws {
    try await Self.withServer { port in
      let held = try (0..<60).map { _ in try RawClient(port: port, request: "GET /healthz HTTP/1.1\r\n") }
      defer { for client in held { client.close() } }
      var turnedAway = 0
      for client in held where try await client.closes(within: .milliseconds(20)) { turnedAway += 1 }
      #expect(turnedAway >= 20, "at most 40 held at once: \(turnedAway) of 60 closed on accept")
      // The 40 slow ones are cut at the request timeout; then /healthz is answered.
      var answered = false
      let deadline = ContinuousClock.now + .seconds(8)
      while !answered, ContinuousClock.now < deadline {
        let response = try? await ReadAPITests.get("http://127.0.0.1:\(port)/healthz")
        answered = response?.status == 200
        if !answered { try await Task.sleep(for: .milliseconds(200)) }
      }
      #expect(answered)
    }
  }

  /// What NIO cannot parse, and CONNECT, are answered with problem details (they were bare
  /// 400s without a body, and a 405 whose body was dropped).
  @Test func requestsThatCannotBeReadAreProblemDetails() async throws {
    try await Self.withServer { port in
      let cases: [(String, String, String)] = [
        (
          "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n", "400",
          "overflow"
        ),
        ("FROB /healthz HTTP/1.1\r\nHost: x\r\n\r\n", "400", "invalid HTTP method"),
        ("GET /v1/scoreboard?x=\u{FFFD} HTTP/1.1\r\nHost: x\r\n\r\n", "400", "not HTTP/1.1 that can be read"),
        ("GET /healthz\r\n\r\n", "400", "invalid HTTP version"),
        ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", "405", "read-only"),
        ("GET /healthz\r\n", "408", "did not arrive whole within"),
      ]
      for (request, status, detail) in cases {
        let client = try RawClient(port: port, request: request)
        defer { client.close() }
        #expect(try await client.closes(within: .seconds(4)), "\(request.prefix(30))")
        #expect(
          client.received.hasPrefix("HTTP/1.1 \(status) "), "\(request.prefix(30)): \(client.received.prefix(200))")
        #expect(client.received.contains("content-type: application/problem+json"), "\(request.prefix(30))")
        let body = client.received.components(separatedBy: "\r\n\r\n").last ?? ""
        let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        #expect(json["status"] as? Int == Int(status), "\(request.prefix(30)): \(body)")
        #expect((json["detail"] as? String)?.contains(detail) == true, "\(request.prefix(30)): \(body)")
      }
      let allow = try RawClient(port: port, request: "CONNECT a:1 HTTP/1.1\r\nHost: a\r\n\r\n")
      defer { allow.close() }
      _ = try await allow.closes(within: .seconds(2))
      #expect(allow.received.contains("allow: GET, HEAD"))
    }
  }

  @Test func anEventStreamOutlivesTheIdleTimeout() async throws {
    try await Self.withServer { port in
      let stream = try RawClient(port: port, request: "GET /v1/events/stream HTTP/1.1\r\nHost: x\r\n\r\n")
      defer { stream.close() }
      #expect(try await !stream.closes(within: .seconds(3)), "heartbeats keep it open past the 2 s idle timeout")
      #expect(stream.received.contains(": heartbeat"))
    }
  }
}

extension RawClient {
  func send(_ text: String) { _ = text.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }

  /// Reads what comes, without blocking a thread, until the server closes (true) or `limit`
  /// passes (false).
  func closes(within limit: Duration) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while ContinuousClock.now < deadline {
      let count = recv(descriptor, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count == 0 { return true }
      if count > 0 {
        received += String(decoding: buffer[..<count], as: UTF8.self)
        continue
      }
      if errno != EAGAIN && errno != EWOULDBLOCK { return true }
      try await Task.sleep(for: .milliseconds(20))
    }
    return false
  }
}
