import Foundation
import StatlineCore
import StatlineSQLite

/// The read API in this process over a store, and a child process (`statline bench poll`)
/// asking it for the scoreboard at a steady rate: `bench cycle --api-rate` measures what serving
/// costs the job beside it. The scoreboard asked for is the day the store's games are on.
struct APIPoller {
  let api: InProcessAPI
  let client: Process

  static func start(storePath: String, rate: Double, progress: @Sendable (String) -> Void) async throws -> APIPoller {
    let reader = try SQLiteStore(readOnlyPath: storePath)
    let date = try await reader.games(sport: nil, date: nil).first?.date ?? "2026-03-07"
    let api = try await InProcessAPI.start(storePath: storePath)
    let url = "\(api.base)/v1/scoreboard?date=\(date)"
    let client = Process()
    client.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    client.arguments = ["bench", "poll", url, "--rate", String(rate)]
    try client.run()
    progress("read API in this process; a child polls \(url) \(rate) times a second")
    return APIPoller(api: api, client: client)
  }

  func stop() {
    client.terminate()
    api.stop()
  }
}
