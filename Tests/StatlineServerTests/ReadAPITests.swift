import AsyncHTTPClient
import CompressNIO
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// The read API through a real HTTP client against the real server on 127.0.0.1, over a store
/// that the test writes as a job would.
@Suite(.serialized) struct ReadAPITests {
  /// The canonical games the store makes of the fixture's source games (architecture.md#canonical-games): their
  /// teams resolve to no school, so each id names the source teams.
  static let one = "game:2026-03-07:lacrosse-men:ncaa-t-ncaa-1-a~ncaa-t-ncaa-1-h"
  static let final = "game:2026-03-07:lacrosse-men:ncaa-t-statbroadcast-640301-a~ncaa-t-statbroadcast-640301-h"
  static let women = "game:2026-03-07:lacrosse-women:ncaa-t-ncaa-4-a~ncaa-t-ncaa-4-h"
  static let nine = "game:2026-03-08:lacrosse-men:ncaa-t-ncaa-1-a~ncaa-t-ncaa-9-a"

  /// A store with a game day of 2026-03-07: Duke at Virginia live 2-1 (box score, five plays),
  /// Army at Navy final 3-4, a women's game, and a game on another day.
  static func store() async throws -> (path: String, writer: SQLiteStore) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(UUID()).sqlite").path
    let writer = try SQLiteStore(path: path)
    func game(
      _ id: String, _ status: GameStatus, _ away: Int?, _ home: Int?, start: String?, date: String = "2026-03-07"
    )
      -> Game
    {
      Game(
        id: id, sport: .lacrosseMen, status: status, period: status == .live ? 2 : status == .final ? 4 : nil,
        clock: status == .live ? "07:12" : nil, date: date, startTime: start,
        away: TeamLine(team: TeamRef(id: "ncaa:t-\(id)-a", name: "Away \(id)"), score: away),
        home: TeamLine(team: TeamRef(id: "ncaa:t-\(id)-h", name: "Home \(id)"), score: home))
    }
    var women = game("ncaa:4", .live, 1, 1, start: "2026-03-07T18:00:00-05:00")
    women.sport = .lacrosseWomen
    let live = game("ncaa:1", .live, 2, 1, start: "2026-03-07T14:00:00-05:00")
    let plays = (1...5).map { Play(gameId: "ncaa:1", sequence: $0, period: 1, type: .shot, text: "Shot \($0)") }
    let box = BoxScore(
      gameId: "ncaa:1", away: TeamBox(players: [PlayerLine(name: "Ann Lee", stats: [StatKey.goals: 2])]),
      home: TeamBox(players: [PlayerLine(name: "Bo Day", stats: [StatKey.goals: 1])]))
    var later = game("ncaa:9", .scheduled, nil, nil, start: nil, date: "2026-03-08")
    later.home.team = TeamRef(id: "ncaa:t-ncaa:1-a", name: "Away ncaa:1")
    let teams = [
      Team(id: "ncaa:t-ncaa:1-a", name: "Away ncaa:1", sport: .lacrosseMen),
      Team(id: "ncaa:t-ncaa:4-a", name: "Away ncaa:4", sport: .lacrosseWomen),
      Team(id: "ncaa:t-statbroadcast:640301-a", name: "Army", conference: "Patriot", sport: .lacrosseMen),
      Team(id: "ncaa:t-statbroadcast:640301-h", name: "Navy", conference: "Patriot", sport: .lacrosseMen),
    ]
    _ = try await writer.write(
      Batch(
        games: [live, game("statbroadcast:640301", .final, 3, 4, start: "2026-03-07T12:00:00-05:00"), women, later],
        teams: teams, boxScores: [box], plays: plays))
    // The job polled a target successfully a minute before the tests' "now".
    var state = TargetState(
      target: Target(url: "https://stats.ncaa.org/contests/1/play_by_play", source: "ncaa", parser: "p", role: .game),
      nextDue: Date(timeIntervalSince1970: 1_772_913_570))
    state.lastSucceeded = Date(timeIntervalSince1970: 1_772_913_540)
    _ = try await writer.commit(PollCommit(batch: nil, states: [state]))
    return (path, writer)
  }

  static let client = HTTPClient(eventLoopGroupProvider: .singleton)

  /// Seasons as the NCAA plugin counts them, August to July (`SiteFactsTests` holds the plugin to it).
  static let ncaaSeasons = SeasonRule(firstMonth: 8)

  /// Runs the server over `path` for the body of the test.
  /// 2026-03-07 20:00 UTC is 15:00 in New York: "today" is the 7th.
  static let now = Date(timeIntervalSince1970: 1_772_913_600)

  static func withServer(
    _ path: String, now: @escaping @Sendable () -> Date = { ReadAPITests.now }, _ body: (String) async throws -> Void
  ) async throws {
    let reader = try SQLiteStore(readOnlyPath: path)
    var configuration = ReadAPI.Configuration()
    configuration.seasons = ncaaSeasons
    try await withServer(api: ReadAPI(reader: reader, configuration: configuration, now: now), body)
  }

  static func withServer(
    api: ReadAPI, groups: [any RouteGroup] = [], limits: ConnectionLimits = ConnectionLimits(),
    seconds: @escaping @Sendable () -> Double = { 0 }, _ body: (String) async throws -> Void
  ) async throws {
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "api-test")
    // The server's "already closed" on the test's cancellation is noise after the run's summary.
    logger.logLevel = .critical
    let server = APIServer(api: api, limits: limits, groups: groups, seconds: seconds)
    let app = server.application(host: "127.0.0.1", port: 0, logger: logger) { port in
      continuation.yield(port)
    }
    let running = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next())
    defer { running.cancel() }
    try await body("http://127.0.0.1:\(port)")
  }

  struct Answer {
    var status: Int
    var headers: [String: String]
    var body: Data
    var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
  }

  static func get(_ url: String, method: HTTPMethod = .GET, headers: [String: String] = [:]) async throws -> Answer {
    var request = HTTPClientRequest(url: url)
    request.method = method
    for (name, value) in headers { request.headers.add(name: name, value: value) }
    let response = try await client.execute(request, timeout: .seconds(10))
    var fields: [String: String] = [:]
    for (name, value) in response.headers { fields[name.lowercased()] = value }
    let body = try await response.body.collect(upTo: 1 << 24)
    return Answer(status: Int(response.status.code), headers: fields, body: Data(buffer: body))
  }

  @Test func theScoreboardGamesBoxScoresAndPlaysAnswerWithCachingHeaders() async throws {
    let (path, _) = try await Self.store()
    try await Self.withServer(path) { base in
      let board = try await Self.get(base + "/v1/scoreboard?sport=lacrosse-men")
      #expect(board.status == 200 && board.headers["content-type"] == "application/json; charset=utf-8")
      #expect(board.json["date"] as? String == "2026-03-07", "today in New York")
      let ids = (board.json["games"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
      #expect(ids == [Self.one, Self.final], "live first, then by start time")
      #expect(board.headers["cache-control"]?.hasPrefix("public, max-age=5,") == true, "a live game: short")
      let etag = board.headers["etag"] ?? ""
      #expect(
        etag.wholeMatch(of: /"[0-9a-f]{1,16}"/) != nil && board.headers["vary"] == "Accept-Encoding",
        "a strong ETag: a hash of the answer")
      let finals = try await Self.get(base + "/v1/scoreboard?date=2026-03-07&status=final")
      #expect(finals.headers["cache-control"]?.contains("max-age=60") == true, "finals: long")

      for id in ["statbroadcast:640301", "statbroadcast%3A640301"] {
        let game = try await Self.get(base + "/v1/games/\(id)")
        #expect(game.status == 200)
        let decoded = try JSONDecoder().decode(
          [String: Game].self,
          from: JSONSerialization.data(
            withJSONObject: ["game": game.json["game"] as Any]))
        #expect(decoded["game"]?.home.score == 4, "ids are taken with or without an encoded colon")
        #expect(decoded["game"]?.id == Self.final, "a source id answers its canonical game")
        #expect(decoded["game"]?.sources == ["statbroadcast:640301"])
      }
      let box = try await Self.get(base + "/v1/games/ncaa:1/boxscore")
      #expect(((box.json["boxScore"] as? [String: Any])?["gameId"] as? String) == Self.one)
      #expect(box.json["source"] as? String == "ncaa:1", "the source game it comes from")
      #expect(try await Self.get(base + "/v1/games/\(Self.one)/boxscore").json["source"] as? String == "ncaa:1")
      let plays = try await Self.get(base + "/v1/games/ncaa:1/plays?after=2&limit=2")
      #expect((plays.json["plays"] as? [[String: Any]])?.compactMap { $0["sequence"] as? Int } == [3, 4])
      #expect(plays.json["next"] as? Int == 4 && plays.json["more"] as? Bool == true)
      #expect(plays.json["gameId"] as? String == Self.one && plays.json["source"] as? String == "ncaa:1")
    }
  }

  @Test func teamsAndATeamsScheduleAnswer() async throws {
    let (path, _) = try await Self.store()
    try await Self.withServer(path) { base in
      let men = try await Self.get(base + "/v1/teams?sport=lacrosse-men")
      #expect(
        (men.json["teams"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [
          "ncaa:t-ncaa:1-a", "team:725", "team:726",
        ], "Army and Navy are schools the registry knows; 'Away ncaa:1' is not")
      let army = (men.json["teams"] as? [[String: Any]])?.first { $0["id"] as? String == "team:725" }
      #expect(army?["name"] as? String == "Army West Point" && army?["conference"] as? String == "Patriot")
      #expect(army?["sourceIds"] as? [String] == ["ncaa:t-statbroadcast:640301-a"])
      #expect((army?["aliases"] as? [String])?.contains("Army") == true)
      let bySource = try await Self.get(base + "/v1/teams/ncaa:t-statbroadcast:640301-a")
      #expect(
        (bySource.json["team"] as? [String: Any])?["id"] as? String == "team:725", "a source id answers its school")
      #expect(try await Self.get(base + "/v1/teams/team:457").status == 200, "a school the store has not seen yet")
      let team = try await Self.get(base + "/v1/teams/ncaa:t-ncaa:4-a")
      #expect((team.json["team"] as? [String: Any])?["sport"] as? String == "lacrosse-women")
      let schedule = try await Self.get(base + "/v1/teams/ncaa:t-ncaa:1-a/games?season=2026")
      #expect(
        (schedule.json["games"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [Self.one, Self.nine],
        "away on the 7th, home on the 8th")
      #expect(schedule.headers["cache-control"]?.contains("max-age=5") == true, "it holds a live game")
      #expect(
        (try await Self.get(base + "/v1/teams/ncaa:t-ncaa:1-a/games?season=2025").json["games"] as? [Any])?.isEmpty
          == true)
      #expect(try await Self.get(base + "/v1/teams/ncaa:t-ncaa:1-a/games?season=26").status == 400)
      #expect(try await Self.get(base + "/v1/teams/ncaa:nobody").status == 404)
      #expect(try await Self.get(base + "/v1/teams/ncaa:nobody/games").status == 404)
    }
  }

  @Test func leadersAndStandingsComeFromTheStoredBoxScoresAndFinals() async throws {
    let (path, _) = try await Self.store()
    try await Self.withServer(path) { base in
      let leaders = try await Self.get(base + "/v1/leaders?sport=lacrosse-men&stat=goals&season=2026")
      let rows = leaders.json["leaders"] as? [[String: Any]] ?? []
      #expect(rows.compactMap { $0["player"] as? String } == ["Ann Lee", "Bo Day"])
      #expect(
        rows.first?["value"] as? Int == 2 && rows.first?["games"] as? Int == 1 && rows.first?["rank"] as? Int == 1)
      #expect(((rows.first?["team"] as? [String: Any])?["id"] as? String) == "ncaa:t-ncaa:1-a")
      let none = try await Self.get(base + "/v1/leaders?sport=lacrosse-men&season=2025")
      #expect((none.json["leaders"] as? [Any])?.isEmpty == true)
      #expect(try await Self.get(base + "/v1/leaders?stat=goals").status == 400, "leaders need a sport")
      let table = try await Self.get(base + "/v1/standings?sport=lacrosse-men&season=2026")
      let standings = table.json["standings"] as? [[String: Any]] ?? []
      #expect(
        standings.compactMap { ($0["team"] as? [String: Any])?["name"] as? String } == [
          "Home statbroadcast:640301", "Away statbroadcast:640301",
        ], "only the final counts; the winner first")
      #expect(standings.first?["wins"] as? Int == 1 && standings.first?["conferenceWins"] as? Int == 1)
      #expect(standings.last?["losses"] as? Int == 1 && standings.last?["conference"] as? String == "Patriot")
      let other = try await Self.get(base + "/v1/standings?sport=lacrosse-men&season=2026&conference=Big%20Ten")
      #expect((other.json["standings"] as? [Any])?.isEmpty == true)
    }
  }

  @Test func readinessFollowsTheJobsLastSuccessfulPoll() async throws {
    let (path, writer) = try await Self.store()
    try await Self.withServer(path) { base in
      #expect(try await Self.get(base + "/readyz").status == 200, "a success a minute ago")
      var state = try #require(try await writer.targets().first)
      state.lastSucceeded = Date(timeIntervalSince1970: 1_772_913_600 - 3 * 3600)
      _ = try await writer.commit(PollCommit(batch: nil, states: [state]))
      let stale = try await Self.get(base + "/readyz")
      #expect(stale.status == 503 && stale.headers["retry-after"] == "30")
      #expect((stale.json["detail"] as? String)?.contains("more than 7200 s ago") == true, "\(stale.json)")
      #expect(try await Self.get(base + "/healthz").status == 200, "the process is still up")
    }
  }

  /// A flag one task sets and another reads.
  final class Flag: Sendable {
    private let state = Locked(false)
    var value: Bool { state.withLock { $0 } }
    func set() { state.withLock { $0 = true } }
  }

  /// The time the server reads, moved by the test.
  final class TestNow: Sendable {
    let time = Locked(ReadAPITests.now)
    func read() -> Date { time.withLock { $0 } }
    func set(_ date: Date) { time.withLock { $0 = date } }
  }

  @Test func gameAnswersSayHowFreshTheyAreAndTurnStaleWhenTheJobStopsPolling() async throws {
    let (path, writer) = try await Self.store()
    var game = try #require(try await writer.sourceGame(id: "ncaa:1"))
    game.clock = "06:40"
    // The game's own target polled it 20 s before "now", every 30 s.
    var state = TargetState(
      target: Target(url: "https://stats.ncaa.org/contests/1/box_score", source: "ncaa", parser: "p", role: .game),
      nextDue: Self.now.addingTimeInterval(10), gameId: "ncaa:1")
    state.lastPolled = Self.now.addingTimeInterval(-20)
    state.lastSucceeded = state.lastPolled
    state.cadence = 30
    state.outcome = .stored
    state.games = [game]
    _ = try await writer.commit(PollCommit(batch: Batch(games: [game]), states: [state]))
    let clock = TestNow()
    try await Self.withServer(path, now: clock.read) { base in
      let url = base + "/v1/games/ncaa:1"
      let fresh = try await Self.get(url)
      let freshness = try #require(fresh.json["freshness"] as? [String: Any])
      #expect(freshness["stale"] as? Bool == false && freshness["reason"] is NSNull)
      #expect(freshness["polledAt"] as? String == "2026-03-07T19:59:40Z")
      #expect(freshness["changedAt"] as? String == "2026-03-07T19:59:40Z", "when the poll that changed it ran")
      #expect(freshness["target"] as? String == state.id && freshness["cadence"] as? Double == 30)
      let sources = fresh.json["sources"] as? [[String: Any]]
      #expect(
        sources?.count == 1 && sources?.first?["id"] as? String == "ncaa:1" && sources?.first?["live"] as? Bool == true)
      #expect(sources?.first?["polledAt"] as? String == "2026-03-07T19:59:40Z", "when its target last polled it")
      let board = try await Self.get(base + "/v1/scoreboard?date=2026-03-07")
      let all = try #require(board.json["freshness"] as? [String: [String: Any]])
      #expect(all[Self.one]?["stale"] as? Bool == false)
      #expect(all[Self.final]?["stale"] as? Bool == false, "a final does not go stale")
      #expect(all[Self.women]?["reason"] as? String == "unwatched", "no target feeds it")

      // 45 s on, no poll has succeeded: the same store version, but no longer the same answer.
      clock.set(Self.now.addingTimeInterval(45))
      let frozen = try await Self.get(url, headers: ["If-None-Match": fresh.headers["etag"] ?? ""])
      #expect(frozen.status == 200 && frozen.headers["etag"] != fresh.headers["etag"])
      let stale = try #require(frozen.json["freshness"] as? [String: Any])
      #expect(stale["stale"] as? Bool == true && stale["reason"] as? String == "notPolled")

      // The job polls and fails: the reason says so.
      state.lastPolled = Self.now.addingTimeInterval(40)
      state.outcome = .failed
      state.lastError = "wrong page: the table 'Secret Staff Portal' has no Goals column [source ncaa]"
      state.consecutiveFailures = 1
      _ = try await writer.commit(PollCommit(batch: nil, states: [state]))
      let failing = try #require(try await Self.get(url).json["freshness"] as? [String: Any])
      #expect(failing["reason"] as? String == "failing")
      let detail = failing["detail"] as? String ?? ""
      #expect(
        detail.contains("its polls fail (wrong page;") && !detail.contains("Secret"), "no page content: \(detail)")

      // A good poll makes it fresh again.
      state.lastSucceeded = Self.now.addingTimeInterval(44)
      state.outcome = .unchanged
      _ = try await writer.commit(PollCommit(batch: nil, states: [state]))
      let again = try #require(try await Self.get(url).json["freshness"] as? [String: Any])
      #expect(again["stale"] as? Bool == false && again["polledAt"] as? String == "2026-03-07T20:00:44Z")
    }
  }

  @Test func theStatusAndTheLivePageAnswer() async throws {
    let (path, writer) = try await Self.store()
    var failing = TargetState(
      target: Target(url: "https://stats.ncaa.org/contests/2/box_score", source: "ncaa", parser: "p", role: .game),
      nextDue: Self.now.addingTimeInterval(-5))
    failing.outcome = .failed
    failing.lastError =
      "blocked: the page is not a stats.ncaa.org page (title 'Secret Staff Portal') [source ncaa, parser p, https://stats.ncaa.org/x]"
    failing.consecutiveFailures = 3
    _ = try await writer.commit(PollCommit(batch: nil, states: [failing]))
    try await Self.withServer(path) { base in
      let status = try await Self.get(base + "/v1/status")
      #expect(status.headers["cache-control"] == "no-store")
      let counts = try #require(status.json["targets"] as? [String: Int])
      #expect(
        counts == ["total": 2, "live": 0, "due": 2, "failing": 1, "blocked": 0, "retired": 0, "partial": 0], "\(counts)"
      )
      let trouble = status.json["trouble"] as? [[String: Any]]
      #expect(
        trouble?.first?["errorKind"] as? String == "blocked" && trouble?.first?["consecutiveFailures"] as? Int == 3)
      #expect(!String(decoding: status.body, as: UTF8.self).contains("Secret Staff Portal"), "no page content")
      let page = try await Self.get(base + "/", headers: ["Accept": "text/html,application/xhtml+xml"])
      #expect(page.status == 200 && page.headers["content-type"] == "text/html; charset=utf-8")
      let html = String(decoding: page.body, as: UTF8.self)
      #expect(html.contains("new EventSource(\"/v1/events/stream\")") && html.contains("/v1/status"))
      #expect(html.contains("line.rank") && html.contains("line.rankSource"), "the live page shows ranks, and whose")
      #expect(
        html.contains("\"/v1/boxscores?date=\"") && !html.contains("/boxscore\""),
        "an opened game's box score comes from the day's, fetched once (issue 54)")
      #expect(try await Self.get(base + "/?date=2026-03-07").status == 200)
      #expect(try await Self.get(base + "/?x=1").status == 400)
    }
  }

  @Test func aTrustedStampLetsAnswersLagTheStoreByAtMostItsInterval() async throws {
    let (path, writer) = try await Self.store()
    var configuration = ReadAPI.Configuration()
    configuration.stampInterval = .seconds(3600)
    let lagging = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), configuration: configuration)
    let exact = ReadAPI(reader: try SQLiteStore(readOnlyPath: path))
    let request = APIRequest(method: "GET", path: "/v1/games/ncaa:1")
    let before = await lagging.respond(request)
    var game = try #require(try await writer.sourceGame(id: "ncaa:1"))
    game.away.score = 9
    _ = try await writer.write(Batch(games: [game]))
    #expect(await lagging.respond(request).headers["etag"] == before.headers["etag"], "within the interval")
    #expect(await exact.respond(request).headers["etag"] != before.headers["etag"], "zero: read every time")
  }

  /// A stamp read before a writer commits must not let `/v1/changes` hand out a cursor past the
  /// version it reports: the client's next request would be refused as "from another store".
  @Test func aCursorTheAPIHandedOutIsNeverRefused() async throws {
    let (path, writer) = try await Self.store()
    var configuration = ReadAPI.Configuration()
    configuration.stampInterval = .seconds(3600)
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), configuration: configuration)
    try await Self.withServer(api: api) { base in
      let first = try await Self.get(base + "/v1/changes?since=0&limit=1000")
      let version = try #require(first.json["version"] as? Int)
      #expect(first.json["next"] as? Int == version)
      for goal in 1...5 {
        var game = try #require(try await writer.sourceGame(id: "ncaa:1"))
        game.away.score = 10 + goal
        _ = try await writer.write(Batch(games: [game]))
      }
      var cursor = version - 2
      for _ in 0..<4 {
        let page = try await Self.get(base + "/v1/changes?since=\(cursor)&limit=1")
        #expect(page.status == 200, "since=\(cursor): \(page.json)")
        let next = try #require(page.json["next"] as? Int)
        let reported = try #require(page.json["version"] as? Int)
        #expect(next <= reported, "next \(next) never passes the version \(reported) the answer covers")
        cursor = next
      }
      #expect(cursor == version, "the changes after the stamp wait for the next stamp")
      let beyond = try await Self.get(base + "/v1/events?since=999999")
      #expect(beyond.status == 410 && (beyond.json["detail"] as? String)?.contains("sync again from since=0") == true)
    }
  }

  @Test func answersForTodayAreNotServedPastMidnight() async throws {
    let (path, _) = try await Self.store()
    let now = TestNow()
    let api = ReadAPI(
      reader: try SQLiteStore(readOnlyPath: path), configuration: .served(primaryPolls: [:], seasons: Self.ncaaSeasons),
      now: now.read)
    func field(_ path: String, _ query: String, _ name: String) async throws -> String? {
      let answer = await api.respond(APIRequest(method: "GET", path: path, query: query))
      return (try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])?[name] as? String
    }
    #expect(try await field("/v1/scoreboard", "", "date") == "2026-03-07")
    now.set(Self.now.addingTimeInterval(10 * 3600))  // 01:00 on the 8th in New York, the stamp unchanged
    #expect(try await field("/v1/scoreboard", "", "date") == "2026-03-08")
    // A season runs August to July: it turns over at midnight on August 1 in New York.
    now.set(Date(timeIntervalSince1970: 1_785_553_200))  // 2026-07-31 23:00 in New York
    #expect(try await field("/v1/standings", "sport=lacrosse-men", "season") == "2026")
    #expect(try await field("/v1/leaders", "sport=lacrosse-men", "season") == "2026")
    now.set(Date(timeIntervalSince1970: 1_785_553_200 + 7_200))
    #expect(try await field("/v1/standings", "sport=lacrosse-men", "season") == "2027")
    #expect(try await field("/v1/leaders", "sport=lacrosse-men", "season") == "2027")
  }

  @Test func etagsGive304AndHeadGivesTheHeadersOnly() async throws {
    let (path, writer) = try await Self.store()
    try await Self.withServer(path) { base in
      let url = base + "/v1/games/ncaa:1"
      let first = try await Self.get(url)
      let etag = try #require(first.headers["etag"])
      let again = try await Self.get(url, headers: ["If-None-Match": etag])
      #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
      let head = try await Self.get(url, method: .HEAD)
      #expect(head.status == 200 && head.body.isEmpty && head.headers["etag"] == etag)
      #expect(head.headers["content-length"] == String(first.body.count))
      // The job writes a goal: the server (read-only, WAL) sees it, with a new ETag.
      var game = try #require(try await writer.sourceGame(id: "ncaa:1"))
      game.away.score = 3
      _ = try await writer.write(Batch(games: [game]))
      let moved = try await Self.get(url, headers: ["If-None-Match": etag])
      #expect(moved.status == 200 && moved.headers["etag"] != etag)
      #expect(((moved.json["game"] as? [String: Any])?["away"] as? [String: Any])?["score"] as? Int == 3)
    }
  }

  @Test func gzipIsServedWhenAskedWithItsOwnETag() async throws {
    let (path, _) = try await Self.store()
    try await Self.withServer(path) { base in
      let url = base + "/v1/scoreboard?date=2026-03-07"
      let plain = try await Self.get(url)
      let zipped = try await Self.get(url, headers: ["Accept-Encoding": "gzip, deflate"])
      #expect(zipped.headers["content-encoding"] == "gzip" && plain.headers["content-encoding"] == nil)
      #expect(zipped.body.count < plain.body.count && zipped.headers["vary"] == "Accept-Encoding")
      var buffer = ByteBuffer(bytes: zipped.body)
      var unzipped = try buffer.decompress(with: .gzip())
      #expect(unzipped.readBytes(length: unzipped.readableBytes) == Array(plain.body))
      #expect(zipped.headers["etag"] != plain.headers["etag"], "each representation has its own strong ETag")
      let revalidated = try await Self.get(
        url, headers: ["Accept-Encoding": "gzip", "If-None-Match": zipped.headers["etag"] ?? ""])
      #expect(revalidated.status == 304)
      let refused = try await Self.get(url, headers: ["Accept-Encoding": "gzip;q=0, identity"])
      #expect(refused.headers["content-encoding"] == nil)
      let newest = try await Self.get(base + "/v1/events?since=0&limit=1000").json["next"] as? Int ?? 0
      let small = try await Self.get(base + "/v1/events?since=\(newest)", headers: ["Accept-Encoding": "gzip"])
      #expect(small.headers["content-encoding"] == nil, "small answers go out as they are")
    }
  }

  @Test func badRequestsAreProblemDetailsNamingWhatIsWrong() async throws {
    let (path, _) = try await Self.store()
    try await Self.withServer(path) { base in
      let cases: [(String, Int, String)] = [
        ("/v1/games/ncaa:404", 404, "no game 'ncaa:404'"),
        ("/v1/games/..%2F..%2Fetc%2Fpasswd", 404, "no game '../../etc/passwd'"),
        ("/v1/nothing", 404, "no such endpoint"),
        ("/v1/scoreboard?date=03/07/2026", 400, "query parameter 'date' is '03/07/2026'; expected a date YYYY-MM-DD"),
        ("/v1/scoreboard?date=2026-02-30", 400, "query parameter 'date' is '2026-02-30'"),
        ("/v1/scoreboard?date=2026-04-31", 400, "query parameter 'date' is '2026-04-31'"),
        ("/v1/scoreboard?sport=Lacrosse!", 400, "'sport'"),
        ("/v1/teams?sport=%C3%B2", 400, "'sport' is 'ò'"),
        ("/v1/leaders?sport=x&stat=%C3%96", 400, "'stat' is 'Ö'; expected a stat key"),
        ("/v1/scoreboard?status=halftime", 400, "'status'"),
        ("/v1/changes?limit=-1", 400, "'limit' is '-1'; expected a whole number from 1 to 1000"),
        ("/v1/changes?limit=99999999", 400, "'limit'"),
        ("/v1/games/ncaa:1?verbose=1", 400, "query parameter 'verbose' is not known here"),
        ("/v1/scoreboard?" + String(repeating: "a", count: 10_000), 400, "at most 2048 are read"),
        ("/v1/changes?since=999999", 410, "sync again from since=0"),
        ("/v1/events?since=999999", 410, "beyond this store's newest event"),
      ]
      for (path, status, detail) in cases {
        let answer = try await Self.get(base + path)
        #expect(answer.status == status, "\(path)")
        #expect(answer.headers["content-type"] == "application/problem+json; charset=utf-8", "\(path)")
        #expect((answer.json["detail"] as? String)?.contains(detail) == true, "\(path): \(answer.json)")
        #expect(answer.json["title"] is String && answer.json["status"] as? Int == status)
      }
      let post = try await Self.get(base + "/v1/scoreboard", method: .POST)
      #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
      let html = try await Self.get(base + "/v1/scoreboard", headers: ["Accept": "text/html"])
      #expect(html.status == 406)
      #expect(try await Self.get(base + "/healthz").json["status"] as? String == "ok")
      #expect(try await Self.get(base + "/readyz").status == 200)
    }
  }

  @Test func deltaSyncWhileTheJobWritesEndsEqualToAFullRead() async throws {
    let (path, writer) = try await Self.store()
    try await Self.withServer(path) { base in
      // The job scores 40 goals and adds a play for each while the client syncs in small pages.
      let done = Flag()
      let job = Task {
        defer { done.set() }
        for goal in 1...40 {
          var game = try #require(try await writer.sourceGame(id: "ncaa:1"))
          game.away.score = 2 + goal
          let play = Play(gameId: "ncaa:1", sequence: 5 + goal, period: 3, type: .shot, text: "Shot by Lee, Ann")
          _ = try await writer.write(Batch(games: [game], plays: [play]))
        }
      }
      var cursor = 0
      var seen: [String: Int] = [:]
      var pages = 0
      var finished = false
      while true {
        let page = try await Self.get(base + "/v1/changes?since=\(cursor)&limit=4")
        pages += 1
        for change in page.json["changes"] as? [[String: Any]] ?? [] {
          let version = change["version"] as? Int ?? 0
          #expect(version > cursor, "in version order, after the cursor")
          seen["\(change["kind"] ?? "")/\(change["id"] ?? "")"] = version
        }
        cursor = page.json["next"] as? Int ?? cursor
        if page.json["more"] as? Bool != true {
          // Caught up with what was there; once the job is done, one more pass ends it.
          if finished { break }
          finished = done.value
        }
      }
      try await job.value
      let full = try await writer.changes(since: 0, limit: 100_000)
      #expect(seen == Dictionary(uniqueKeysWithValues: full.map { ("\($0.kind.rawValue)/\($0.id)", Int($0.version)) }))
      #expect(cursor == Int(try await writer.version()) && pages > 10)
    }
  }

  @Test func deltaSyncFromZeroInPagesEndsEqualToAFullReadAndEventsFollow() async throws {
    let (path, writer) = try await Self.store()
    try await Self.withServer(path) { base in
      var cursor = 0
      var seen: [String: Int] = [:]
      while true {
        let page = try await Self.get(base + "/v1/changes?since=\(cursor)&limit=3")
        for change in page.json["changes"] as? [[String: Any]] ?? [] {
          seen["\(change["kind"] ?? "")/\(change["id"] ?? "")"] = change["version"] as? Int
        }
        cursor = page.json["next"] as? Int ?? cursor
        if page.json["more"] as? Bool != true { break }
      }
      let full = try await writer.changes(since: 0, limit: 10_000)
      #expect(seen == Dictionary(uniqueKeysWithValues: full.map { ("\($0.kind.rawValue)/\($0.id)", Int($0.version)) }))
      #expect(cursor == Int(try await writer.version()))
      let events = try await Self.get(base + "/v1/events?since=0")
      let kinds = (events.json["events"] as? [[String: Any]])?.compactMap { $0["type"] as? String }
      #expect(kinds == ["game.discovered", "game.discovered", "game.discovered", "game.discovered"])
    }
  }
}
