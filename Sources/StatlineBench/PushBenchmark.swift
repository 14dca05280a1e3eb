import Foundation
import Logging
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineSQLite
import Synchronization

/// A goal to many phones (`statline bench push`): `devices` devices follow one team in a SQLite
/// store's registry, a goal event is put in the log, and the push path (the evaluator, the
/// store's outbox, the send loop, the APNs sender over HTTP/2 TLS) sends one alert to each,
/// to an in-process loopback APNs that counts what it accepts. Timed from the moment the event
/// is in the log (its commit) to the fake's first and last acceptance, per round.
public enum PushBenchmark {
  public struct Round: Sendable {
    public var first: Double
    public var last: Double
    public var cpu: Double
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

  /// The APNs transport, counting what was accepted and when the first and last were: the
  /// same clock for an in-process fake and one outside.
  final class Timed: PushTransport {
    let inner: APNsTransport
    let counts = Mutex((accepted: 0, first: ContinuousClock.Instant?.none, last: ContinuousClock.Instant?.none))
    var kinds: Set<Device.Kind> { inner.kinds }

    init(_ inner: APNsTransport) { self.inner = inner }

    func deliver(_ alert: PlannedAlert, to device: Device) async -> PushVerdict {
      let verdict = await inner.deliver(alert, to: device)
      if verdict == .delivered {
        let at = ContinuousClock.now
        counts.withLock { counts in
          counts.accepted += 1
          counts.first = counts.first ?? at
          counts.last = at
        }
      }
      return verdict
    }

    func reset() { counts.withLock { $0 = (0, nil, nil) } }
  }

  public static func run(
    devices count: Int, rounds: Int, connections: Int, inFlight: Int, batch: Int, storePath: String,
    external: External? = nil
  ) async throws -> Result {
    _ = try SQLiteStore(path: storePath)
    let registry = try SQLiteDeviceRegistry(path: storePath)
    let registerStart = ContinuousClock.now
    for index in 0..<count {
      let token = String(format: "%064x", index + 1)
      _ = try await registry.upsertDevice(
        Device(
          id: Device.id(kind: .apns, token: token), kind: .apns, token: token, environment: .production,
          topic: "com.example.scores", teams: ["team:193"], alerts: [.score, .final],
          registeredAt: "2026-03-01T00:00:00Z", updatedAt: "2026-03-01T00:00:00Z"))
    }
    let registerSeconds = seconds(ContinuousClock.now - registerStart)

    let key: APNsSigningKey
    let fake: LoopbackAPNs?
    let connectionPool: APNsConnections
    if let external {
      key = try APNsSigningKey(file: external.keyFile, keyId: external.keyId, teamId: external.teamId)
      fake = nil
      connectionPool = try APNsConnections(
        endpoints: .init(production: external.url, sandbox: external.url), perEnvironment: connections,
        trustRootsFile: external.caFile)
    } else {
      key = APNsSigningKey(generatedWithKeyId: "BENCH12345", teamId: "TEAM123456")
      let started = try await LoopbackAPNs.start(
        keys: [key.keyId: (key.teamId, key.publicKeyPEM)], topics: ["com.example.scores"], keepsAccepted: false)
      fake = started
      connectionPool = APNsConnections(
        endpoints: .init(production: started.baseURL, sandbox: started.baseURL), perEnvironment: connections,
        trustRoots: [started.certificates.authority])
    }
    var quiet = Logger(label: "statline.bench.push")
    quiet.logLevel = .critical
    let now: @Sendable () -> Date = { Date() }
    let sender = APNsSender(
      tokens: APNsProviderTokens(key: key, now: now), connections: connectionPool, now: now, logger: quiet)
    let transport = Timed(APNsTransport(sender: sender))
    var sending = PushDispatcher.Configuration()
    sending.inFlight = max(1, inFlight / PushDispatcher.lanes)
    sending.batch = batch
    let dispatcher = PushDispatcher(
      outbox: registry, transports: [transport], configuration: sending, now: now, logger: quiet)
    let goals = Goals()
    let service = PushService(
      log: goals, evaluator: PushEvaluator(log: goals, outbox: registry, now: now, logger: quiet),
      dispatcher: dispatcher, clock: ContinuousClock(), idle: .milliseconds(5), logger: quiet)
    let running = Task { await service.run() }
    defer { running.cancel() }

    let baseline = CycleBenchmark.residentMiB()
    var peak = baseline
    var results: [Round] = []
    for round in 1...rounds {
      transport.reset()
      let cpu = CycleBenchmark.cpuSeconds()
      let committed = ContinuousClock.now
      await goals.goal(round + 3)
      // A round that stops short says so instead of waiting for ever.
      var seen = (count: 0, at: ContinuousClock.now)
      while transport.counts.withLock({ $0.accepted }) < count {
        try await Task.sleep(for: .milliseconds(2))
        peak = max(peak, CycleBenchmark.residentMiB())
        let accepted = transport.counts.withLock { $0.accepted }
        if accepted != seen.count {
          seen = (accepted, ContinuousClock.now)
        } else if ContinuousClock.now - seen.at > .seconds(30) {
          running.cancel()
          await running.value
          await connectionPool.shutdown()
          await fake?.stop()
          throw StatlineError(
            .io, "goal \(round): the pushes stopped at \(accepted) of \(count) accepted (nothing for 30 s)",
            hint: "the outbox or the APNs fake is stuck: run with fewer --devices to see where")
        }
      }
      let (accepted, first, last) = transport.counts.withLock { $0 }
      results.append(
        Round(
          first: seconds((first ?? committed) - committed), last: seconds((last ?? committed) - committed),
          cpu: CycleBenchmark.cpuSeconds() - cpu, accepted: accepted))
    }
    running.cancel()
    await running.value
    await connectionPool.shutdown()
    await fake?.stop()
    return Result(rounds: results, registerSeconds: registerSeconds, baselineMiB: baseline, peakMiB: peak)
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
