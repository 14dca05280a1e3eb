import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import StatlineApp
import StatlineCLI
import StatlineCore
import StatlineEngine
import StatlineEvents
import StatlineLoopback
import StatlineSQLite
import StatlineServer

/// `statline demo`: the whole job against an embedded loopback server playing a game day.
public struct DemoCommand: AsyncParsableCommand, Sendable {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract:
      "Watch a scripted game day of three sports: the real scheduler, HTTP fetcher and SQLite store on loopback.",
    discussion: """
      Starts a server on 127.0.0.1 that plays five games (three lacrosse, one into overtime, a \
      men's basketball game and a baseball game; scheduled → live → final) as a StatBroadcast \
      school calendar and StatCrew XML, beside an ncaa.com scoreboard of the lacrosse games, on a clock running SPEED \
      times faster than real time, and runs the scrape job against it: the calendar discovers \
      the games, each game is polled every 30 s (game time) while live, a few times after it \
      ends, then retired. Everything lands in the SQLite store (a fresh file each run). \
      Nothing leaves this machine.
      """)

  @Option(name: .long, help: "How many times faster than real time the game day runs.")
  var speed: Double = 120

  @Option(name: .long, help: ArgumentHelp("The SQLite store (replaced on each run).", valueName: "path"))
  var store = "statline-demo.sqlite"

  @Flag(name: .long, help: "Print a line per change instead of redrawing the screen.")
  var plain = false

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Also POST every event to this URL, signed (Standard Webhooks) with $STATLINE_WEBHOOK_SECRET or a printed demo secret.",
      valueName: "url"))
  var webhook: String?

  @Option(name: .long, help: "The read API's port on 127.0.0.1 (0: any free one).")
  var port = 0

  /// The secret the demo signs with when STATLINE_WEBHOOK_SECRET is not set.
  static let demoSecret = "whsec_" + Data("statline-demo-secret".utf8).base64EncodedString()

  public func run() async throws {
    guard speed >= 1, speed <= 10_000 else {
      throw fail(StatlineError(.configuration, "--speed \(speed) is out of range", hint: "use 1 … 10000"))
    }
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    let clock = AcceleratedClock(factor: speed)
    let day = DemoGameDay()
    // The game day's minute 0 is when the job starts, however long starting takes (at 2,000×,
    // a tenth of a second is more than three minutes of the day).
    let origin = DemoGameDay.Origin()
    let seconds = { @Sendable in origin.seconds(since: JobClock<AcceleratedClock>.seconds(clock.now.offset)) }
    let server = try await LoopbackServer.start { request in day.route(request, seconds: seconds()) }
    var config = JobConfig()
    // Two sources of the same games: the school's calendar (which finds the StatCrew files) and
    // ncaa.com's scoreboard, polled as a live page of its own (it discovers nothing here).
    config.targets = [
      JobConfig.TargetSpec(url: server.baseURL + DemoGameDay.calendarPath, parser: "statbroadcast-event-calendar"),
      JobConfig.TargetSpec(url: server.baseURL + DemoGameDay.contestsPath, parser: "ncaa-gql-contests", role: .game),
      // The week's men's lacrosse poll: the sport's primary one, whose ranks the scoreboard shows.
      JobConfig.TargetSpec(url: server.baseURL + DemoRankings.path, parser: "ncaa-com-rankings"),
    ]
    config.primaryPolls = [.lacrosseMen: DemoRankings.poll]
    var source = JobConfig.SourceSettings()
    source.options["gameURL"] = server.baseURL + "/archive/{id}.xml"
    var policy = SchedulingPolicy.default
    policy.idle = .seconds(120)  // a game-day calendar is checked every 2 minutes
    source.policy = policy
    config.sources["statbroadcast"] = source
    config.summaryEvery = .seconds(3600)
    var environment = ProcessInfo.processInfo.environment
    if let webhook {
      var sink = JobConfig.SinkSpec(name: "demo-webhook", kind: .webhook)
      sink.url = webhook
      sink.secretEnv = "STATLINE_WEBHOOK_SECRET"
      sink.retry = DeliveryRetry(base: .seconds(1), cap: .seconds(30), giveUpAfter: .seconds(300))
      config.sinks = [sink]
      if environment["STATLINE_WEBHOOK_SECRET"]?.isEmpty ?? true {
        environment["STATLINE_WEBHOOK_SECRET"] = Self.demoSecret
        Console.error("statline demo: posting events to \(webhook), signed with \(Self.demoSecret)")
      }
    }
    let start = Date(timeIntervalSince1970: 1_772_902_800)  // 2026-03-07 17:00 UTC
    // The phones' APNs runs on the demo's clock (a provider token's age, an alert's expiry).
    let jobClock = JobClock(clock: clock, start: start)
    let phones: DemoPhones
    do {
      phones = try await DemoPhones.start(now: jobClock.now)
    } catch {
      try? await server.stop()
      throw fail(StatlineError(.io, "the demo's loopback APNs did not start: \(error)"))
    }
    config.push = phones.settings
    // A lease is on the demo's clock, a request's deadline on the wall's: a minute of real time
    // is `speed` minutes of the demo's (else a batch still being sent would be claimed again).
    config.push?.lease = .seconds(Int64(60 * speed))
    let board = DemoBoard()
    let metrics = ServerMetrics()
    let jobMetrics = JobMetrics(factory: metrics.factory)
    let runtime: JobRuntime<AcceleratedClock>
    do {
      runtime = try await JobRuntime(
        config: config, storePath: store, clock: clock, start: start, environment: environment,
        report: { event in
          jobMetrics.record(event)
          if case .polled(let report) = event { board.count(report) }
        })
    } catch {
      try? await server.stop()
      await phones.stop()
      throw fail(error)
    }
    do {
      try await phones.register(store: store, at: runtime.clock.now())
    } catch {
      await runtime.shutdown()
      try? await server.stop()
      await phones.stop()
      throw fail(StatlineError(.store, "the demo's phones were not registered: \(error)"))
    }
    origin.start(at: JobClock<AcceleratedClock>.seconds(clock.now.offset))
    let job = Task { try await runtime.scheduler.run(configured: runtime.targets) }
    let delivery = Task { try await runtime.delivery.run() }
    let pushing = runtime.push.map { push in Task { await push.service.run() } }
    // The read API over the same store (read-only), "today" being the demo's game day. It is
    // shut down gracefully at the end, so its event streams end with their final chunk.
    var apiLogger = Logger(label: "statline.api")
    apiLogger.logLevel = .error
    let api: ServiceGroup
    do {
      let reader = try SQLiteStore(readOnlyPath: store)
      let app = APIServer(
        api: ReadAPI(
          reader: reader,
          configuration: .served(primaryPolls: config.primaryPolls, seasons: BuiltinPlugins.facts.seasons),
          metrics: metrics,
          registry: try BuiltinPlugins.teamRegistry(),
          now: runtime.clock.now),
        bell: runtime.store.eventBell
      ).application(
        host: "127.0.0.1", port: port, logger: apiLogger
      ) { port in
        let url = "http://127.0.0.1:\(port)/v1/scoreboard"
        board.serving(url)
        if !(isatty(STDOUT_FILENO) == 1) || plain { Console.out("read API: curl \(url)") }
      }
      api = ServiceGroup(services: [app], gracefulShutdownSignals: [], logger: apiLogger)
    } catch {
      job.cancel()
      pushing?.cancel()
      delivery.cancel()
      await runtime.shutdown()
      try? await server.stop()
      throw fail(error)
    }
    let serving = Task { try await api.run() }
    let interactive = !plain && isatty(STDOUT_FILENO) == 1
    var sequence: Int64 = 0
    var lastFrame = ""
    // Enough for the day, the final polls and slack; the job normally ends well before.
    let deadline = ContinuousClock.now + .seconds(Int64(5 * 3600 / speed) + 30)
    while ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(interactive ? 150 : 250))
      for event in (try? await runtime.store.events(since: sequence, limit: 1000)) ?? [] {
        sequence = event.sequence
        if let line = Self.feedLine(event) { board.goal(line) }
      }
      // The games as the app sees them: one per game, merged from both sources.
      if let games = try? await runtime.store.games(sport: nil, date: "2026-03-07") { board.show(games) }
      let gameTime = Self.time(runtime.clock.now())
      let frame = board.render(clock: gameTime, speed: speed)
      if interactive {
        Console.out("\u{1B}[H\u{1B}[2J" + frame)
      } else if frame != lastFrame {
        let changed = frame.split(separator: "\n").dropFirst(2).prefix(3).joined(separator: " | ")
        if changed != lastFrame { Console.out("[\(gameTime)] \(changed)") }
        lastFrame = changed
      }
      // Done when every game target (the three StatCrew files and the ncaa.com scoreboard) retired.
      if day.isOver(at: seconds()), let states = try? await runtime.store.targets(),
        states.filter({ $0.target.role == .game }).count > day.games.count,
        states.filter({ $0.target.role == .game }).allSatisfy(\.isRetired)
      {
        break
      }
    }
    job.cancel()
    _ = try? await job.value
    // Every event of the day reaches the webhook before the demo ends.
    delivery.cancel()
    _ = try? await delivery.value
    await api.triggerGracefulShutdown()
    _ = try? await serving.value
    for sink in runtime.delivery.sinks { _ = try? await runtime.delivery.drain(sink) }
    // The last alerts (the finals) go out before the phones are read.
    try? await Task.sleep(for: .milliseconds(500))
    pushing?.cancel()
    _ = await pushing?.value
    let summary = try await Self.summary(runtime.store, path: store)
    await runtime.shutdown()
    try? await server.stop()
    Console.out(summary + "\n\n" + phones.report())
    await phones.stop()
  }

  /// A goal, a basket or run, or a final, as the feed shows it.
  static func feedLine(_ event: ChangeEvent) -> String? {
    let score = "\(event.awayScore ?? 0)-\(event.homeScore ?? 0)"
    let team = (event.side == .home ? event.home?.name : event.away?.name) ?? ""
    let (away, home) = (event.away?.name ?? "", event.home?.name ?? "")
    let when = event.periodLabel ?? "P\(event.period ?? 0)"
    switch event.type {
    case .goal:
      let who = event.player.map { " \($0)" + (event.assist.map { " (assist \($0))" } ?? "") } ?? ""
      return "P\(event.period ?? 0) \(event.clock ?? "--:--")  GOAL \(team)\(who)  \(score)  [\(event.id)]"
    case .scored:
      let who = event.player.map { " \($0)" } ?? ""
      return "\(when) \(event.clock ?? "")  +\(event.points ?? 0) \(team)\(who)  \(score)  [\(event.id)]"
    case .final:
      return "FINAL  \(away) \(score) \(home)  [\(event.id)]"
    case .rankingPublished:
      guard let ranking = event.ranking else { return nil }
      let top = ranking.rows.prefix(3).map { "\($0.rank) \($0.team.name)" }.joined(separator: ", ")
      return "POLL  \(ranking.name) \(ranking.through ?? ranking.edition): \(top)  [\(event.id)]"
    default: return nil
    }
  }

  static func time(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "HH:mm"
    return formatter.string(from: date)
  }

  /// What the store holds at the end: every game with its score and what else was stored.
  static func summary(_ store: any JobStore, path: String) async throws -> String {
    let changes = try await store.changes(since: 0, limit: 1_000_000)
    var games: [String: Game] = [:]
    var boxes: Set<String> = []
    var plays: [String: Int] = [:]
    for change in changes {
      switch change.record {
      case .game(let game): games[game.id] = game
      case .boxScore(let box): boxes.insert(box.gameId)
      case .play(let play): plays[play.gameId, default: 0] += 1
      case .team, .ranking: break
      }
    }
    var lines = ["", "The store (\(path)) now holds, at version \(try await store.version()):"]
    // A canonical game shows its first source's box score and plays (by precedence).
    lines += BatchTable.table(
      header: ["GAME", "STATUS", "AWAY", "SCORE", "HOME", "BOX SCORE", "PLAYS", "SOURCES"],
      rows: games.values.sorted { $0.id < $1.id }.map { game in
        let sources = game.sources ?? [game.id]
        return [
          game.id, game.periodLabel.map { "\(game.status.rawValue) (\($0))" } ?? game.status.rawValue,
          game.away.team.name, "\(game.away.score.map(String.init) ?? "-")-\(game.home.score.map(String.init) ?? "-")",
          game.home.team.name, sources.contains(where: boxes.contains) ? "yes" : "no",
          String(sources.lazy.compactMap { plays[$0] }.first ?? 0), sources.joined(separator: " "),
        ]
      })
    lines.append("Look inside: statline status --store \(path) --all   ·   sqlite3 \(path) 'select json from games'")
    return lines.joined(separator: "\n")
  }
}
