import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import StatlineApp
import StatlineCore
import StatlineEngine
import StatlineEvents
import StatlineLoopback
import StatlineServer

/// The latency the app feels: a loopback site whose games score at known
/// times, each game reported by two sources, polled by the whole job (scheduler, politeness,
/// HTTP, parsers, the store's merge into canonical games, the score differ) with a signed
/// webhook sink and the read API's event stream in the job's process, as `run --serve` runs
/// them. For every goal it measures, at a webhook receiver and at an SSE client:
/// - end to end: from the moment the site's pages changed to the event's arrival (set by the
///   cadence: the change waits for the next poll of either source);
/// - what Statline adds: from the moment the site first served the changed page (the poll that
///   sees the change) to the event's arrival.
public struct LatencyBenchmark: Sendable {
  public var targets: Int
  public var cadence: Duration
  /// Seconds between two goals of a game.
  public var goalEvery: Double
  /// Goals each game scores in the measured part.
  public var goals: Int
  public var storePath: String
  /// Devices following the games' teams, each goal pushed to its followers through the
  /// loopback APNs and FCM (`LatencyPush`); 0: no push path.
  public var devices: Int

  public init(targets: Int, cadence: Duration, goalEvery: Double, goals: Int, storePath: String, devices: Int = 0) {
    self.devices = devices
    self.targets = targets
    self.cadence = cadence
    self.goalEvery = goalEvery
    self.goals = goals
    self.storePath = storePath
  }

  /// Latencies of one receiver, in seconds.
  public struct Arrivals: Sendable {
    public var endToEnd: [Double] = []
    public var added: [Double] = []
    /// Goal events that arrived more than once.
    public var repeated = 0

    public func percentile(_ values: [Double], _ p: Double) -> Double {
      let sorted = values.sorted()
      return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
  }

  public struct Result: Sendable {
    public var games: Int
    /// Goals the site scored in the measured part (each should arrive once at each receiver).
    public var goals: Int
    public var webhook: Arrivals
    public var stream: Arrivals
    /// Goals that never arrived, per receiver.
    public var missingWebhook: Int
    public var missingStream: Int
    public var cadenceSeconds: Double
    /// With devices: each goal's pushes as the fakes accepted them (`added` from the goal's first
    /// serving to each acceptance), how many were due (each goal to every follower of either
    /// team), and how many of those never came.
    public var push: Arrivals?
    public var pushesDue = 0
    public var missingPushes = 0
  }

  /// One event as a receiver got it.
  struct Arrival: Sendable {
    var gameId: String
    var goals: Int
    var at: Double
  }

  final class Log: Sendable {
    let arrivals = Locked<[Arrival]>([])
    func add(_ event: ChangeEvent, at seconds: Double) {
      guard event.type == .goal else { return }
      let goals = (event.awayScore ?? 0) + (event.homeScore ?? 0)
      arrivals.withLock { $0.append(Arrival(gameId: event.gameId, goals: goals, at: seconds)) }
    }
  }

  public func run(progress: @escaping @Sendable (String) -> Void) async throws -> Result {
    let games = max(1, targets / 2)
    let cadenceSeconds = JobClock<ContinuousClock>.seconds(cadence)
    // Every game stored once (two polls each) before the first goal.
    let site = LatencySite(games: games, firstGoal: cadenceSeconds * 1.5 + 5, goalEvery: goalEvery, goalsPerGame: goals)
    let origin = ContinuousClock.now
    let originDate = Date()
    let seconds: @Sendable () -> Double = {
      let elapsed = origin.duration(to: .now)
      return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
    let server = try await LoopbackServer.start(ownThread: true) { request in
      site.route(request, seconds: seconds())
    }
    defer { Task { try? await server.stop() } }

    // The webhook receiver checks every signature, as a real one must.
    let secret = "whsec_" + Data("bench-latency-secret".utf8).base64EncodedString()
    let key = WebhookSignature.key(fromSecret: secret)!
    let hooked = Log()
    let receiver = try await LoopbackServer.start(ownThread: true) { request in
      let at = seconds()
      guard
        WebhookSignature.verify(
          header: request.headers["webhook-signature"] ?? "", id: request.headers["webhook-id"] ?? "",
          timestamp: Int(request.headers["webhook-timestamp"] ?? "") ?? 0, body: request.body, key: key),
        let event = try? ChangeEvent.decode(request.body)
      else { return .respond(status: 401) }
      hooked.add(event, at: at)
      return .respond(status: 204)
    }
    defer { Task { try? await receiver.stop() } }

    var config = JobConfig()
    config.targets = (0..<games).flatMap { index in
      [
        JobConfig.TargetSpec(
          url: server.baseURL + LatencySite.statCrewPath(index), parser: "statbroadcast-game-xml", role: .game),
        JobConfig.TargetSpec(
          url: server.baseURL + LatencySite.gameCentrePath(index), parser: "ncaa-gql-game", role: .game),
      ]
    }
    config.policy.live = cadence
    config.politeness.hostLimits = HostLimits(concurrency: 16, spacing: .zero)
    config.maxConcurrentPolls = 64
    config.summaryEvery = .seconds(3600)
    var sink = JobConfig.SinkSpec(name: "bench-webhook", kind: .webhook)
    sink.url = receiver.baseURL + "/hook"
    sink.secretEnv = "STATLINE_BENCH_SECRET"
    sink.filter = EventFilter(kinds: [.goal])
    sink.inFlight = 16
    config.sinks = [sink]
    var environment = ProcessInfo.processInfo.environment
    environment["STATLINE_BENCH_SECRET"] = secret
    let push =
      devices > 0
      ? try await LatencyPush.start(
        devices: devices, games: games, storePath: storePath,
        folder: URL(fileURLWithPath: storePath).deletingLastPathComponent())
      : nil
    config.push = push?.settings
    let runtime = try await JobRuntime(
      config: config, storePath: storePath, clock: ContinuousClock(), environment: environment, report: { _ in })

    // The read API of `run --serve`: its own read-only connection, woken by the job's bell.
    let reader = try await StoreLocation(storePath).openReader().store
    var logger = Logger(label: "statline.bench.latency")
    // Its stop (a cancellation) is no error here.
    logger.logLevel = .critical
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let app = APIServer(
      api: ReadAPI(
        reader: reader, configuration: .served, metrics: ServerMetrics(), registry: try BuiltinPlugins.teamRegistry()),
      bell: runtime.store.eventBell
    ).application(host: "127.0.0.1", port: 0, logger: logger) { port in continuation.yield(port) }
    let api = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw StatlineError(.io, "the benchmark's read API did not start") }
    let streamed = Log()
    let client = HTTPClient(eventLoopGroupProvider: .singleton)
    let stream = Task {
      let response = try await client.execute(
        HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/events/stream"), timeout: .hours(24))
      var pending = ""
      for try await chunk in response.body {
        let at = seconds()
        pending += String(buffer: chunk)
        while let end = pending.range(of: "\n\n") {
          let frame = pending[..<end.lowerBound]
          pending.removeSubrange(..<end.upperBound)
          for line in frame.split(separator: "\n") where line.hasPrefix("data:") {
            if let event = try? ChangeEvent.decode(Data(line.dropFirst(5).trimmingCharacters(in: .whitespaces).utf8)) {
              streamed.add(event, at: at)
            }
          }
        }
      }
    }

    let job = Task { try await runtime.scheduler.run(configured: runtime.targets) }
    let delivery = Task { try await runtime.delivery.run() }
    let pushing = runtime.push.map { push in Task { await push.service.run() } }
    progress(
      "\(games) games × 2 sources = \(2 * games) live targets every \(cadenceSeconds) s; goals every \(goalEvery) s "
        + "per game from \(Int(site.firstGoal)) s, \(goals) each")
    let lastGoal = (0..<games).map { site.goalTime($0, goals) }.max() ?? 0
    // The last goal's polls, and a little more.
    let end = lastGoal + cadenceSeconds + 5
    while seconds() < end {
      try await Task.sleep(for: .seconds(min(10, max(0.1, end - seconds()))))
      let arrived = hooked.arrivals.withLock { $0.count }
      progress(String(format: "%4.0f s: %d goal events at the webhook", seconds(), arrived))
    }
    job.cancel()
    delivery.cancel()
    stream.cancel()
    pushing?.cancel()
    await pushing?.value
    _ = try? await job.value
    _ = try? await delivery.value
    _ = try? await stream.value
    api.cancel()
    _ = try? await api.value

    // Canonical game id → site game index, from the store's source games.
    var indexOf: [String: Int] = [:]
    for game in try await runtime.store.sourceGames() {
      if let canonical = game.canonicalId, let index = site.gameIndex(ofSourceId: game.id) {
        indexOf[canonical] = index
      }
    }
    var goalOf: [String: (index: Int, goals: Int, due: Int)] = [:]
    if let push {
      for event in try await runtime.store.events(since: 0, limit: Int.max) where event.type == .goal {
        guard let index = indexOf[event.gameId] else { continue }
        let due = [event.away?.id, event.home?.id].compactMap { $0 }.reduce(0) { $0 + (push.followers[$1] ?? 0) }
        goalOf[event.id] = (index, (event.awayScore ?? 0) + (event.homeScore ?? 0), due)
      }
    }
    await runtime.shutdown()
    try await client.shutdown()
    func arrivals(_ log: Log) -> (Arrivals, missing: Int) {
      var result = Arrivals()
      var seen = Set<String>()
      for arrival in log.arrivals.withLock({ $0 }) {
        guard let index = indexOf[arrival.gameId], (1...goals).contains(arrival.goals) else { continue }
        guard seen.insert("\(index)/\(arrival.goals)").inserted else {
          result.repeated += 1
          continue
        }
        result.endToEnd.append(arrival.at - site.goalTime(index, arrival.goals))
        if let served = site.firstServed(index, arrival.goals) { result.added.append(arrival.at - served) }
      }
      return (result, games * goals - seen.count)
    }
    let (webhook, missingWebhook) = arrivals(hooked)
    let (streamArrivals, missingStream) = arrivals(streamed)
    var result = Result(
      games: games, goals: games * goals, webhook: webhook, stream: streamArrivals, missingWebhook: missingWebhook,
      missingStream: missingStream, cadenceSeconds: cadenceSeconds)
    if let push {
      var pushed = Arrivals()
      var seen = Set<String>()
      for accepted in try push.accepted() {
        guard let goal = goalOf[accepted.eventId], let served = site.firstServed(goal.index, goal.goals) else {
          continue
        }
        guard seen.insert(accepted.eventId + "/" + accepted.token).inserted else {
          pushed.repeated += 1
          continue
        }
        let at = accepted.at - originDate.timeIntervalSince1970
        pushed.endToEnd.append(at - site.goalTime(goal.index, goal.goals))
        pushed.added.append(at - served)
      }
      await push.stop()
      result.push = pushed
      result.pushesDue = goalOf.values.reduce(0) { $0 + $1.due }
      result.missingPushes = result.pushesDue - seen.count
    }
    return result
  }
}
