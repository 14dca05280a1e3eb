import Foundation
import Logging
import StatlineApp
import StatlineCore
import StatlineSQLite
import StatlineServer

/// The read API in this process over a SQLite store, as `statline serve` runs it (the stamp
/// trusted for 250 ms, answers served from memory), on a free loopback port: a benchmark counts
/// its CPU apart from a client in a child process.
struct InProcessAPI {
  let server: Task<Void, any Error>
  let port: Int

  static func start(storePath: String) async throws -> InProcessAPI {
    let reader = try SQLiteStore(readOnlyPath: storePath)
    var logger = Logger(label: "statline.bench.api")
    // Its "already closed" as the benchmark stops it is noise.
    logger.logLevel = .critical
    let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
    let api = ReadAPI(
      reader: reader, configuration: .served, metrics: ServerMetrics(), registry: try BuiltinPlugins.teamRegistry())
    let app = APIServer(api: api).application(host: "127.0.0.1", port: 0, logger: logger) { port in
      continuation.yield(port)
    }
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    var iterator = ports.makeAsyncIterator()
    guard let port = await iterator.next() else { throw StatlineError(.io, "the benchmark's read API did not start") }
    return InProcessAPI(server: server, port: port)
  }

  var base: String { "http://127.0.0.1:\(port)" }

  func stop() { server.cancel() }
}
