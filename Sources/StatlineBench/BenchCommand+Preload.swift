import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore

extension BenchCommand {
  /// `statline bench preload`: a day's box scores preloaded by many phones, one request per
  /// game against one batch (issue 54).
  struct Preload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "A day's box scores preloaded by many phones at once: one request per game against one GET /v1/boxscores, "
        + "time to the last box score, bytes on the wire and the server's CPU per preload.")

    @Option(help: "Games of the day, each live or final with a box score of 2 × 24 players.")
    var games: Int = 50

    @Option(help: "Phones preloading at once.")
    var clients: Int = 64

    @Option(help: "Seconds each way is measured, after a warm-up.")
    var seconds: Double = 10

    @Option(help: "Seconds of warm-up before each measurement.")
    var warmUp: Double = 2

    func run() async throws {
      guard (1...1000).contains(games), (1...1000).contains(clients), seconds > 0, warmUp >= 0 else {
        throw fail(
          StatlineError(
            .configuration, "--games and --clients must be 1 to 1000, --seconds positive, --warm-up 0 or more"))
      }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-preload-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let result = try await PreloadBenchmark(
        games: games, clients: clients, warmUp: .milliseconds(Int64(warmUp * 1000)),
        duration: .milliseconds(Int64(seconds * 1000)), folder: folder
      ).run { Console.error($0) }
      Console.out(
        "\(result.games) games, \(clients) phones, gzip; a preload = every box score of the day (served from memory)")
      func column(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
      }
      Console.out(
        "way   " + column("requests", 9) + column("preloads/s", 11) + column("p50 ms", 9) + column("p99 ms", 9)
          + column("bytes/preload", 15) + column("server CPU/preload", 20))
      for line in result.lines {
        Console.out(
          line.mode.padding(toLength: 6, withPad: " ", startingAt: 0) + column(String(line.requestsPerPreload), 9)
            + column(String(format: "%.1f", line.preloadsPerSecond), 11)
            + column(String(format: "%.1f", 1000 * line.p50), 9)
            + column(String(format: "%.1f", 1000 * line.p99), 9)
            + column(String(format: "%.0f", line.bytesPerPreload), 15)
            + column(String(format: "%.3f ms", 1000 * line.cpuPerPreload), 20))
      }
      if let single = result.lines.first(where: { $0.mode == "single" }),
        let batch = result.lines.first(where: { $0.mode == "batch" })
      {
        Console.out(
          String(
            format:
              "the batch costs the server %.1f× less CPU per preload (goal ≥ 10×), p99 %.1f ms to the last box score "
              + "(goal < 50 ms), %.1f× fewer bytes",
            single.cpuPerPreload / batch.cpuPerPreload, 1000 * batch.p99, single.bytesPerPreload / batch.bytesPerPreload
          ))
      }
      Console.out(
        String(
          format: "computed from the store after it moved (median of %d): the batch %.1f ms, %d single answers %.1f ms",
          PreloadBenchmark.coldRuns, 1000 * result.coldBatch, result.games, 1000 * result.coldSingles))
    }
  }

  /// The phones of `bench preload`, run as its child so the server's CPU is counted alone.
  struct PreloadClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "preload-client",
      abstract: "The phones of `bench preload`: preload a day's box scores from a read API, then print a JSON report.",
      shouldDisplay: false)

    @Option(help: "The read API's base URL.")
    var base: String

    @Option(help: "The day, YYYY-MM-DD.")
    var date: String

    @Option(help: "single (one request per game) or batch (one GET /v1/boxscores).")
    var mode: String

    @Option var clients: Int = 64
    @Option var warmUp: Double = 2
    @Option var seconds: Double = 10

    func run() async throws {
      guard let mode = PreloadClient.Mode(rawValue: mode) else {
        throw fail(StatlineError(.configuration, "--mode is single or batch, not '\(mode)'"))
      }
      let report = try await PreloadClient(
        base: base, date: date, mode: mode, clients: clients, warmUp: .milliseconds(Int64(warmUp * 1000)),
        duration: .milliseconds(Int64(seconds * 1000))
      ).run {
        // Unbuffered (print's output to a pipe waits): the parent starts counting on this line.
        FileHandle.standardOutput.write(Data((PreloadClient.measuringLine + "\n").utf8))
      }
      FileHandle.standardOutput.write(try JSONEncoder().encode(report) + Data("\n".utf8))
    }
  }
}
