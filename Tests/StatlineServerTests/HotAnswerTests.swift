import AsyncHTTPClient
import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import StatlineCore
import StatlineSQLite
import Testing

@testable import StatlineServer

/// Cached answers sent from the event loop (`HotAnswerHandler`): the same bytes the API gives,
/// only while the stamp is trusted, never out of order, and everything else passed on.
@Suite(.serialized) struct HotAnswerTests {
  /// The monotonic time the API reads, moved by the test.
  final class TestInstant: Sendable {
    private let instant = Locked(ContinuousClock.now)
    func read() -> ContinuousClock.Instant { instant.withLock { $0 } }
    func advance(by duration: Duration) { instant.withLock { $0 += duration } }
  }

  /// An API as `statline serve` configures it (the stamp trusted for 250 ms) over the tests'
  /// game day, on the test's clocks.
  static func api(
    now: ReadAPITests.TestNow = .init(), instant: TestInstant = .init()
  ) async throws -> (api: ReadAPI, writer: SQLiteStore) {
    let (path, writer) = try await ReadAPITests.store()
    let api = ReadAPI(
      reader: try SQLiteStore(readOnlyPath: path), configuration: .served, now: now.read, monotonic: instant.read)
    return (api, writer)
  }

  static func channel(_ api: ReadAPI) throws -> EmbeddedChannel {
    let channel = EmbeddedChannel()
    try channel.pipeline.syncOperations.addHandler(HTTPResponseEncoder())
    try channel.pipeline.syncOperations.addHandler(HotAnswerHandler(api: api, dates: HTTPDateText()))
    return channel
  }

  static func request(
    _ target: String, method: HTTPMethod = .GET, version: HTTPVersion = .http1_1, headers: [(String, String)] = []
  ) -> HTTPRequestHead {
    HTTPRequestHead(version: version, method: method, uri: target, headers: HTTPHeaders(headers))
  }

  /// A response as it left for the socket.
  struct Sent: Equatable {
    var status: Int
    var headers: [String: String]
    var body: [UInt8]
  }

  /// Sends `head` through the channel: the response the handler wrote, or nil when it passed
  /// the request on (which the test then reads from the channel's inbound side).
  static func send(_ head: HTTPRequestHead, _ channel: EmbeddedChannel) throws -> Sent? {
    try channel.writeInbound(HTTPServerRequestPart.head(head))
    try channel.writeInbound(HTTPServerRequestPart.end(nil))
    if let passed = try channel.readInbound(as: HTTPServerRequestPart.self) {
      guard case .head(let passedHead) = passed else { throw CancellationError() }
      #expect(passedHead.uri == head.uri)
      #expect(try channel.readInbound(as: HTTPServerRequestPart.self) == .end(nil))
      return nil
    }
    var bytes: [UInt8] = []
    while var buffer = try channel.readOutbound(as: ByteBuffer.self) {
      bytes += buffer.readBytes(length: buffer.readableBytes) ?? []
    }
    return try parse(bytes)
  }

  /// Answers a request that was passed on, as Hummingbird would.
  static func respondBehind(_ channel: EmbeddedChannel) throws {
    try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
    try channel.writeOutbound(HTTPServerResponsePart.end(nil))
    while try channel.readOutbound(as: ByteBuffer.self) != nil {}
  }

  static func parse(_ bytes: [UInt8]) throws -> Sent {
    let blank = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("\r\n\r\n".utf8)) })
    let lines = String(decoding: bytes[..<blank], as: UTF8.self).components(separatedBy: "\r\n")
    let status = try #require(Int(lines[0].split(separator: " ")[1]))
    #expect(lines[0].hasPrefix("HTTP/1.1 "))
    var headers: [String: String] = [:]
    for line in lines.dropFirst() {
      let (name, value) = try #require(
        line.firstIndex(of: ":").map { (line[..<$0], line[line.index($0, offsetBy: 2)...]) })
      headers[name.lowercased()] = String(value)
    }
    return Sent(status: status, headers: headers, body: Array(bytes[(blank + 4)...]))
  }

  /// What the API answers, as the server would send it.
  static func answer(
    _ api: ReadAPI, _ path: String, _ query: String?, method: String = "GET", headers: [String: String] = [:]
  )
    async -> Sent
  {
    let answer = await api.respond(APIRequest(method: method, path: path, query: query, headers: headers))
    var fields = answer.headers
    fields["server"] = "Statline"
    return Sent(status: answer.status, headers: fields, body: answer.body)
  }

  /// The response without its `Date` (checked apart).
  static func undated(_ sent: Sent?) -> Sent? {
    guard var sent else { return nil }
    #expect(sent.headers["date"]?.hasSuffix(" GMT") == true, "\(sent.headers)")
    sent.headers["date"] = nil
    return sent
  }

  @Test func theEventLoopSendsTheAPIsOwnAnswerForEveryRepresentation() async throws {
    let (api, _) = try await Self.api()
    let channel = try Self.channel(api)
    let target = "/v1/scoreboard?date=2026-03-07"
    #expect(try Self.send(Self.request(target), channel) == nil, "nothing cached yet: passed on")
    try Self.respondBehind(channel)
    let plain = await Self.answer(api, "/v1/scoreboard", "date=2026-03-07")
    #expect(plain.status == 200 && plain.body.count > 512)
    #expect(Self.undated(try Self.send(Self.request(target), channel)) == plain)
    let head = try #require(try Self.send(Self.request(target, method: .HEAD), channel))
    #expect(head.body.isEmpty && head.headers["content-length"] == String(plain.body.count))

    // gzip: passed on until the API has made it, then sent from here with its own tag.
    let gzip = [("Accept-Encoding", "gzip, deflate")]
    #expect(try Self.send(Self.request(target, headers: gzip), channel) == nil)
    try Self.respondBehind(channel)
    let zipped = await Self.answer(
      api, "/v1/scoreboard", "date=2026-03-07", headers: ["accept-encoding": "gzip, deflate"])
    #expect(zipped.headers["content-encoding"] == "gzip")
    #expect(Self.undated(try Self.send(Self.request(target, headers: gzip), channel)) == zipped)
    let refused = try Self.send(Self.request(target, headers: [("Accept-Encoding", "gzip;q=0")]), channel)
    #expect(Self.undated(refused) == plain)

    // 304 for either tag, weak or strong, as the API answers it.
    let plainTag = try #require(plain.headers["etag"])
    let zippedTag = try #require(zipped.headers["etag"])
    for (tag, encoding) in [(plainTag, nil), ("W/" + plainTag, nil), ("\"x\", " + zippedTag, "gzip"), ("*", "gzip")] {
      var headers = [("If-None-Match", tag)]
      var apiHeaders = ["if-none-match": tag]
      if let encoding {
        headers.append(("Accept-Encoding", encoding))
        apiHeaders["accept-encoding"] = encoding
      }
      let expected = await Self.answer(api, "/v1/scoreboard", "date=2026-03-07", headers: apiHeaders)
      #expect(expected.status == 304)
      let sent = try #require(try Self.send(Self.request(target, headers: headers), channel))
      #expect(Self.undated(sent) == expected, "\(tag)")
    }
    let other = try #require(try Self.send(Self.request(target, headers: [("If-None-Match", "\"other\"")]), channel))
    #expect(other.status == 200)
  }

  @Test func aDaysBoxScoresAreSentFromTheEventLoopOnceAnswered() async throws {
    let (api, _) = try await Self.api()
    let channel = try Self.channel(api)
    let target = "/v1/boxscores?date=2026-03-07"
    #expect(try Self.send(Self.request(target), channel) == nil, "nothing cached yet: passed on")
    try Self.respondBehind(channel)
    let plain = await Self.answer(api, "/v1/boxscores", "date=2026-03-07")
    #expect(plain.status == 200 && plain.body.count > 512)
    #expect(Self.undated(try Self.send(Self.request(target), channel)) == plain, "a preload under load costs no query")
  }

  @Test func clientsThatOnlyRevalidateAreAnsweredFromTheEventLoopToo() async throws {
    let (api, _) = try await Self.api()
    let channel = try Self.channel(api)
    let revalidate = [("If-None-Match", "*")]
    #expect(await Self.answer(api, "/v1/teams", "sport=lacrosse-men", headers: ["if-none-match": "*"]).status == 304)
    #expect(try Self.send(Self.request("/v1/teams?sport=lacrosse-men", headers: revalidate), channel)?.status == 304)
  }

  @Test func answersFromTheEventLoopAreCountedInTheMetrics() async throws {
    let (path, _) = try await ReadAPITests.store()
    let metrics = ServerMetrics()
    let api = ReadAPI(
      reader: try SQLiteStore(readOnlyPath: path), configuration: .served, metrics: metrics,
      now: { ReadAPITests.now })
    let channel = try Self.channel(api)
    let ok = await Self.answer(api, "/v1/games/ncaa:1", nil)
    for _ in 1...3 { #expect(try Self.send(Self.request("/v1/games/ncaa:1"), channel)?.status == 200) }
    let tag = try #require(ok.headers["etag"])
    #expect(try Self.send(Self.request("/v1/games/ncaa:1", headers: [("If-None-Match", tag)]), channel)?.status == 304)
    let text = String(decoding: metrics.registry.emitToBuffer(), as: UTF8.self)
    #expect(text.contains(#"statline_api_requests_total{route="/v1/games/{id}",status="200"} 3"#), "\(text)")
    #expect(text.contains(#"statline_api_requests_total{route="/v1/games/{id}",status="304"} 1"#))
    #expect(text.contains(#"statline_api_request_duration_seconds_count{route="/v1/games/{id}"} 4"#))
  }

  /// Records the events that reach the handlers behind the one under test.
  final class Events: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    var quiesced = false
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
      if event is ChannelShouldQuiesceEvent { quiesced = true }
    }
    func channelRead(context: ChannelHandlerContext, data: NIOAny) { context.fireChannelRead(data) }
  }

  @Test func aGracefulStopReachesTheHandlersBehindOnceTheAnswersSentHereAreOut() async throws {
    let (api, _) = try await Self.api()
    let channel = EmbeddedChannel()
    let events = Events()
    try channel.pipeline.syncOperations.addHandler(HTTPResponseEncoder())
    try channel.pipeline.syncOperations.addHandler(HotAnswerHandler(api: api, dates: HTTPDateText()))
    try channel.pipeline.syncOperations.addHandler(events)
    _ = await Self.answer(api, "/v1/games/ncaa:1", nil)
    #expect(try Self.send(Self.request("/v1/games/ncaa:1"), channel)?.status == 200)
    channel.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    #expect(events.quiesced)
    #expect(try channel.readOutbound(as: ByteBuffer.self)?.readableBytes == 0, "the flush it waited for")
    #expect(try Self.send(Self.request("/v1/games/ncaa:1"), channel) == nil, "from then on, passed on")
  }

  @Test func whatTheEventLoopMayNotAnswerIsPassedOn() async throws {
    let instant = TestInstant()
    let (api, _) = try await Self.api(instant: instant)
    let channel = try Self.channel(api)
    let target = "/v1/games/ncaa:1"
    _ = await Self.answer(api, target, nil)
    #expect(try Self.send(Self.request(target), channel)?.status == 200)
    #expect(try Self.send(Self.request(target + "?"), channel)?.status == 200, "the same key as the API's")
    let passedOn: [HTTPRequestHead] = [
      Self.request(target, method: .POST),
      Self.request(target, method: .DELETE),
      Self.request(target, version: .http1_0),
      Self.request(target, headers: [("Connection", "close")]),
      Self.request(target, headers: [("Content-Length", "0")]),
      Self.request(target, headers: [("Accept", "text/html")]),
      Self.request(target, headers: [("Accept", "")]),
      Self.request("/v1/games/ncaa:2"),
      Self.request("/healthz"),
    ]
    for head in passedOn {
      #expect(try Self.send(head, channel) == nil, "\(head)")
      try Self.respondBehind(channel)
    }
    #expect(try Self.send(Self.request(target), channel)?.status == 200)
    // Past the stamp's trust, the API must read the stamp again: passed on.
    instant.advance(by: .milliseconds(250))
    #expect(try Self.send(Self.request(target), channel) == nil)
  }

  @Test func aRequestBehindOneBeingAnsweredIsPassedOnSoResponsesStayInOrder() async throws {
    let (api, _) = try await Self.api()
    let channel = try Self.channel(api)
    let target = "/v1/games/ncaa:1"
    _ = await Self.answer(api, target, nil)
    #expect(try Self.send(Self.request("/v1/status"), channel) == nil)
    #expect(try Self.send(Self.request(target), channel) == nil, "the status is still being answered")
    try Self.respondBehind(channel)
    #expect(try Self.send(Self.request(target), channel) == nil, "one response still to come")
    for _ in 1...2 { try Self.respondBehind(channel) }
    #expect(try Self.send(Self.request(target), channel)?.status == 200)
  }

  @Test func throughARealClientHotAnswersEqualTheAPIsAndFollowTheStoreAfterTheInterval() async throws {
    let now = ReadAPITests.TestNow()
    let instant = TestInstant()
    let (api, writer) = try await Self.api(now: now, instant: instant)
    try await ReadAPITests.withServer(api: api) { base in
      let url = base + "/v1/games/ncaa:1"
      let first = try await Self.fetch(url)
      let second = try await Self.fetch(url)
      #expect(first.status == 200 && second.body == first.body)
      #expect(
        first.headers.filter { $0.0 != "date" }.map { "\($0.0): \($0.1)" }
          == second.headers.filter { $0.0 != "date" }.map { "\($0.0): \($0.1)" })
      // The server answers from the event loop's table: an answer put there for a game the
      // store does not have (the router would say 404) is what a client gets.
      let marker = ResponseCache.Entry(body: Array(#"{"marker":true}"#.utf8), cacheControl: "no-store").prepared()
      api.hot.publish(
        HotAnswers.Answer(marker, route: "/v1/games/{id}", metrics: nil), for: "/v1/games/ncaa:none?",
        stamp: try await api.reader.stamp())
      let fromTheLoop = try await Self.fetch(base + "/v1/games/ncaa:none")
      #expect(fromTheLoop.status == 200 && fromTheLoop.body == marker.body)
      var game = try #require(try await writer.sourceGame(id: "ncaa:1"))
      game.away.score = 7
      _ = try await writer.write(Batch(games: [game]))
      #expect(try await Self.fetch(url).body == first.body, "within the stamp's trust")
      instant.advance(by: .seconds(1))
      let moved = try await Self.fetch(url)
      #expect(moved.body != first.body)
      #expect(String(decoding: moved.body, as: UTF8.self).contains("\"score\":7"))
      // A game turning stale is not sent as fresh from the event loop either.
      #expect(try await Self.fetch(url).body == moved.body)
      now.set(ReadAPITests.now.addingTimeInterval(86_400))
      let stale = try await Self.fetch(url)
      #expect(
        String(decoding: stale.body, as: UTF8.self).contains("\"stale\":true"),
        "\(String(decoding: stale.body, as: UTF8.self))")
    }
  }

  @Test func theHeadersAnAnswerDependsOnAreReadInAnyCaseAndJoinedWhenRepeated() {
    let read = RequestConditions(
      HTTPHeaders([
        ("ACCEPT", "application/json"), ("If-None-Match", "\"a\""), ("if-none-match", "W/\"b\""),
        ("Accept-encoding", "gzip"), ("Host", "x"), ("accepts", "no"),
      ]))
    #expect(read.accept == "application/json" && read.acceptEncoding == "gzip")
    #expect(read.ifNoneMatch == "\"a\", W/\"b\"" && !read.hasBody)
    #expect(RequestConditions(HTTPHeaders([("Content-Length", "0")])).hasBody)
    #expect(RequestConditions(HTTPHeaders([("TRANSFER-ENCODING", "chunked")])).hasBody)
    #expect(RequestConditions(HTTPHeaders([("accept-encodinG", "br")])).acceptEncoding == "br")
    #expect(ReadAPI.matches(" \"x\" ,\tW/\"b\"\t", etag: "\"b\""))
    #expect(ReadAPI.matches("\"x\",*", etag: "\"b\""))
    #expect(!ReadAPI.matches("\"x\", \"bb\", W/", etag: "\"b\""))
    #expect(!ReadAPI.matches("", etag: "\"b\"") && !ReadAPI.matches(",,", etag: "\"b\""))
  }

  static func fetch(_ url: String) async throws -> (status: Int, headers: [(String, String)], body: [UInt8]) {
    let response = try await ReadAPITests.client.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
    let body = try await response.body.collect(upTo: 1 << 24)
    return (Int(response.status.code), response.headers.map { ($0.name.lowercased(), $0.value) }, Array(buffer: body))
  }
}
