import ArgumentParser
import AsyncHTTPClient
import Foundation
import StatlineApp
import StatlineCLI
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineLoopback

extension BenchCommand {
  struct Events: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Change events: the score differ's throughput, and signed webhook deliveries/s to a loopback receiver.")

    @Option(help: "Game versions run through the differ.")
    var polls: Int = 200_000

    @Option(help: "Events delivered to the loopback webhook receiver.")
    var deliveries: Int = 5_000

    @Option(help: "Games whose events interleave (a game day).")
    var games: Int = 20

    @Option(help: "Webhook requests in flight at once (never two of one game).")
    var inFlight: Int = 4

    func run() async throws {
      let differ = EventsBenchmark.differ(polls: polls)
      Console.out(
        String(
          format: "score differ: %.0f changed games/s, %.0f events/s (%.2f µs per changed game)",
          differ.callsPerSecond, differ.eventsPerSecond, 1e6 / differ.callsPerSecond))
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-bench-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let webhook = try await EventsBenchmark.webhook(
        count: deliveries, games: games, inFlight: inFlight,
        storePath: folder.appendingPathComponent("events.sqlite").path)
      Console.out(
        String(
          format:
            "webhook: %.0f signed deliveries/s to a loopback receiver (%d games, %d in flight, in order per game; goal >= 2000); %d of %d signatures verified",
          webhook.perSecond, games, inFlight, webhook.verified, deliveries))
    }
  }
}
