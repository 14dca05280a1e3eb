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
  struct Cycle: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "CPU, lag and memory of a live cycle: N live game targets on a loopback site (a child process).")

    @Option(help: "Live game targets.")
    var targets: Int = 1000

    @Option(help: "The live cadence, in seconds.")
    var cadence: Double = 30

    @Option(help: "Measured cycles (after the warm-up: whole cycles until every target was polled once, at most five).")
    var cycles: Int = 5

    @Option(
      help:
        "changed (pages change every cycle), scoring (every cycle a goal, or a correction), not-modified (304s) or identical (same bytes, no validators)."
    )
    var mode: String = "changed"

    @Flag(help: "Store without deriving change events (to measure what the score differ costs).")
    var noEvents = false

    @Flag(
      help:
        "Store the source games alone, without merging them into canonical games (to measure what the merge costs; events come only from canonical games, so use it with --no-events)."
    )
    var noMerge = false

    @Option(
      help: ArgumentHelp(
        "Also serve the read API in the job's process, with a client polling the scoreboard this many times a second.",
        valueName: "per-second"))
    var apiRate: Double?

    @Option(
      help: ArgumentHelp(
        "A postgres:// URL to store into (a fresh schema, dropped afterwards); default: a fresh SQLite file.",
        valueName: "url"))
    var store: String?

    @Option(help: "Workers sharing the PostgreSQL store (in this process, each with its own pool).")
    var workers: Int = 1

    @Option(
      help: ArgumentHelp(
        "Serve this StatCrew game XML (made live, its clock moving) as every target's page, instead of the written one.",
        valueName: "file"))
    var page: String?

    @Option(
      help: ArgumentHelp(
        "Poll this running site (`statline bench serve`, e.g. one a peer polls too) instead of starting one.",
        valueName: "url"))
    var site: String?

    @Option(
      help: ArgumentHelp(
        "Serve the real pages of every kind the plugins read, from this folder (../shared/fixtures/real), taken in turn by the targets: a Saturday's mix.",
        valueName: "folder"))
    var mix: String?

    func run() async throws {
      guard store != nil || workers == 1 else {
        throw fail(StatlineError(.configuration, "--workers needs --store postgres://…", hint: "SQLite has one writer"))
      }
      guard let mode = BenchSite.Mode(rawValue: mode) else {
        throw fail(
          StatlineError(.configuration, "unknown --mode \(mode)", hint: "changed, scoring, not-modified or identical"))
      }
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-bench-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let siteProcess: Process?
      let url: String
      if let site {
        guard ["127.0.0.1", "localhost", "::1", "[::1]"].contains(FetchRequest.host(of: site)) else {
          throw fail(StatlineError(.configuration, "bench cycle only polls a loopback site", location: site))
        }
        (siteProcess, url) = (nil, site.hasSuffix("/") ? String(site.dropLast()) : site)
      } else {
        var arguments = ["--targets", String(targets), "--mode", mode.rawValue, "--cadence", String(cadence)]
        if let mix {
          do { _ = try BenchSite(targets: 1, mode: mode, cadence: cadence, mixFolder: mix) } catch { throw fail(error) }
          arguments += ["--mix", mix]
        }
        if let page {
          // Checked here too, so a bad page is one clear error, not a site that did not start.
          do { _ = try BenchSite(targets: 1, mode: mode, cadence: cadence, pageFile: page) } catch { throw fail(error) }
          arguments += ["--page", page]
        }
        do { (siteProcess, url) = try BenchServe.start(arguments) } catch { throw fail(error) }
      }
      defer { siteProcess?.terminate() }
      let result = try await BenchSchema.using(store) { scratch in
        var benchmark = CycleBenchmark(
          targets: targets, cadence: .milliseconds(Int64(cadence * 1000)), cycles: cycles, siteURL: url,
          storePath: scratch.map { StoreLocation.postgres($0.location).url }
            ?? folder.appendingPathComponent("bench.sqlite").path)
        benchmark.derivesEvents = !noEvents
        benchmark.merges = !noMerge
        benchmark.apiRate = apiRate
        benchmark.workers = workers
        benchmark.mixed = mix != nil
        return try await benchmark.run { Console.error($0) }
      }
      Console.out(
        "\(targets) live targets, \(mode.rawValue) pages\(page.map { " (\($0))" } ?? "")"
          + (mix != nil ? " (the real pages of \(BenchMix.kinds.count) kinds, in turn)" : "")
          + ", cadence \(cadence) s, \(cycles) measured cycles"
          + (noEvents ? ", no events" : "") + (noMerge ? ", no merge" : "")
          + (apiRate.map { ", the read API polled \(Int($0))/s" } ?? ""))
      Console.out(
        "polls: \(result.polls) (\(result.outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))), records written: \(result.written)"
      )
      for error in result.errors { Console.out("  failed: \(error)") }
      // The goal (docs/benchmarks.md) is for 1,000 targets at the live cadence, 30 s; other runs have none.
      let goal = targets == 1000 && cadence == 30 ? " (goal < 10 %%)" : ""
      Console.out(
        String(
          format: "CPU per cycle: %.3f s = %.2f %% of one core\(goal); per poll: %.0f µs",
          result.cpuSecondsPerCycle, 100 * result.cpuSecondsPerCycle / result.cadenceSeconds,
          1e6 * result.cpuSecondsPerCycle * Double(cycles) / Double(max(result.polls, 1))))
      if let merge = result.mergeCPUSecondsPerCycle {
        Console.out(
          String(
            format: "of which the merge: %.0f µs per stored poll = %.1f %% of the cycle's CPU (goal < 5 %%)",
            1e6 * merge * Double(cycles) / Double(max(result.outcomes["stored", default: 0], 1)),
            100 * merge / max(result.cpuSecondsPerCycle, 1e-9)))
      }
      if workers > 1 {
        Console.out(
          String(
            format: "per worker-cycle (%d workers): %.3f s = %.2f %% of one core", workers,
            result.cpuSecondsPerCycle / Double(workers),
            100 * result.cpuSecondsPerCycle / Double(workers) / result.cadenceSeconds))
      }
      if store != nil {
        Console.out(
          String(
            format: "PostgreSQL's own CPU per cycle: %.3f s = %.2f %% of one core; per poll: %.0f µs",
            result.serverCPUSecondsPerCycle, 100 * result.serverCPUSecondsPerCycle / result.cadenceSeconds,
            1e6 * result.serverCPUSecondsPerCycle * Double(cycles) / Double(max(result.polls, 1))))
      }
      Console.out(
        String(
          format: "due → stored lag: p50 %.0f ms, p99 %.0f ms, max %.0f ms (goal p99 < 1 s)", result.lagP50 * 1000,
          result.lagP99 * 1000, result.lagMax * 1000))
      if let first = result.rss.first, let last = result.rss.last {
        Console.out(
          String(
            format: "resident memory: %.1f MiB after cycle 1, %.1f MiB max, %.1f MiB after cycle %d", first,
            result.rss.max() ?? last, last, result.rss.count))
      }
      if mix != nil {
        for (parser, share) in result.byParser.sorted(by: { $0.key < $1.key }) {
          Console.out(
            "  \(parser): \(share.polls) polls, "
              + String(
                format: "%.1f records written per poll, worst lag %.0f ms",
                Double(share.written) / Double(max(share.polls, 1)), share.lagMax * 1000))
        }
      }
    }
  }
}
