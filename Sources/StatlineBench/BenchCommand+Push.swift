import ArgumentParser
import Foundation
import StatlineCLI

extension BenchCommand {
  struct Push: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "A goal to many phones: one team followed by --devices devices, a goal in the log, pushes through the outbox and the APNs sender to a loopback APNs."
    )

    @Option(help: "Devices following the team.")
    var devices: Int = 100_000

    @Option(help: "Goals, one after another (each goes to every device).")
    var rounds: Int = 3

    @Option(help: "HTTP/2 connections to the APNs.")
    var connections: Int = 2

    @Option(help: "Requests in flight at once.")
    var inFlight: Int = 64

    @Option(help: "Alerts claimed per batch.")
    var batch: Int = 256

    @Option(
      help: ArgumentHelp(
        "An APNs outside this process (`statline bench apns-fake`'s https://127.0.0.1:PORT); default: one in it.",
        valueName: "url"))
    var apns: String?

    @Option(help: ArgumentHelp("With --apns: its CA (PEM).", valueName: "file"))
    var apnsCA: String?

    @Option(help: ArgumentHelp("With --apns: the signing key it knows (.p8).", valueName: "file"))
    var keyFile: String?

    @Option(help: "With --apns: the key's id and team.")
    var keyId = "BENCH12345"

    @Option(help: "With --apns: the key's team.")
    var teamId = "TEAM123456"

    @Option(
      help: ArgumentHelp(
        "A PostgreSQL server (postgres://…): the devices and the outbox in a schema of their own, dropped after; default: a SQLite file.",
        valueName: "url"))
    var store: String?

    @Option(help: "Workers sharing the PostgreSQL outbox, each with its own pool, provider token and APNs connections.")
    var workers: Int = 1

    func run() async throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-bench-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      var external: PushBenchmark.External?
      if let apns {
        guard let apnsCA, let keyFile else {
          throw ValidationError("--apns needs --apns-ca and --key-file (statline bench apns-fake writes both)")
        }
        external = .init(url: apns, caFile: apnsCA, keyFile: keyFile, keyId: keyId, teamId: teamId)
      }
      guard workers >= 1, store != nil || workers == 1 else {
        throw ValidationError("--workers above 1 needs --store postgres://… (SQLite is one machine's)")
      }
      let sqlite = folder.appendingPathComponent("push.sqlite").path
      let (devices, rounds, connections, inFlight, batch, workers) = (
        devices, rounds, connections, inFlight, batch, workers
      )
      let result = try await BenchSchema.using(store) { scratch in
        try await PushBenchmark.run(
          devices: devices, rounds: rounds, connections: connections, inFlight: inFlight, batch: batch,
          store: scratch.map { .postgres($0.location) } ?? .sqlite(sqlite), workers: workers, external: external)
      }
      Console.out(
        String(
          format: "registered %d devices in %.1f s (%@)", devices, result.registerSeconds,
          store == nil ? "SQLite" : "PostgreSQL, 16 at a time"))
      for (index, round) in result.rounds.enumerated() {
        Console.out(
          String(
            format:
              "goal %d: %d pushes accepted; commit → first %.0f ms, → last %.2f s; %.0f pushes/s; CPU %.2f s (%@)%@",
            index + 1, round.accepted, round.first * 1000, round.last, Double(round.accepted) / round.last,
            round.cpu, apns == nil ? "Statline and the fake, one process" : "Statline alone",
            store == nil ? "" : String(format: ", PostgreSQL %.2f s; %d workers", round.serverCPU, workers)))
      }
      let lasts = result.rounds.map(\.last).sorted()
      let firsts = result.rounds.map(\.first).sorted()
      func percentile(_ values: [Double], _ p: Double) -> Double {
        values[min(values.count - 1, Int(Double(values.count) * p))]
      }
      Console.out(
        String(
          format:
            "commit → first push: p50 %.0f ms, p99 %.0f ms (goal < 100 ms); commit → last: p50 %.2f s, p99 %.2f s (goal < 10 s); memory %.0f MiB after registering, %.0f MiB at most while sending",
          percentile(firsts, 0.5) * 1000, percentile(firsts, 0.99) * 1000, percentile(lasts, 0.5),
          percentile(lasts, 0.99), result.baselineMiB, result.peakMiB))
    }
  }
}
