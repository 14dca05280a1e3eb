import ArgumentParser
import Foundation
import StatlineApp
import StatlineCLI
import StatlineCore

extension BenchCommand {
  /// `statline bench latency`: what the app feels, from a goal on the site to its push.
  struct Latency: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Goal → webhook and goal → SSE latency, p50 and p99: games on a loopback site, each from two sources, "
        + "scoring at known times, through the whole job with a webhook sink and the read API's event stream.")

    @Option(help: "Live targets (two per game: a StatCrew XML file and an ncaa.com game centre).")
    var targets: Int = 1000

    @Option(help: "The live cadence, in seconds.")
    var cadence: Double = 30

    @Option(help: "Seconds between two goals of one game (the games' goals are spread across it).")
    var goalEvery: Double = 60

    @Option(help: "Goals each game scores.")
    var goals: Int = 3

    @Option(
      help:
        "Devices following the games' teams (half iPhones on a loopback APNs, half Android on a loopback FCM), each goal pushed to its followers; 0: no push."
    )
    var devices: Int = 10_000

    func run() async throws {
      guard targets >= 2, cadence > 0, goalEvery > 0, (1...40).contains(goals), devices >= 0 else {
        throw fail(
          StatlineError(
            .configuration,
            "--targets must be 2 or more, --cadence and --goal-every positive, --goals 1 to 40, --devices 0 or more"))
      }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-latency-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let benchmark = LatencyBenchmark(
        targets: targets, cadence: .milliseconds(Int64(cadence * 1000)), goalEvery: goalEvery, goals: goals,
        storePath: folder.appendingPathComponent("latency.sqlite").path, devices: devices)
      let result = try await benchmark.run { Console.error($0) }
      Console.out(
        "\(result.games) games × 2 sources, cadence \(cadence) s: \(result.goals) goals scored, each one event")
      for (name, arrivals, missing) in [
        ("webhook", result.webhook, result.missingWebhook), ("SSE", result.stream, result.missingStream),
      ] {
        Console.out(
          String(
            format:
              "%@: %d arrived (%d missing, %d repeated); goal → arrival p50 %.2f s, p99 %.2f s; "
              + "first served → arrival (what Statline adds) p50 %.0f ms, p99 %.0f ms, max %.0f ms (goal p99 ≤ 100 ms)",
            name, arrivals.endToEnd.count, missing, arrivals.repeated, arrivals.percentile(arrivals.endToEnd, 0.5),
            arrivals.percentile(arrivals.endToEnd, 0.99), 1000 * arrivals.percentile(arrivals.added, 0.5),
            1000 * arrivals.percentile(arrivals.added, 0.99), 1000 * (arrivals.added.max() ?? .nan)))
      }
      if let push = result.push {
        Console.out(
          String(
            format:
              "push: %d of %d due accepted at the loopback APNs and FCM (%d missing, %d repeated), %d devices; "
              + "goal → accepted p50 %.2f s, p99 %.2f s; first served → accepted (what Statline adds) p50 %.0f ms, "
              + "p99 %.0f ms, max %.0f ms (goal p99 < 250 ms)",
            push.added.count, result.pushesDue, result.missingPushes, push.repeated, devices,
            push.percentile(push.endToEnd, 0.5), push.percentile(push.endToEnd, 0.99),
            1000 * push.percentile(push.added, 0.5), 1000 * push.percentile(push.added, 0.99),
            1000 * (push.added.max() ?? .nan)))
      }
      Console.out(
        String(
          format:
            "against the app's targets (60 s from a real-world goal to a push, 45 s to the screen): Statline's "
            + "worst here is the cadence (%.0f s) plus %.2f s; the feed's own delay comes on top",
          cadence, max(result.webhook.added.max() ?? 0, result.stream.added.max() ?? 0)))
    }
  }
}
