import Foundation
import StatlineCore
import StatlineEngine
import StatlineSQLite

/// Store writes per second: batches of one live game, its box score and its plays (rendered as
/// the demo renders them, then parsed), each with a changed score, into a fresh SQLite file.
public struct StoreBenchmark: Sendable {
  public var batches: Int
  public var path: String

  public init(batches: Int, path: String) {
    self.batches = batches
    self.path = path
  }

  public struct Result: Sendable {
    public var batches: Int
    public var records: Int
    public var written: Int
    public var seconds: Double
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
    let store = try SQLiteStore(path: path)
    let clock = ContinuousClock()
    let start = clock.now
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
    return Result(
      batches: batches, records: records, written: written,
      seconds: JobClock<ContinuousClock>.seconds(start.duration(to: clock.now)))
  }
}
