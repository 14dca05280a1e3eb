import Foundation
import StatlineApp
import StatlineCore
import StatlineDemo
import StatlineEngine

/// Store writes per second: batches of one live game, its box score and its plays (rendered as
/// the demo renders them, then parsed), each with a changed score, into a fresh store (a SQLite
/// file or a PostgreSQL schema).
public struct StoreBenchmark: Sendable {
  public var batches: Int
  public var location: StoreLocation

  public init(batches: Int, location: StoreLocation) {
    self.batches = batches
    self.location = location
  }

  public struct Result: Sendable {
    public var batches: Int
    public var records: Int
    public var written: Int
    public var seconds: Double
    /// CPU seconds of this process, and of PostgreSQL's processes (0 on SQLite).
    public var cpu: Double
    public var serverCPU: Double
  }

  public func run() async throws -> Result {
    let registry = try BuiltinPlugins.registry()
    guard let entry = registry.parser(id: "statbroadcast-game-xml") else {
      throw StatlineError(.noParser, "the StatBroadcast game parser is not built in")
    }
    // Every moment of a game is a different batch: the score, clock, box score and plays move.
    let game = DemoGameDay().games[0]
    var pages: [Batch] = []
    for second in stride(from: 60, to: 3600, by: 60) {
      let moment = game.moment(at: second)
      guard case .inPeriod = moment else { continue }
      let xml = StatCrewWriter.xml(game, at: moment, date: DemoGameDay.date)
      pages.append(
        try PagePipeline.run(
          Page(url: "https://archive.statbroadcast.com/640301.xml", body: Data(xml.utf8)), with: entry))
    }
    let opened = try await location.open()
    let store = opened.store
    let clock = ContinuousClock()
    let start = clock.now
    let (cpuStart, serverStart) = (CycleBenchmark.cpuSeconds(), PostgresCPU.seconds())
    var records = 0
    var written = 0
    for index in 0..<batches {
      var batch = pages[index % pages.count]
      // A new game id every round through the moments, so each write is a real change.
      let round = index / pages.count
      batch.games[0].id = "statbroadcast:\(800_000 + round)"
      batch.boxScores[0].gameId = batch.games[0].id
      for play in batch.plays.indices { batch.plays[play].gameId = batch.games[0].id }
      let write = try await store.write(batch)
      records += write.written + write.unchanged
      written += write.written
    }
    let seconds = JobClock<ContinuousClock>.seconds(start.duration(to: clock.now))
    let (cpu, server) = (CycleBenchmark.cpuSeconds() - cpuStart, PostgresCPU.seconds() - serverStart)
    await opened.close()
    return Result(
      batches: batches, records: records, written: written, seconds: seconds, cpu: cpu,
      serverCPU: location.isPostgres ? server : 0)
  }
}
