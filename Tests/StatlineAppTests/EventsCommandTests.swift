import Foundation
import StatlineApp
import StatlineCore
import StatlineEvents
import StatlineLoopback
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Change events end to end: the demo's game day posted to a loopback webhook, the `events`
/// commands, and the `sinks:` configuration.
@Suite(.serialized) struct EventsCommandTests {
  /// The demo's games, by canonical id (architecture.md#canonical-games: date, sport and the two NCAA org ids).
  static let army = "game:2026-03-07:lacrosse-men:725~726"
  static let northwestern = "game:2026-03-07:lacrosse-women:509~67"
  static let basketball = "game:2026-03-07:basketball-men:334~416"
  static let baseball = "game:2026-03-07:baseball:306~457"
  static let duke = "game:2026-03-07:lacrosse-men:193~457"

  /// Collects signed deliveries; answers `status` (204 by default).
  final class Hook: Sendable {
    final class Log: Sendable {
      let bodies = Locked<[Data]>([])
      let unsigned = Locked(0)
    }

    let log = Log()
    let server: LoopbackServer

    init(secret: String, status: Int = 204) async throws {
      let key = WebhookSignature.key(fromSecret: secret)!
      let log = log
      server = try await LoopbackServer.start { request in
        let valid = WebhookSignature.verify(
          header: request.headers["webhook-signature"] ?? "", id: request.headers["webhook-id"] ?? "",
          timestamp: Int(request.headers["webhook-timestamp"] ?? "") ?? 0, body: request.body, key: key)
        guard valid else {
          log.unsigned.withLock { $0 += 1 }
          return .respond(status: 401)
        }
        log.bodies.withLock { $0.append(request.body) }
        return .respond(status: status)
      }
    }

    func received() -> [Data] { log.bodies.withLock { $0 } }
    func refused() -> Int { log.unsigned.withLock { $0 } }
    var url: String { server.baseURL + "/hooks/statline" }
  }

  static let demoSecret = "whsec_" + Data("statline-demo-secret".utf8).base64EncodedString()

  @Test func theDemosGameDayReachesAWebhookExactlyAsTheEventLogHasIt() async throws {
    let folder = try JobCommandTests.folder()
    let store = folder.appendingPathComponent("demo.sqlite").path
    let hook = try await Hook(secret: Self.demoSecret)
    defer { Task { try? await hook.server.stop() } }
    // An event stream open until the demo ends: its normal end closes the stream properly.
    let port = try LoopbackSocket.freePort()
    let watcher = StreamWatcher(port: port, path: "/v1/events/stream")
    let output = try CommandRunner.run(
      ["demo", "--plain", "--speed", "1000", "--store", store, "--webhook", hook.url, "--port", String(port)])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(!output.stderr.contains("error"), "the demo's normal end logs no error: \(output.stderr)")
    let stream = watcher.wait()
    #expect(stream.contains("200 OK") && stream.hasSuffix("0\r\n\r\n"), "the stream ends with its final chunk")
    // The day plays to its end (this is also the demo's own test: one run serves both).
    // Each game once, under its canonical id, with the source games it merges.
    func row(_ id: String) -> [String] {
      output.stdout.split(separator: "\n").first { $0.hasPrefix(id + " ") }.map {
        $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      } ?? []
    }
    #expect(
      row(Self.army).joined(separator: " ").hasPrefix("\(Self.army) final (Final) Army West Point 3-4 Navy"),
      "\(output.stdout)")
    #expect(
      row(Self.northwestern).joined(separator: " ")
        == "\(Self.northwestern) final (Final) Northwestern 3-2 Boston College yes 23 statbroadcast:640302 "
        + "ncaa:com-6600102",
      "\(output.stdout)")
    #expect(row(Self.duke).prefix(8) == [Self.duke, "final", "(Final/OT)", "Duke", "3-4", "North", "Carolina", "yes"])
    #expect(output.stdout.contains(" live") || output.stdout.contains("1st") || output.stdout.contains("2nd"))
    #expect(output.stdout.contains("read API: curl http://127.0.0.1:"), "the demo serves the API and says where")
    // The demo's phones, through the job's push path to its loopback APNs: the Kentucky fan
    // (basketball defaults) gets the start and the final, not each basket; the fan in quiet
    // hours only finals, silently; the Navy fan the final of Navy's game.
    let phones = output.stdout.components(separatedBy: "Phones (pushes accepted by the loopback APNs):").last ?? ""
    // (An in-game alert lives five minutes of the demo's time, 0.3 s here: one may expire unsent.)
    #expect(
      phones.contains("Kentucky fan (basketball defaults): 1 push\n")
        || phones.contains("Kentucky fan (basketball defaults): 2 pushes"), "no basket is pushed: \(phones)")
    #expect(phones.contains("Michigan St. 63, Kentucky 68 · Final"))
    #expect(phones.contains("(silent) Indiana 2, North Carolina 3 · Final"))
    #expect(!phones.contains("(silent) GOAL") && !phones.contains("North Carolina fan (quiet all day): 0"))
    #expect(phones.contains("Army West Point 3, Navy 4 · Final"))
    // The Live Activity on the overtime game: updated as it went, ended at its final.
    #expect(phones.contains("[end, priority 10] Duke 3, North Carolina 4 · Final"), "\(phones)")
    #expect(phones.contains("[update, priority "), "\(phones)")
    #expect(phones.contains("Broadcast channels (one per game, iOS 18): "), "\(phones)")
    let events = try await SQLiteStore(path: store).events(since: 0, limit: 10_000)
    // Every event once, as logged, and in order per game (games go out side by side).
    let received = try hook.received().map(ChangeEvent.decode)
    #expect(received.count == events.count && Set(received.map(\.id)) == Set(events.map(\.id)))
    #expect(received.sorted { $0.sequence < $1.sequence } == events)
    for game in Set(events.map(\.gameId)) {
      #expect(received.filter { $0.gameId == game } == events.filter { $0.gameId == game }, "\(game) in order")
    }
    #expect(hook.refused() == 0, "every delivery is signed with the demo's secret")
    // The game day: five games discovered scheduled (three lacrosse, one basketball, one
    // baseball), 7 + 5 + 7 goals, five finals, one overtime.
    #expect(events.filter { $0.type == .discovered }.count == 5, "each game once, the lacrosse ones from two sources")
    #expect(events.filter { $0.type == .started }.count == 5)
    let sqlite = try SQLiteStore(path: store)
    #expect(
      try await sqlite.sourceGame(id: "statbroadcast:640301")?.away.team.name == "Army", "the StatCrew file's name")
    #expect(try await sqlite.sourceGame(id: "ncaa:com-6600101")?.away.team.name == "Army West Point", "ncaa.com's")
    #expect(try await sqlite.game(id: "ncaa:com-6600103")?.id == Self.duke, "UNC and North Carolina are one school")
    #expect(try await sqlite.sourceGame(id: "ncaa:com-6600103")?.status == .final, "the lagging board caught up")
    #expect(events.filter { $0.type == .goal }.count == 19)
    #expect(events.filter { $0.type == .goal }.allSatisfy { $0.player != nil }, "every scorer named from the plays")
    #expect(
      events.filter { $0.type == .final }.map(\.gameId).sorted() == [
        Self.baseball, Self.basketball, Self.duke, Self.army, Self.northwestern,
      ])
    // Basketball and baseball speak in points and runs: `game.scored`, whose points add up to
    // the final score, and no `game.goal`.
    for (game, sport) in [(Self.basketball, "basketball"), (Self.baseball, "baseball")] {
      let scored = events.filter { $0.gameId == game && $0.type == .scored }
      let final = try #require(events.last { $0.gameId == game && $0.type == .final })
      #expect(!scored.isEmpty && !events.contains { $0.gameId == game && $0.type == .goal }, "\(sport)")
      #expect(scored.filter { $0.side == .away }.compactMap(\.points).reduce(0, +) == final.awayScore, "\(sport)")
      #expect(scored.filter { $0.side == .home }.compactMap(\.points).reduce(0, +) == final.homeScore, "\(sport)")
    }
    #expect(
      events.first { $0.gameId == Self.baseball && $0.type == .final }.map { ($0.awayScore, $0.homeScore) } ?? (
        nil, nil
      ) == (2, 3))
    #expect(events.filter { $0.type == .overtime }.map(\.gameId) == [Self.duke])
    // The week's poll, once, with every school it ranks resolved.
    let published = events.filter { $0.type == .rankingPublished }
    #expect(published.map(\.gameId) == ["ncaa:com-lacrosse-men-d1-inside-lacrosse@2026/2026-03-01"])
    #expect(published.first?.ranking?.namedTeams.allSatisfy { $0.canonicalTeamId != nil } == true)

    // The read API over the day the demo left: every endpoint answers from it.
    // As the demo serves it: men's lacrosse's primary poll is the week's media poll.
    let api = ReadAPI(
      reader: try SQLiteStore(readOnlyPath: store),
      configuration: .served(primaryPolls: [.lacrosseMen: "ncaa:com-lacrosse-men-d1-inside-lacrosse"]),
      now: { Date(timeIntervalSince1970: 1_772_913_600) })
    for (path, query) in [
      ("/v1/scoreboard", "date=2026-03-07"), ("/v1/games/statbroadcast:640303", nil),
      ("/v1/games/statbroadcast:640303/boxscore", nil), ("/v1/games/statbroadcast:640303/plays", "after=0"),
      ("/v1/teams", "sport=lacrosse-men"), ("/v1/teams/statbroadcast:team-army", nil),
      ("/v1/teams/statbroadcast:team-army/games", "season=2026"), ("/v1/leaders", "sport=lacrosse-men&season=2026"),
      ("/v1/standings", "sport=lacrosse-men&season=2026"), ("/v1/changes", "since=0"), ("/v1/events", "since=0"),
      ("/v1/status", nil), ("/healthz", nil), ("/openapi.json", nil), ("/", nil),
      ("/v1/rankings", "sport=lacrosse-men"),
      ("/v1/rankings/polls", nil),
    ] {
      let answer = await api.respond(APIRequest(method: "GET", path: path, query: query))
      #expect(answer.status == 200, "\(path): \(String(decoding: answer.body.prefix(300), as: UTF8.self))")
    }
    let board = await api.respond(APIRequest(method: "GET", path: "/v1/scoreboard", query: "date=2026-03-07"))
    let scoreboard = try JSONSerialization.jsonObject(with: Data(board.body)) as? [String: Any]
    #expect(
      (scoreboard?["games"] as? [[String: Any]])?.compactMap { $0["status"] as? String }
        == Array(
          repeating: "final", count: 5))
    // The poll's ranks beside the teams it ranks, saying where they came from.
    func ranks(_ id: String) -> [Int?] {
      guard let game = (scoreboard?["games"] as? [[String: Any]])?.first(where: { $0["id"] as? String == id }) else {
        return []
      }
      return ["away", "home"].map { ((game[$0] as? [String: Any])?["rank"] as? Int) }
    }
    #expect(ranks(Self.duke) == [1, 2], "Duke first, North Carolina second")
    #expect(ranks(Self.army) == [4, nil], "Army West Point tied fourth; Navy received votes, no rank")
    #expect(ranks(Self.northwestern) == [nil, nil], "a women's game: men's lacrosse's poll says nothing of it")
    let plays = await api.respond(APIRequest(method: "GET", path: "/v1/games/statbroadcast:640303/plays"))
    let goals =
      ((try JSONSerialization.jsonObject(with: Data(plays.body)) as? [String: Any])?["plays"] as? [[String: Any]])?
      .filter { $0["type"] as? String == "goal" }.count
    #expect(goals == 7, "Duke 3 – North Carolina 4 in overtime: seven goals")

    // `events tail` prints the same JSON, one event a line.
    let tail = try CommandRunner.run(["events", "tail", "--store", store, "--since", "0"])
    #expect(tail.status == 0, "\(tail.stderr)")
    let lines = tail.stdout.split(separator: "\n").map { Data($0.utf8) }
    #expect(try lines.map(ChangeEvent.decode) == events)
    let last = try CommandRunner.run(["events", "tail", "--store", store])
    #expect(last.stdout.split(separator: "\n").count == 10, "without --since: the last 10")
    let failed = try CommandRunner.run(["events", "failed", "--store", store])
    #expect(failed.stdout.contains("no failed deliveries"))
  }

  @Test func deadLettersAreListedAndRedeliveredThroughTheConfiguredSink() async throws {
    let folder = try JobCommandTests.folder()
    let storePath = folder.appendingPathComponent("store.sqlite").path
    let store = try SQLiteStore(path: storePath)
    var game = Game(
      id: "ncaa:1", sport: .lacrosseMen, status: .live, period: 1,
      away: TeamLine(team: TeamRef(id: "ncaa:t1", name: "Duke"), score: 0),
      home: TeamLine(team: TeamRef(id: "ncaa:t2", name: "Virginia"), score: 0))
    _ = try await store.write(Batch(games: [game]))
    game.away.score = 1
    _ = try await store.write(Batch(games: [game]))
    let goal = try #require(try await store.events(since: 1, limit: 1).first)
    try await store.addDeadLetter(
      DeadLetter(sink: "push", event: goal, attempts: 9, error: "HTTP 503", failedAt: Date(timeIntervalSince1970: 0)))
    let secret = "whsec_" + Data("push-secret".utf8).base64EncodedString()
    let hook = try await Hook(secret: secret)
    defer { Task { try? await hook.server.stop() } }
    let config = folder.appendingPathComponent("statline.yml")
    try """
    store: \(storePath)
    targets: [https://example.edu/schedule]
    sinks:
      - kind: webhook
        name: push
        url: \(hook.url)
        secretEnv: PUSH_SECRET
        filter: { kinds: [game.goal], teams: [ncaa:t1] }
    """.write(to: config, atomically: true, encoding: .utf8)

    let status = try CommandRunner.run(["status", "--store", storePath])
    #expect(status.stdout.contains("events: 2 in the store"), "\(status.stdout)")
    #expect(
      status.stdout.split(separator: "\n").contains { $0.split(separator: " ") == ["push", "0", "2", "1"] },
      "the sink, delivered to 0, backlog 2, one dead letter: \(status.stdout)")
    let failed = try CommandRunner.run(["events", "failed", "--config", config.path])
    #expect(failed.stdout.contains("push") && failed.stdout.contains("evt_2") && failed.stdout.contains("HTTP 503"))
    let missing = try CommandRunner.run(["events", "redeliver", "evt_2", "--config", config.path])
    #expect(missing.status != 0 && missing.stderr.contains("PUSH_SECRET is not set"), "\(missing.stderr)")
    let redelivered = try CommandRunner.run(
      ["events", "redeliver", "evt_2", "--config", config.path], environment: ["PUSH_SECRET": secret])
    #expect(redelivered.status == 0 && redelivered.stdout.contains("redelivered 1 of 1"), "\(redelivered.stderr)")
    #expect(try hook.received().map(ChangeEvent.decode) == [goal])
    #expect(try await store.deadLetters(sink: nil).isEmpty)
    for unknown in ["evt_2", "evt_999"] {
      let none = try CommandRunner.run(
        ["events", "redeliver", unknown, "--config", config.path], environment: ["PUSH_SECRET": secret])
      #expect(none.status != 0 && none.stderr.contains("\(unknown) is not a dead letter"), "\(none.stderr)")
    }
    #expect(hook.received().count == 1, "nothing more was sent")
  }

  @Test func sinksAreReadFromTheConfigurationWithClearErrors() async throws {
    let config = try JobConfigReader.parse(
      """
      targets: [https://example.edu/schedule]
      sinks:
        - kind: jsonl
          path: events.jsonl
        - kind: webhook
          url: https://push.example.com/hooks/statline
          secretEnv: PUSH_SECRET
          timeout: 5s
          inFlight: 8
          filter: { kinds: [game.goal, game.final], sports: [lacrosse-men], teams: [ncaa:team-594020] }
          retry: { base: 2s, cap: 1m, giveUpAfter: 2h }
      """)
    #expect(config.sinks.map(\.name) == ["jsonl", "webhook-2"])
    let hook = config.sinks[1]
    #expect(hook.url == "https://push.example.com/hooks/statline" && hook.secretEnv == "PUSH_SECRET")
    #expect(hook.inFlight == 8 && config.sinks[0].inFlight == 4)
    #expect(
      hook.timeout == .seconds(5)
        && hook.retry == DeliveryRetry(base: .seconds(2), cap: .seconds(60), giveUpAfter: .seconds(7200)))
    #expect(hook.filter == EventFilter(kinds: [.goal, .final], sports: [.lacrosseMen], teams: ["ncaa:team-594020"]))

    // A webhook whose secret variable is not set stops the job at start-up, naming the variable.
    var missing = try JobConfigReader.parse(
      """
      targets: [https://archive.statbroadcast.com/640301.xml]
      sinks: [{kind: webhook, url: "https://push.example.com/h", secretEnv: STATLINE_TEST_UNSET_SECRET}]
      """)
    missing.store = FileManager.default.temporaryDirectory.appendingPathComponent("sinks-\(UUID()).sqlite").path
    let startup = await #expect(throws: StatlineError.self) {
      try await JobRuntime(config: missing, clock: ContinuousClock(), environment: [:], report: { _ in })
    }
    #expect(startup?.reason.contains("STATLINE_TEST_UNSET_SECRET is not set") == true, "\(startup?.reason ?? "")")

    for (yaml, message) in [
      ("- kind: pigeon", "sinks[0].kind (line 3): unknown sink kind 'pigeon'"),
      ("- kind: webhook\n    url: https://x.example/h", "sinks[0] (line 3): a webhook sink needs url and secretEnv"),
      ("- kind: jsonl\n    filter: { kinds: [game.touchdown] }", "unknown event kind 'game.touchdown'"),
      ("- kind: jsonl\n    secret: abc", "unknown key 'secret'"),
    ] {
      let error = #expect(throws: StatlineError.self) {
        try JobConfigReader.parse("targets: [https://example.edu/s]\nsinks:\n  \(yaml)")
      }
      #expect(error?.reason.contains(message) == true, "\(error?.reason ?? "")")
    }
  }
}

/// Reads one request's answer on a thread of its own, connecting as soon as the server
/// listens, until the server closes the connection.
final class StreamWatcher: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var received = Data()

  init(port: Int, path: String) {
    Thread { [self] in
      defer { done.signal() }
      let deadline = Date().addingTimeInterval(30)
      var descriptor: Int32 = -1
      while Date() < deadline {
        if let connected = LoopbackSocket.connect(port: port) {
          descriptor = connected
          break
        }
        Thread.sleep(forTimeInterval: 0.05)
      }
      guard descriptor >= 0 else { return }
      defer { close(descriptor) }
      let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
      _ = request.withCString { send(descriptor, $0, strlen($0), 0) }
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = recv(descriptor, &buffer, buffer.count, 0)
        if count <= 0 { break }
        received.append(contentsOf: buffer[..<count])
      }
    }.start()
  }

  /// What was read, once the server has closed the connection.
  func wait() -> String {
    done.wait()
    return String(decoding: received, as: UTF8.self)
  }
}
