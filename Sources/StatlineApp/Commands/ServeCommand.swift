import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import StatlineCLI
import StatlineCanonical
import StatlineCore
import StatlineServer

/// `statline serve`: the read API over a store another process (the job) writes.
public struct ServeCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "serve",
    abstract: "Serve the read API (scoreboard, games, box scores, plays, delta sync, events) over a store.",
    discussion: """
      Opens the store read-only: nothing a client sends can write it. A SQLite file is read beside \
      `statline run` (WAL); a postgres:// URL is read through connections the server itself keeps \
      read-only. /metrics has the API's series and the store's gauges; the job's own \
      counters are served by `statline run --serve`. Stops cleanly on SIGINT/SIGTERM (requests in \
      flight finish, event streams end).
      """)

  @Option(
    name: .long,
    help: ArgumentHelp("The store the job writes: a SQLite file or a postgres:// URL.", valueName: "path|url"))
  var store = "statline.sqlite"

  @Option(name: .long, help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(name: .long, help: "The port (0: any free one).")
  var port = 8080

  @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
  var logLevel: String = "info"

  @Option(
    name: .long,
    help: ArgumentHelp(
      "/readyz answers 503 when no target has been polled successfully this many seconds (0: never; the store answering is enough).",
      valueName: "seconds"))
  var readyWithin: Int = 7200

  @Option(
    name: .long,
    help: ArgumentHelp(
      "At most this many connections at once; more are closed on accept (default: 4096, or fewer where the file-descriptor limit is lower).",
      valueName: "count"))
  var maxConnections: Int?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "At most this many event streams replaying the past (more than 500 events behind) at once; one more is a 503 with Retry-After.",
      valueName: "count"))
  var maxReplays: Int = 16

  @Option(
    name: .long,
    help: ArgumentHelp(
      "A sport's primary poll, whose ranks a game's team lines show when the game's page prints none (repeat per sport).",
      valueName: "sport=poll"))
  var primaryPoll: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The hash of an API key that may write devices (/v1/devices), as `statline devices hash-key` prints it (repeat to rotate keys; none: the device routes are not served).",
      valueName: "sha256:hex"))
  var deviceKeyHash: [String] = []

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Read requests a second per client address (default: no limit); past it, a 429 with Retry-After.",
      valueName: "rate"))
  var readRate: Double?

  @Option(
    name: .long, help: ArgumentHelp("The read rate's burst (default: twice the rate, at least 10).", valueName: "count")
  )
  var readBurst: Double?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Requests being answered at once per client address, reads and writes (default: no cap); one more is a 429.",
      valueName: "count"))
  var maxConcurrentPerClient: Int?

  @Option(
    name: .long,
    help: ArgumentHelp("Device requests (/v1/devices) a second per client address (default: 2).", valueName: "rate"))
  var writeRate: Double?

  @Option(name: .long, help: ArgumentHelp("The device requests' burst (default: 30).", valueName: "count"))
  var writeBurst: Double?

  /// `lacrosse-men=ncaa:com-lacrosse-men-d1-inside-lacrosse`, each sport once.
  static func primaryPolls(_ options: [String]) throws(StatlineError) -> [Sport: String] {
    var polls: [Sport: String] = [:]
    for option in options {
      let parts = option.split(separator: "=", maxSplits: 1).map(String.init)
      guard parts.count == 2, Sport(parts[0]).profile != nil, parts[1].contains(":"), polls[Sport(parts[0])] == nil
      else {
        throw StatlineError(
          .configuration, "--primary-poll '\(option)' is not a known sport and a poll id, or names a sport twice",
          hint:
            "for example --primary-poll lacrosse-men=ncaa:com-lacrosse-men-d1-inside-lacrosse (GET /v1/rankings/polls lists the polls)"
        )
      }
      polls[Sport(parts[0])] = parts[1]
    }
    return polls
  }

  public func run() async throws {
    guard let level = Logger.Level(rawValue: logLevel) else {
      throw fail(StatlineError(.configuration, "unknown log level '\(logLevel)'", hint: "use debug, info or warning"))
    }
    guard (0...65_535).contains(port) else {
      throw fail(
        StatlineError(.configuration, "--port \(port) is not a port", hint: "use 1 to 65535, or 0 for any free one"))
    }
    let polls: [Sport: String]
    do {
      polls = try Self.primaryPolls(primaryPoll)
    } catch {
      throw fail(error)
    }
    var limits = ConnectionLimits.fittingThisProcess()
    if let maxConnections {
      guard maxConnections >= 1 else {
        throw fail(
          StatlineError(.configuration, "--max-connections \(maxConnections) is below 1", hint: "for example 1000"))
      }
      limits.maximumConnections = maxConnections
    }
    guard (1...10_000).contains(maxReplays) else {
      throw fail(
        StatlineError(
          .configuration, "--max-replays \(maxReplays) is outside 1 to 10,000", hint: "for example 16 (the default)"))
    }
    limits.maximumReplays = maxReplays
    var deviceLimits = DeviceRoutes.Limits()
    do {
      limits.clients = try ClientLimits(
        readRate: readRate, readBurst: readBurst, concurrentRequests: maxConcurrentPerClient,
        names: ("--read-rate", "--read-burst", "--max-concurrent-per-client"))
      try deviceLimits.setAddress(rate: writeRate, burst: writeBurst, names: ("--write-rate", "--write-burst"))
    } catch {
      throw fail(error)
    }
    let logger = LogSetup.make(level: level)
    let opened: OpenStore
    do {
      opened = try await StoreLocation(store).openReader(logger: logger)
    } catch {
      throw fail(error)
    }
    let reader = opened.store
    let host = host
    var configuration = ReadAPI.Configuration.served(primaryPolls: polls, seasons: BuiltinPlugins.facts.seasons)
    configuration.readyWithin = readyWithin > 0 ? .seconds(readyWithin) : nil
    if let location = try? StoreLocation(store) {
      configuration.push = await DeviceService.pushStatus(store: location, reader: reader, logger: logger)
    }
    let registry: TeamRegistry
    do { registry = try BuiltinPlugins.teamRegistry() } catch { throw fail(error) }
    let api = ReadAPI(reader: reader, configuration: configuration, metrics: ServerMetrics(), registry: registry)
    let devices: DeviceService?
    do {
      devices = try await DeviceService.open(
        store: StoreLocation(store), hashes: deviceKeyHash, teams: registry, limits: deviceLimits, logger: logger)
    } catch {
      await opened.close()
      throw fail(error)
    }
    let app = APIServer(api: api, limits: limits, groups: devices.map { [$0.routes] } ?? []).application(
      host: host, port: port, logger: logger
    ) { port in
      logger.info("statline serve listening", metadata: ["scoreboard": "http://\(host):\(port)/v1/scoreboard"])
    }
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    defer {
      Task {
        await devices?.close()
        await opened.close()
      }
    }
    try await group.run()
  }
}

/// `HOST:PORT` of `--serve`.
enum ServeAddress {
  static func parse(_ text: String) throws(StatlineError) -> (host: String, port: Int) {
    guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
      (0...65_535).contains(port), colon != text.startIndex
    else {
      throw StatlineError(.configuration, "--serve '\(text)' is not HOST:PORT", hint: "for example 127.0.0.1:8080")
    }
    return (String(text[..<colon]), port)
  }
}
