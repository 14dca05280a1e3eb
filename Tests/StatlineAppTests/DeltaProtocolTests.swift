import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineEngine
import StatlineTesting
import Testing

@testable import StatBroadcastSource

/// StatBroadcast's `Filetime` delta through the poller: the header of a changed answer goes
/// back in the next request's data parameter, and a 204 answer is unchanged (no parse, no write).
@Suite struct DeltaProtocolTests {
  static func encoded(_ html: String) -> String {
    String(
      Data(html.utf8).base64EncodedString().map { c -> Character in
        guard let a = c.asciiValue, c.isLetter else { return c }
        let base: UInt8 = c.isUppercase ? 65 : 97
        return Character(UnicodeScalar((a - base + 13) % 26 + base))
      })
  }

  @Test func theFiletimeOfAnAnswerIsSentBackAndA204IsUnchanged() async throws {
    let view = WebServiceCodec.statsURL(
      .init(event: "652739", xml: "lbst/652739.xml", xsl: "baseball/sb.bsgame.views.broadcast.xsl", sport: "bsgame"))
    let next = WebServiceCodec.withFiletime(view, "1772150400")
    #expect(WebServiceCodec.parameters(of: next)["filetime"] == "1772150400")
    #expect(WebServiceCodec.parameters(of: next)["event"] == "652739")
    let html = """
      <div class="statusbar"><div class="sb-teamnameV">BYU</div><span class="sb-teamscore">2</span>
      <div class="sb-teamnameH">Washington State</div><span class="sb-teamscore">4</span>
      <div class="sb-statusbar-clock"><div class="font-size-125">Top 8th</div></div></div>
      """
    let fetcher = ScriptedFetcher([
      view: [.page(status: 200, headers: ["Filetime": "1772150400"], body: Self.encoded(html))],
      next: [.page(status: 204)],
    ])
    let registry = try BuiltinPlugins.registry()
    let poller = Poller(fetcher: fetcher, registry: registry, captures: nil)
    let target = Target(url: view, source: "statbroadcast", parser: "statbroadcast-broadcast-view", role: .game)
    var book = ScheduleBook(states: [])
    let now = Date(timeIntervalSince1970: 1_772_150_400)
    _ = book.seed([target], now: now)

    let first = await poller.poll(book.states[target.id]!, now: { now })
    guard case .stored(let screened, _) = first.kind else {
      Issue.record("the first answer must be stored: \(first.kind)")
      return
    }
    let batch = screened.batch
    #expect(batch.games.first?.periodLabel == "Top 8th" && batch.games.first?.home.score == 4)
    #expect(first.remembered == ["filetime": "1772150400"])
    _ = book.apply(first, to: target.id, now: now, unit: { 0.5 })

    let second = await poller.poll(book.states[target.id]!, now: { now })
    #expect(await fetcher.requests.last?.url == next, "the next request carries the Filetime")
    guard case .unchanged = second.kind else {
      Issue.record("a 204 is unchanged: \(second.kind)")
      return
    }
    #expect(book.apply(second, to: target.id, now: now, unit: { 0.5 }).commit.batch == nil)
  }
}

/// Every 6th request goes out in full (`filetime=-1`), so a service that wrongly keeps answering
/// 204 is read again; a full answer with the same content is still unchanged (no write).
@Suite struct FullRefetchTests {
  @Test func everySixthPollIsAFullRequest() async throws {
    let view = WebServiceCodec.statsURL(
      .init(event: "652739", xml: "lbst/652739.xml", xsl: "baseball/sb.bsgame.views.broadcast.xsl", sport: "bsgame"))
    let next = WebServiceCodec.withFiletime(view, "1772150400")
    let html = """
      <div class="statusbar"><div class="sb-teamnameV">BYU</div><span class="sb-teamscore">2</span>
      <div class="sb-teamnameH">Washington State</div><span class="sb-teamscore">4</span>
      <div class="sb-statusbar-clock"><div class="font-size-125">Top 8th</div></div></div>
      """
    let answer = ScriptedFetcher.Answer.page(
      status: 200, headers: ["Filetime": "1772150400"], body: DeltaProtocolTests.encoded(html))
    let fetcher = ScriptedFetcher([view: [answer], next: [.page(status: 204)]])
    let poller = Poller(fetcher: fetcher, registry: try BuiltinPlugins.registry(), captures: nil)
    let target = Target(url: view, source: "statbroadcast", parser: "statbroadcast-broadcast-view", role: .game)
    var book = ScheduleBook(states: [])
    let now = Date(timeIntervalSince1970: 1_772_150_400)
    _ = book.seed([target], now: now)
    var writes = 0
    for _ in 0..<13 {
      let result = await poller.poll(book.states[target.id]!, now: { now })
      if book.apply(result, to: target.id, now: now, unit: { 0.5 }).commit.batch != nil { writes += 1 }
    }
    let sent = await fetcher.requests.map { $0.url == view ? "full" : $0.url == next ? "delta" : "other" }
    #expect(
      sent == ["full"] + Array(repeating: "delta", count: 5) + ["full"] + Array(repeating: "delta", count: 5) + ["full"]
    )
    #expect(writes == 1, "the full answers repeat the first: nothing new is written")
    #expect(book.states[target.id]?.remembered == ["filetime": "1772150400"])
  }
}

/// An archive that has not got a game yet answers 403: the game target backs off, the host's
/// breaker is not charged, nothing is captured, and the archived XML is read once it appears.
@Suite struct AbsentPageTests {
  @Test func aGameNotArchivedYetIsAbsentNotBlocked() async throws {
    let url = "https://archive.statbroadcast.com/640112.xml"
    let xml = DemoGameDay().xml(eventId: "640301", at: 20 * 60)!
    let inner = ScriptedFetcher([
      "https://archive.statbroadcast.com/robots.txt": [.page(status: 404)],
      url: [
        .page(status: 403, body: "<Error><Code>AccessDenied</Code></Error>"), .page(status: 403), .page(status: 403),
        .ok(xml),
      ],
    ])
    var configuration = PoliteFetcher<ContinuousClock>.Configuration()
    configuration.hostLimits = .unlimited
    let polite = PoliteFetcher(wrapping: inner, clock: ContinuousClock(), configuration: configuration)
    let registry = try BuiltinPlugins.registry()
    let poller = Poller(fetcher: polite, registry: registry, captures: nil)
    let target = Target(url: url, source: "statbroadcast", parser: "statbroadcast-game-xml", role: .game)
    var book = ScheduleBook(states: [])
    let now = Date(timeIntervalSince1970: 1_772_902_800)
    _ = book.seed([target], now: now)
    var outcomes: [TargetState.Outcome] = []
    for _ in 0..<4 {
      let result = await poller.poll(book.states[target.id]!, now: { now })
      outcomes.append(book.apply(result, to: target.id, now: now, unit: { 0.5 }).state.outcome)
    }
    #expect(outcomes == [.absent, .absent, .absent, .stored])
    #expect(polite.breaker.state("archive.statbroadcast.com") == .closed(failures: 0), "three 403s charged nothing")
    #expect(await inner.count(url) == 4, "an absent page is not retried within a poll")
  }
}
