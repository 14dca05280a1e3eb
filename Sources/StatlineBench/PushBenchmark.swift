import Foundation
import Logging
import StatlineCore
import StatlineLoopback
import StatlinePostgres
import StatlinePush
import StatlineSQLite
import Synchronization

/// A goal to many phones (`statline bench push`): `devices` devices follow one team in a SQLite
/// store's registry (or a PostgreSQL schema shared by `workers` workers, each with its own pool,
/// provider token, APNs connections and push service), a goal event is put in the log, and the
/// push path (the evaluators, the store's outbox, the send loops, the APNs senders over HTTP/2
/// TLS) sends one alert to each, to an in-process loopback APNs that counts what it accepts.
/// Timed from the moment the event is in the log (its commit) to the first and last acceptance,
/// per round.
public enum PushBenchmark {
  public struct Round: Sendable {
    public var first: Double
    public var last: Double
    public var cpu: Double
    /// PostgreSQL's own CPU in the round (0 on SQLite).
    public var serverCPU: Double
    public var accepted: Int
  }

  public struct Result: Sendable {
    public var rounds: [Round]
    public var registerSeconds: Double
    /// Resident memory after the devices were registered and at the end, MiB.
    public var baselineMiB: Double
    public var peakMiB: Double
  }

  /// A log the benchmark appends its goals to (the event a commit would have stored).
  actor Goals: EventLog {
    var events: [ChangeEvent] = []
    nonisolated let eventBell = EventBell()

    func goal(_ score: Int) {
      var game = Game(
        id: "game:2026-03-07:lacrosse-men:193~457", sport: .lacrosseMen, status: .live, period: 4, periodLabel: "4th",
        clock: "02:11", date: "2026-03-07", away: TeamLine(team: TeamRef(id: "team:193", name: "Duke"), score: score),
        home: TeamLine(team: TeamRef(id: "team:457", name: "North Carolina"), score: 3))
      game.id = "game:2026-03-07:lacrosse-men:193~457"
      var event = ChangeEvent(.goal, game: game)
      event.sequence = Int64(events.count + 1)
      event.id = "evt_\(event.sequence)"
      event.player = "Smith"
      events.append(event)
      eventBell.ring()
    }

    func events(since sequence: Int64, limit: Int) -> [ChangeEvent] {
      Array(events.filter { $0.sequence > sequence }.prefix(limit))
    }
    func lastEventSequence() -> Int64 { events.last?.sequence ?? 0 }
    func cursor(of sink: String) -> Int64 { 0 }
    func setCursor(_ sequence: Int64, of sink: String) {}
    func deadLetters(sink: String?) -> [DeadLetter] { [] }
    func addDeadLetter(_ letter: DeadLetter) {}
    func removeDeadLetter(sink: String, sequence: Int64) {}
  }

  /// An APNs outside the process (`statline bench apns-fake`), its CA and the key it knows.
  public struct External: Sendable {
    public var url: String
    public var caFile: String
    public var keyFile: String
    public var keyId: String
    public var teamId: String

    public init(url: String, caFile: String, keyFile: String, keyId: String, teamId: String) {
      self.url = url
      self.caFile = caFile
      self.keyFile = keyFile
      self.keyId = keyId
      self.teamId = teamId
    }
  }

  /// What every worker's transport accepted, and when the first and last were: the same clock
  /// for an in-process fake and one outside.
  final class Tally: Sendable {
    let counts = Mutex((accepted: 0, first: ContinuousClock.Instant?.none, last: ContinuousClock.Instant?.none))

    func add() {
      let at = ContinuousClock.now
      counts.withLock { counts in
        counts.accepted += 1
        counts.first = counts.first ?? at
        counts.last = at
      }
    }

    var accepted: Int { counts.withLock { $0.accepted } }
    func reset() { counts.withLock { $0 = (0, nil, nil) } }
  }

  /// One worker's APNs transport, counting into the tally.
  final class Timed: PushTransport {
    let inner: APNsTransport
    let tally: Tally
    var kinds: Set<Device.Kind> { inner.kinds }

    init(_ inner: APNsTransport, tally: Tally) {
      self.inner = inner
      self.tally = tally
    }

    func deliver(_ alert: PlannedAlert, to device: Device) async -> PushVerdict {
      let verdict = await inner.deliver(alert, to: device)
      if verdict == .delivered { tally.add() }
      return verdict
    }
  }

  /// Where the devices and the outbox are: a SQLite file (one worker), or a PostgreSQL schema
  /// that every worker opens on its own pool.
  public enum Store: Sendable {
    case sqlite(String)
    case postgres(PostgresLocation)
  }

  /// One worker: its own store connections, provider token, connections to APNs and push
  /// service, as `statline run` has.
  struct Worker {
    let outbox: any DeviceRegistry & PushOutbox
    let connections: APNsConnections
    let service: PushService<ContinuousClock>
    let close: @Sendable () async -> Void
  }

  public static func run(
    devices count: Int, rounds: Int, connections: Int, inFlight: Int, batch: Int, store: Store, workers: Int = 1,
    external: External? = nil
  ) async throws -> Result {
    let registerStart = ContinuousClock.now
    try await register(count, in: store)
    let registerSeconds = seconds(ContinuousClock.now - registerStart)

    let key: APNsSigningKey
    let fake: LoopbackAPNs?
    // Each worker's own connections to the one APNs.
    let pool: () throws -> APNsConnections
    if let external {
      key = try APNsSigningKey(file: external.keyFile, keyId: external.keyId, teamId: external.teamId)
      fake = nil
      pool = {
        try APNsConnections(
          endpoints: .init(production: external.url, sandbox: external.url), perEnvironment: connections,
          trustRootsFile: external.caFile)
      }
    } else {
      key = APNsSigningKey(generatedWithKeyId: "BENCH12345", teamId: "TEAM123456")
      let started = try await LoopbackAPNs.start(
        keys: [key.keyId: (key.teamId, key.publicKeyPEM)], topics: ["com.example.scores"], keepsAccepted: false)
      fake = started
      pool = {
        APNsConnections(
          endpoints: .init(production: started.baseURL, sandbox: started.baseURL), perEnvironment: connections,
          trustRoots: [started.certificates.authority])
      }
    }
    var quiet = Logger(label: "statline.bench.push")
    quiet.logLevel = .critical
    let now: @Sendable () -> Date = { Date() }
    let tally = Tally()
    let goals = Goals()
    var crew: [Worker] = []
    for _ in 0..<max(1, workers) {
      let (outbox, close): (any DeviceRegistry & PushOutbox, @Sendable () async -> Void) =
        switch store {
        case .sqlite(let path): (try SQLiteDeviceRegistry(path: path), {})
        case .postgres(let location):
          try await { () async throws -> (any DeviceRegistry & PushOutbox, @Sendable () async -> Void) in
            let opened = try await PostgresStore.open(location, migrate: false, logger: quiet)
            return (opened, { await opened.close() })
          }()
        }
      let connections = try pool()
      let sender = APNsSender(
        tokens: APNsProviderTokens(key: key, now: now), connections: connections, now: now, logger: quiet)
      var sending = PushDispatcher.Configuration()
      sending.inFlight = max(1, inFlight / PushDispatcher.lanes)
      sending.batch = batch
      let dispatcher = PushDispatcher(
        outbox: outbox, transports: [Timed(APNsTransport(sender: sender), tally: tally)], configuration: sending,
        now: now, logger: quiet)
      let service = PushService(
        log: goals, evaluator: PushEvaluator(log: goals, outbox: outbox, now: now, logger: quiet),
        dispatcher: dispatcher, clock: ContinuousClock(), idle: .milliseconds(5), logger: quiet)
      crew.append(Worker(outbox: outbox, connections: connections, service: service, close: close))
    }
    let running = crew.map { worker in Task { await worker.service.run() } }
    func stop() async {
      for task in running { task.cancel() }
      for task in running { await task.value }
      for worker in crew {
        await worker.connections.shutdown()
        await worker.close()
      }
      await fake?.stop()
    }

    let baseline = CycleBenchmark.residentMiB()
    var peak = baseline
    var results: [Round] = []
    for round in 1...rounds {
      tally.reset()
      let cpu = CycleBenchmark.cpuSeconds()
      let serverCPU = serverSeconds(store)
      let committed = ContinuousClock.now
      await goals.goal(round + 3)
      // A round that stops short says so instead of waiting for ever.
      var seen = (count: 0, at: ContinuousClock.now)
      while tally.accepted < count {
        try await Task.sleep(for: .milliseconds(2))
        peak = max(peak, CycleBenchmark.residentMiB())
        let accepted = tally.accepted
        if accepted != seen.count {
          seen = (accepted, ContinuousClock.now)
        } else if ContinuousClock.now - seen.at > .seconds(30) {
          await stop()
          throw StatlineError(
            .io, "goal \(round): the pushes stopped at \(accepted) of \(count) accepted (nothing for 30 s)",
            hint: "the outbox or the APNs fake is stuck: run with fewer --devices to see where")
        }
      }
      let (accepted, first, last) = tally.counts.withLock { $0 }
      results.append(
        Round(
          first: seconds((first ?? committed) - committed), last: seconds((last ?? committed) - committed),
          cpu: CycleBenchmark.cpuSeconds() - cpu, serverCPU: serverSeconds(store) - serverCPU,
          accepted: accepted))
    }
    await stop()
    return Result(rounds: results, registerSeconds: registerSeconds, baselineMiB: baseline, peakMiB: peak)
  }

  /// The devices, all following the team that scores: through one registry, 16 at a time on
  /// PostgreSQL (each upsert its own transaction, as the device API's).
  static func register(_ count: Int, in store: Store) async throws {
    func device(_ index: Int) -> Device {
      let token = String(format: "%064x", index + 1)
      return Device(
        id: Device.id(kind: .apns, token: token), kind: .apns, token: token, environment: .production,
        topic: "com.example.scores", teams: ["team:193"], alerts: [.score, .final],
        registeredAt: "2026-03-01T00:00:00Z", updatedAt: "2026-03-01T00:00:00Z")
    }
    switch store {
    case .sqlite(let path):
      _ = try SQLiteStore(path: path)
      let registry = try SQLiteDeviceRegistry(path: path)
      for index in 0..<count { _ = try await registry.upsertDevice(device(index)) }
    case .postgres(let location):
      let registry = try await PostgresStore.open(location, maxConnections: 16)
      do {
        try await withThrowingTaskGroup(of: Void.self) { group in
          for lane in 0..<16 {
            group.addTask {
              for index in stride(from: lane, to: count, by: 16) { _ = try await registry.upsertDevice(device(index)) }
            }
          }
          try await group.waitForAll()
        }
      } catch {
        await registry.close()
        throw error
      }
      await registry.close()
    }
  }

  /// PostgreSQL's own CPU so far (0 for SQLite, which runs in this process).
  static func serverSeconds(_ store: Store) -> Double {
    guard case .postgres = store else { return 0 }
    return PostgresCPU.seconds()
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
