import Foundation
import StatlineApp
import StatlineCore
import StatlineSQLite
import StatlineServer

/// What a day's preload costs (issue 54): `clients` phones each fetching the box scores of a
/// `games`-game day again and again, once as one request per game and once as one
/// `GET /v1/boxscores?date=`, against the read API in this process (as `statline serve` runs
/// it). The phones run in a child process (`bench preload-client`), so this process's CPU is
/// the server's alone. Beside it, what computing each answer from the store costs the first
/// time (a store that just moved).
public struct PreloadBenchmark: Sendable {
  public var games: Int
  public var clients: Int
  public var warmUp: Duration
  public var duration: Duration
  public var folder: URL

  public init(games: Int, clients: Int, warmUp: Duration, duration: Duration, folder: URL) {
    self.games = games
    self.clients = clients
    self.warmUp = warmUp
    self.duration = duration
    self.folder = folder
  }

  public struct Line: Sendable {
    public var mode: String
    public var requestsPerPreload: Int
    public var preloads: Int
    public var preloadsPerSecond: Double
    /// Seconds from a preload's first request to its last box score.
    public var p50: Double
    public var p99: Double
    public var bytesPerPreload: Double
    /// The server's CPU seconds per preload.
    public var cpuPerPreload: Double
  }

  public struct Result: Sendable {
    public var lines: [Line]
    /// Seconds to compute the day's answer(s) from the store, the median of `coldRuns`: the batch,
    /// and the games' box scores one by one.
    public var coldBatch: Double
    public var coldSingles: Double
    public var games: Int
  }

  static let coldRuns = 21

  public func run(progress: @Sendable (String) -> Void) async throws -> Result {
    let storePath = folder.appendingPathComponent("preload.sqlite").path
    _ = try await APIBenchmarkDay.write(games: games, to: storePath)
    let (coldBatch, coldSingles) = try await cold(storePath: storePath)
    let api = try await InProcessAPI.start(storePath: storePath)
    defer { api.stop() }
    var lines: [Line] = []
    for mode in PreloadClient.Mode.allCases {
      progress("\(clients) phones preloading the day's box scores, \(mode.rawValue) requests, for \(duration)")
      lines.append(try await measure(mode, base: api.base))
    }
    return Result(lines: lines, coldBatch: coldBatch, coldSingles: coldSingles, games: games)
  }

  /// One mode: the child's phones, and this process's CPU while they were measured.
  func measure(_ mode: PreloadClient.Mode, base: String) async throws -> Line {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    child.arguments = [
      "bench", "preload-client", "--base", base, "--date", APIBenchmarkDay.date, "--mode", mode.rawValue,
      "--clients", String(clients), "--warm-up", String(Self.seconds(warmUp)), "--seconds",
      String(Self.seconds(duration)),
    ]
    let pipe = Pipe()
    child.standardOutput = pipe
    do {
      try child.run()
    } catch {
      throw StatlineError(.io, "cannot start the preload client: \(error.localizedDescription)")
    }
    var start: Double?
    var report: PreloadClient.Report?
    var end = 0.0
    for await line in Self.lines(of: pipe.fileHandleForReading) {
      if line == PreloadClient.measuringLine {
        start = Self.processCPU()
      } else if let data = line.data(using: .utf8),
        let decoded = try? JSONDecoder().decode(PreloadClient.Report.self, from: data)
      {
        end = Self.processCPU()
        report = decoded
      }
    }
    child.waitUntilExit()
    guard let start, let report, child.terminationStatus == 0, report.preloads > 0 else {
      throw StatlineError(
        .io, "the preload client (\(mode.rawValue)) failed (exit \(child.terminationStatus))",
        hint: "run `statline bench preload-client` by hand against `statline serve`")
    }
    func percentile(_ p: Double) -> Double {
      report.seconds[min(report.seconds.count - 1, Int(Double(report.seconds.count) * p))]
    }
    return Line(
      mode: mode.rawValue, requestsPerPreload: report.requestsPerPreload, preloads: report.preloads,
      preloadsPerSecond: Double(report.preloads) / Self.seconds(duration), p50: percentile(0.5), p99: percentile(0.99),
      bytesPerPreload: report.bytesPerPreload, cpuPerPreload: (end - start) / Double(report.preloads))
  }

  /// The first computation of the day's answers, as after the store moved: a fresh API (nothing
  /// in memory) answering the batch, and one answering each game's box score.
  func cold(storePath: String) async throws -> (batch: Double, singles: Double) {
    let reader = try SQLiteStore(readOnlyPath: storePath)
    let registry = try BuiltinPlugins.teamRegistry()
    let ids = try await reader.games(sport: nil, date: APIBenchmarkDay.date).filter { $0.status != .scheduled }.map(
      \.id)
    var batch: [Double] = []
    var singles: [Double] = []
    for _ in 0..<Self.coldRuns {
      let fresh = ReadAPI(reader: reader, registry: registry)
      let began = ContinuousClock.now
      let answer = await fresh.respond(
        APIRequest(
          method: "GET", path: "/v1/boxscores", query: "date=\(APIBenchmarkDay.date)",
          headers: ["accept-encoding": "gzip"]))
      batch.append(Self.seconds(ContinuousClock.now - began))
      guard answer.status == 200 else { throw StatlineError(.io, "the batch answered \(answer.status)") }
      let each = ReadAPI(reader: reader, registry: registry)
      let started = ContinuousClock.now
      for id in ids {
        let single = await each.respond(
          APIRequest(method: "GET", path: "/v1/games/\(id)/boxscore", headers: ["accept-encoding": "gzip"]))
        guard single.status == 200 else { throw StatlineError(.io, "\(id)'s box score answered \(single.status)") }
      }
      singles.append(Self.seconds(ContinuousClock.now - started))
    }
    return (batch.sorted()[Self.coldRuns / 2], singles.sorted()[Self.coldRuns / 2])
  }

  /// The lines a child writes, as they come, until it closes its output.
  static func lines(of handle: FileHandle) -> AsyncStream<String> {
    AsyncStream { continuation in
      Thread.detachNewThread {
        var pending = Data()
        while true {
          let chunk = handle.availableData
          if chunk.isEmpty { break }
          pending.append(chunk)
          while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
            continuation.yield(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
            pending = Data(pending[pending.index(after: newline)...])
          }
        }
        continuation.finish()
      }
    }
  }

  /// This process's CPU time (user and system), in seconds.
  static func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
