import Foundation
import Logging
import StatlineApp
import StatlineCore
import StatlineSQLite
import StatlineServer

/// The read API in this process over a store, and a child process (`statline bench poll`)
/// asking it for the scoreboard at a steady rate: `bench cycle --api-rate` measures what serving
/// costs the job beside it. The scoreboard asked for is the day the store's games are on.
struct APIPoller {
  let server: Task<Void, any Error>
  let client: Process

  static func start(storePath: String, rate: Double, progress: @Sendable (String) -> Void) async throws -> APIPoller {
    let reader = try SQLiteStore(readOnlyPath: storePath)
    let date = try await reader.games(sport: nil, date: nil).first?.date ?? "2026-03-07"
    var logger = Logger(label: "statline.bench.api")
    logger.logLevel = .error
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let api = ReadAPI(
      reader: reader, configuration: .served, metrics: ServerMetrics(), registry: try BuiltinPlugins.teamRegistry())
    let app = APIServer(api: api).application(
      host: "127.0.0.1", port: 0, logger: logger
    ) { port in continuation.yield(port) }
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw StatlineError(.io, "the benchmark's read API did not start") }
    let url = "http://127.0.0.1:\(port)/v1/scoreboard?date=\(date)"
    let client = Process()
    client.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    client.arguments = ["bench", "poll", url, "--rate", String(rate)]
    try client.run()
    progress("read API in this process; a child polls \(url) \(rate) times a second")
    return APIPoller(server: server, client: client)
  }

  func stop() {
    client.terminate()
    server.cancel()
  }
}
