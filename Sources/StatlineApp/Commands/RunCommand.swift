import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import StatlineCLI
import StatlineCanonical
import StatlineCore
import StatlineEngine
import StatlineServer

/// Options of the commands that run the job from a configuration file.
struct JobOptions: ParsableArguments {
  @Option(name: .long, help: ArgumentHelp("The job configuration (YAML).", valueName: "file"))
  var config = "statline.yml"

  @Option(
    name: .long, help: ArgumentHelp("The SQLite store; overrides `store:` in the configuration.", valueName: "path"))
  var store: String?

  func load() throws(StatlineError) -> JobConfig { try JobConfigReader.load(file: config) }
}

/// `statline run`: the scheduled scrape job as a service.
public struct RunCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run the scrape job until SIGINT or SIGTERM (polls due targets, stores what changed).",
    discussion: """
      Stops cleanly on SIGINT/SIGTERM: polls in flight are cancelled, and every stored page was \
      written in one transaction, so nothing is half-written. A restart resumes the schedule \
      from the store. Logs go to stderr; a one-line summary every `summaryEvery` (60 s).
      """)

  @OptionGroup var job: JobOptions

  @Option(
    name: .long,
    help: ArgumentHelp(
      "This worker's id when the store is a postgres:// URL shared by several workers (default: host-pid-random).",
      valueName: "id"))
  var workerId: String?

  @Option(name: .long, help: "Log level: trace, debug, info, notice, warning, error, critical.")
  var logLevel: String = "info"

  @Option(
    name: .long,
    help: ArgumentHelp("Also serve the read API in this process, at HOST:PORT (127.0.0.1:8080).", valueName: "addr"))
  var serve: String?

  public func run() async throws {
    guard let level = Logger.Level(rawValue: logLevel) else {
      throw fail(StatlineError(.configuration, "unknown log level '\(logLevel)'", hint: "use debug, info or warning"))
    }
    let logger = LogSetup.make(level: level)
    let config: JobConfig
    let runtime: JobRuntime<ContinuousClock>
    // With --serve, the job's counters go to the API's /metrics.
    let metrics = serve == nil ? nil : ServerMetrics()
    do {
      config = try job.load()
      let log = JobLog(logger: logger)
      let jobMetrics = metrics.map { JobMetrics(factory: $0.factory) }
      runtime = try await JobRuntime(
        config: config, storePath: job.store, workerId: workerId, clock: ContinuousClock(),
        report: { event in
          log.record(event)
          jobMetrics?.record(event)
        },
        pushReport: { batch in
          log.record(batch)
          jobMetrics?.record(batch)
        })
    } catch {
      throw fail(error)
    }
    logger.info(
      "statline run started",
      metadata: [
        "store": "\((try? StoreLocation(job.store ?? config.store))?.description ?? "?")",
        "targets": "\(runtime.targets.count)",
      ])
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
      .init(service: ScrapeService(runtime: runtime, logger: logger))
    ]
    if let serve {
      do {
        let (host, port) = try ServeAddress.parse(serve)
        // Its own read-only connection: the API never writes, and WAL lets it read beside the job.
        let reader = try await StoreLocation(job.store ?? config.store).openReader(logger: logger).store
        let teams = try BuiltinPlugins.teamRegistry(aliases: config.teamAliases)
        let devices = try await DeviceService.open(
          store: StoreLocation(job.store ?? config.store), hashes: config.deviceKeyHashes, teams: teams,
          limits: config.deviceLimits, logger: logger)
        var limits = ConnectionLimits.fittingThisProcess()
        limits.clients = config.clientLimits
        var configuration = ReadAPI.Configuration.served(
          primaryPolls: config.primaryPolls, seasons: BuiltinPlugins.facts.seasons)
        configuration.commitHealth = runtime.scheduler.commitHealth
        configuration.push =
          if let push = runtime.push { push.outbox } else {
            await DeviceService.pushStatus(
              store: try StoreLocation(job.store ?? config.store), reader: reader, logger: logger)
          }
        services.append(
          .init(
            service: APIServer(
              api: ReadAPI(
                reader: reader,
                configuration: configuration,
                metrics: metrics,
                registry: teams),
              bell: runtime.store.eventBell, limits: limits, groups: devices.map { [$0.routes] } ?? []
            ).application(
              host: host, port: port, logger: logger
            ) {
              port in
              logger.info("the read API is up", metadata: ["scoreboard": "http://\(host):\(port)/v1/scoreboard"])
            }))
      } catch {
        await runtime.shutdown()
        throw fail(error)
      }
    }
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
    do {
      try await group.run()
    } catch {
      await runtime.shutdown()
      logger.error("the job stopped on an error", metadata: ["error": "\(error)"])
      throw ExitCode(ExitStatus.dataError)
    }
    await runtime.shutdown()
    logger.info("statline run stopped", metadata: ["fetches": "\(runtime.scheduler.totals.fetches)"])
  }
}

/// The scheduler as a swift-service-lifecycle service: a graceful shutdown cancels the loop.
struct ScrapeService: Service {
  let runtime: JobRuntime<ContinuousClock>
  let logger: Logger

  func run() async throws {
    let runtime = runtime
    try await cancelWhenGracefulShutdown {
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await runtime.scheduler.run(configured: runtime.targets) }
        if let push = runtime.push {
          // Beside the scheduler too: the evaluator reads events from its own cursor.
          group.addTask { await push.service.run() }
        }
        if let logos = runtime.logos {
          // Beside the polls too: a logo that cannot be fetched never fails one.
          let logger = logger
          group.addTask {
            try await logos.run { error in
              logger.warning("the logo keeper's pass failed; it tries again", metadata: ["error": "\(error)"])
            }
          }
        }
        if !runtime.delivery.sinks.isEmpty {
          // Beside the scheduler, from the store: a slow or dead sink never delays a poll.
          group.addTask { try await runtime.delivery.run() }
        }
        group.addTask {
          // Prune old captures every hour.
          while !Task.isCancelled {
            _ = try? await runtime.pruneCaptures()
            try? await Task.sleep(for: .seconds(3600))
          }
        }
        try await group.next()
        group.cancelAll()
      }
    }
  }
}

/// The process-wide log handler: stderr, bootstrapped once.
enum LogSetup {
  private static let bootstrap: Void = LoggingSystem.bootstrap(StreamLogHandler.standardError)

  static func make(level: Logger.Level) -> Logger {
    _ = bootstrap
    var logger = Logger(label: "statline")
    logger.logLevel = level
    return logger
  }
}
