import Clocks
import Foundation
import StatlineCore
import StatlineEngine
import StatlineLoopback
import Synchronization
import Testing

/// A host name is judged by the address it resolves to, before the connection is made, and the
/// connection goes to that checked address: a name on the target's site that resolves to
/// 127.0.0.1, 10.0.0.5 or 169.254.169.254 is refused, naming host and address, unless
/// `http.privateHosts` names it. The names here are answered by a table (no DNS is asked); the
/// one server is a loopback server the test starts.
@Suite(.timeLimit(.minutes(1))) struct ResolvedAddressTests {
  /// Answers from a table, counting the questions.
  final class TableResolver: HostResolver {
    let table: Mutex<[String: [String]]>
    let asked = Mutex(0)
    init(_ table: [String: [String]]) { self.table = Mutex(table) }
    func addresses(of host: String, port: Int) async throws -> [String] {
      asked.withLock { $0 += 1 }
      guard let answer = table.withLock({ $0[host] }) else {
        throw StatlineError(.network, "the host \(host) does not resolve", location: host)
      }
      return answer
    }
  }

  final class Now: Sendable {
    let time = Mutex(Date(timeIntervalSince1970: 1_771_200_000))
    func callAsFunction() -> Date { time.withLock { $0 } }
    func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
  }

  func fetch(
    _ url: String, resolver: TableResolver, privateHosts: Set<String> = [], now: Now = Now()
  ) async throws -> Page {
    var configuration = HTTPFetcher.Configuration()
    configuration.privateHosts = privateHosts
    let fetcher = HTTPFetcher(configuration: configuration, resolver: resolver, now: { now() })
    do {
      let page = try await fetcher.fetch(FetchRequest(url: url))
      try await fetcher.shutdown()
      return page
    } catch {
      try await fetcher.shutdown()
      throw error
    }
  }

  @Test(arguments: [
    ("127.0.0.1", "loopback"), ("10.0.0.5", "private"), ("169.254.169.254", "link-local"), ("fd00::5", "private"),
    ("::ffff:127.0.0.1", "loopback"),
  ])
  func aNameThatResolvesToANonPublicAddressIsRefusedNamingHostAndAddress(address: String, reach: String) async throws {
    let server = try await LoopbackServer.start(routes: ["/": .ok("<html>inside</html>")])
    defer { Task { try await server.stop() } }
    let resolver = TableResolver(["scores.example.edu": [address]])
    do {
      _ = try await fetch("http://scores.example.edu:\(server.port)/", resolver: resolver)
      Issue.record("fetched")
    } catch let error as StatlineError {
      #expect(error.kind == .configuration, "not retried at once")
      #expect(error.reason.contains("scores.example.edu") && error.reason.contains(address), "\(error.reason)")
      #expect(error.reason.contains(reach), "\(error.reason)")
      #expect(error.hint?.contains("http.privateHosts") == true)
    }
    #expect(server.requests.isEmpty, "no connection was made")
  }

  @Test func aListedHostIsFetchedAtTheAddressItWasCheckedAt() async throws {
    let server = try await LoopbackServer.start(routes: ["/": .ok("<html>lab</html>")])
    defer { Task { try await server.stop() } }
    // The name resolves only through the table: a page that arrives came from the checked address.
    let resolver = TableResolver(["scores.lab.internal": ["127.0.0.1"]])
    let page = try await fetch(
      "http://scores.lab.internal:\(server.port)/", resolver: resolver, privateHosts: ["scores.lab.internal"])
    #expect(String(decoding: page.body, as: UTF8.self) == "<html>lab</html>")
    #expect(server.requests.first?.headers["host"] == "scores.lab.internal:\(server.port)", "the name is still sent")
  }

  @Test func aRedirectHopToANameOnTheSiteThatResolvesToTheMetadataAddressIsRefused() async throws {
    let server = try await LoopbackServer.start { request in
      let port = request.headers["host"]?.split(separator: ":").last ?? "80"
      return request.uri == "/start"
        ? .redirect("http://metadata.lab.example:\(port)/latest") : .ok("<html>secret</html>")
    }
    defer { Task { try await server.stop() } }
    let resolver = TableResolver(["www.lab.example": ["127.0.0.1"], "metadata.lab.example": ["169.254.169.254"]])
    var configuration = HTTPFetcher.Configuration()
    configuration.privateHosts = ["www.lab.example"]
    let http = HTTPFetcher(configuration: configuration, resolver: resolver)
    var manners = PoliteFetcher<TestClock<Duration>>.Configuration()
    manners.obeyRobots = false
    manners.hostLimits = HostLimits(concurrency: 2, spacing: .zero)
    let polite = PoliteFetcher(wrapping: http, clock: TestClock(), configuration: manners, random: { 0.5 })
    do {
      _ = try await polite.fetch(FetchRequest(url: "http://www.lab.example:\(server.port)/start"))
      Issue.record("followed")
    } catch let error as StatlineError {
      #expect(error.reason.contains("metadata.lab.example") && error.reason.contains("169.254.169.254"), "\(error)")
    }
    try await http.shutdown()
    #expect(server.requests.map(\.uri) == ["/start"], "the second hop made no connection")
  }

  @Test func aPublicAddressAmongTheAnswersIsTheOneUsedAndNonPublicOnesAreSkipped() throws {
    // The choice alone (connecting to a public address would leave this machine).
    #expect(
      try HTTPFetcher.chooseAddress(["10.0.0.5", "192.0.2.10", "127.0.0.1"], host: "h.example", allowPrivate: false)
        == "192.0.2.10")
    #expect(try HTTPFetcher.chooseAddress(["10.0.0.5"], host: "h.example", allowPrivate: true) == "10.0.0.5")
    #expect(throws: StatlineError.self) { try HTTPFetcher.chooseAddress([], host: "h.example", allowPrivate: true) }
  }

  @Test func aResolutionIsUsedForAMinuteAndThenAskedAgainAndAChangedAnswerIsJudgedAgain() async throws {
    let server = try await LoopbackServer.start(routes: ["/": .ok("<html>ok</html>")])
    defer { Task { try await server.stop() } }
    let resolver = TableResolver(["scores.lab.internal": ["127.0.0.1"], "other.example.edu": ["127.0.0.1"]])
    let now = Now()
    var configuration = HTTPFetcher.Configuration()
    configuration.privateHosts = ["scores.lab.internal"]
    let fetcher = HTTPFetcher(configuration: configuration, resolver: resolver, now: { now() })
    let url = "http://scores.lab.internal:\(server.port)/"
    _ = try await fetcher.fetch(FetchRequest(url: url))
    _ = try await fetcher.fetch(FetchRequest(url: url))
    #expect(resolver.asked.withLock { $0 } == 1, "within the minute")
    now.advance(61)
    _ = try await fetcher.fetch(FetchRequest(url: url))
    #expect(resolver.asked.withLock { $0 } == 2, "asked again after it")
    // The same host's next answer (a rebinding) is judged again: refused for an unlisted name.
    resolver.table.withLock { $0["other.example.edu"] = ["10.1.2.3"] }
    await #expect(throws: StatlineError.self) {
      _ = try await fetcher.fetch(FetchRequest(url: "http://other.example.edu:\(server.port)/"))
    }
    try await fetcher.shutdown()
    #expect(server.requests.count == 3)
  }

  @Test func theSystemResolverAnswersLocalhostFromTheHostsFile() async throws {
    let answers = try await SystemResolver().addresses(of: "localhost", port: 80)
    // (No other name is asked: it would go to DNS, off this machine.)
    #expect(answers.contains("127.0.0.1") || answers.contains("::1"), "\(answers)")
  }
}
