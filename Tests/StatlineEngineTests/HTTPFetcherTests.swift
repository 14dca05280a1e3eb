import Foundation
import StatlineCore
import StatlineEngine
import StatlineLoopback
import StatlineTesting
import Testing

/// The HTTP fetcher against a server it starts itself on 127.0.0.1.
@Suite(.timeLimit(.minutes(1))) struct HTTPFetcherTests {
  static let stamp = Date(timeIntervalSince1970: 1_771_200_000)

  func withServer(
    _ routes: [String: LoopbackServer.Behavior], configuration: HTTPFetcher.Configuration = .init(),
    _ body: (HTTPFetcher, LoopbackServer) async throws -> Void
  ) async throws {
    let server = try await LoopbackServer.start(routes: routes)
    let fetcher = HTTPFetcher(configuration: configuration, now: { Self.stamp })
    do {
      try await body(fetcher, server)
    } catch {
      try await fetcher.shutdown()
      try await server.stop()
      throw error
    }
    try await fetcher.shutdown()
    try await server.stop()
  }

  @Test func fetchesAPageWithItsHeadersAndSendsOurs() async throws {
    try await withServer(["/box": .ok("<html>box</html>", headers: ["ETag": "\"v1\"", "Content-Type": "text/html"])]) {
      fetcher, server in
      let page = try await fetcher.fetch(
        FetchRequest(
          url: "\(server.baseURL)/box", headers: ["Referer": "https://stats.test/", "User-Agent": "Statline/0"]))
      #expect(page.status == 200)
      #expect(String(decoding: page.body, as: UTF8.self) == "<html>box</html>")
      #expect(page.header("etag") == "\"v1\"")
      #expect(page.fetchedAt == Self.stamp)
      let sent = try #require(server.requests.first)
      #expect(sent.headers["referer"] == "https://stats.test/")
      #expect(sent.headers["user-agent"] == "Statline/0")
      #expect(sent.headers["accept-encoding"] == "gzip, deflate")
    }
  }

  @Test func gzipBodiesAreDecompressed() async throws {
    let big = String(repeating: "<tr><td>Player Name</td><td>12</td></tr>\n", count: 2_000)
    try await withServer(["/big": .ok("<html>\(big)</html>")]) { fetcher, server in
      let page = try await fetcher.fetch(FetchRequest(url: "\(server.baseURL)/big"))
      #expect(["gzip", "deflate"].contains(page.header("content-encoding") ?? ""), "the body came compressed")
      #expect(page.body.count == big.utf8.count + 13)
    }
  }

  @Test func conditionalGetSendsValidators() async throws {
    let server = try await LoopbackServer.start { request in
      request.headers["if-none-match"] == "\"v1\"" ? .respond(status: 304) : .ok("<html>new</html>")
    }
    let fetcher = HTTPFetcher()
    let page = try await fetcher.fetch(
      FetchRequest(url: "\(server.baseURL)/box", etag: "\"v1\"", lastModified: "Mon, 16 Feb 2026 00:00:00 GMT"))
    #expect(page.status == 304)
    #expect(server.requests.first?.headers["if-modified-since"] == "Mon, 16 Feb 2026 00:00:00 GMT")
    try await fetcher.shutdown()
    try await server.stop()
  }

  /// The client follows nothing: a redirect is a page (PoliteFetcher follows it by its rules),
  /// and an address a client would trap on is refused before the client sees it.
  @Test func aRedirectIsAnsweredAsAPageAndABadAddressNeverReachesTheClient() async throws {
    try await withServer(["/old": .redirect("http://127.0.0.1:99999/new")]) { fetcher, server in
      let page = try await fetcher.fetch(FetchRequest(url: "\(server.baseURL)/old"))
      #expect(page.status == 302 && page.header("location") == "http://127.0.0.1:99999/new")
      #expect(server.requests.count == 1)
      for bad in ["http://127.0.0.1:99999/x", "http://127.0.0.1:0/x", "ftp://127.0.0.1/x", "http:///x"] {
        do {
          _ = try await fetcher.fetch(FetchRequest(url: bad))
          Issue.record("\(bad) must be refused")
        } catch let error as StatlineError {
          #expect(error.kind == .configuration && error.reason.contains("is not a usable address"), "\(error)")
        }
      }
    }
  }

  @Test func anOversizedBodyIsRefused() async throws {
    var configuration = HTTPFetcher.Configuration()
    configuration.maximumBodyBytes = 1_000
    try await withServer(["/huge": .ok(String(repeating: "x", count: 5_000))], configuration: configuration) {
      fetcher, server in
      do {
        _ = try await fetcher.fetch(FetchRequest(url: "\(server.baseURL)/huge"))
        Issue.record("expected an error")
      } catch let error as StatlineError {
        #expect(error.kind == .unsafeDocument)
        #expect(error.reason == "the answer is larger than 1000 bytes")
        #expect(error.hint?.contains("http.maxBodySize") == true, "the hint names the configuration key")
      }
    }
  }

  @Test func aRequestsOwnSmallerLimitIsEnforcedAndNamed() async throws {
    try await withServer(["/logo.png": .ok(String(repeating: "x", count: 5_000)), "/small.png": .ok("tiny")]) {
      fetcher, server in
      var request = FetchRequest(url: "\(server.baseURL)/logo.png")
      request.maximumBytes = 1_000
      do {
        _ = try await fetcher.fetch(request)
        Issue.record("expected an error")
      } catch let error as StatlineError {
        #expect(error.kind == .unsafeDocument)
        #expect(error.reason == "the answer is larger than 1000 bytes, the limit of this request")
      }
      request.url = "\(server.baseURL)/small.png"
      #expect(try await fetcher.fetch(request).body == Data("tiny".utf8))
    }
  }

  @Test func aLargeBodyThatDoesNotCompressIsRefusedPromptly() async throws {
    var configuration = HTTPFetcher.Configuration()
    configuration.maximumBodyBytes = 1 << 20
    var generator = SystemRandomNumberGenerator()
    let words = (0..<((2 << 20) / 8)).map { _ in generator.next() as UInt64 }
    let noise = words.withUnsafeBytes { Data($0) }
    try await withServer(["/noise": .bytes(status: 200, headers: [:], body: noise)], configuration: configuration) {
      fetcher, server in
      let start = ContinuousClock.now
      do {
        _ = try await fetcher.fetch(FetchRequest(url: "\(server.baseURL)/noise"))
        Issue.record("expected an error")
      } catch let error as StatlineError {
        #expect(error.kind == .unsafeDocument, "\(error)")
      }
      #expect(start.duration(to: .now) < .seconds(5))
    }
  }

  @Test func resetsTruncationsAndTimeoutsAreNetworkErrors() async throws {
    var configuration = HTTPFetcher.Configuration()
    configuration.requestTimeout = .milliseconds(300)
    try await withServer(
      ["/reset": .reset, "/cut": .truncated(declaredLength: 1_000, body: "<html>par"), "/hang": .hang],
      configuration: configuration
    ) { fetcher, server in
      for path in ["/reset", "/cut", "/hang"] {
        do {
          _ = try await fetcher.fetch(FetchRequest(url: "\(server.baseURL)\(path)"))
          Issue.record("\(path) must fail")
        } catch let error as StatlineError {
          #expect(error.kind == .network, "\(path): \(error)")
          #expect(error.location == "\(server.baseURL)\(path)")
        }
      }
    }
  }
}
