import Foundation
import StatlineApp
import StatlineCore
import StatlineEngine
import StatlinePostgres

/// A live cycle: `targets` live game targets on a loopback site at `cadence`, through the real
/// scheduler, politeness layer, HTTP fetcher, parser and SQLite store (architecture.md#quality-bars). The site
/// runs in a child process, so the CPU measured here is the job's alone.
public struct CycleBenchmark: Sendable {
  public var targets: Int
  public var cadence: Duration
  public var cycles: Int
  public var siteURL: String
  public var storePath: String
  /// False to measure the cycle without the score differ (what events cost).
  public var derivesEvents = true
  /// False: the store keeps the source games alone (no canonical games), to measure the merge.
  public var merges = true
  /// When set, the read API runs in the job's process (as `run --serve`) and a child process
  /// polls its scoreboard this many times a second: what the API costs the job.
  public var apiRate: Double?
  /// Workers sharing the store (PostgreSQL only), each a runtime of its own in this process.
  public var workers = 1
  /// The site serves `BenchMix`'s pages: each target has its kind's parser, and a final (the
  /// saved pages are finals, some stay `unknown`) is polled at the live cadence, not retired.
  public var mixed = false

  public init(targets: Int, cadence: Duration, cycles: Int, siteURL: String, storePath: String) {
    self.targets = targets
    self.cadence = cadence
    self.cycles = cycles
    self.siteURL = siteURL
    self.storePath = storePath
  }

  public struct Result: Sendable {
    public var polls: Int
    public var written: Int
    public var outcomes: [String: Int]
    public var cpuSecondsPerCycle: Double
    public var cadenceSeconds: Double
    public var lagP50: Double
    public var lagP99: Double
    public var lagMax: Double
    /// Resident memory (MiB) after each measured cycle.
    public var rss: [Double]
    /// PostgreSQL's own CPU per cycle (0 on SQLite).
    public var serverCPUSecondsPerCycle: Double = 0
    /// The CPU per cycle the store spent merging (`CanonicalStep.meter`: the step, and encoding
    /// and writing the canonical games), measured on SQLite; nil on PostgreSQL or without merge.
    public var mergeCPUSecondsPerCycle: Double?
    /// The first few distinct errors of failed polls, with their targets.
    public var errors: [String] = []
    /// Per parser: polls, records written and the worst lag (`--mix` prints it).
    public var byParser: [String: ParserShare] = [:]
  }

  /// One parser's share of the polls.
  public struct ParserShare: Sendable {
    public var polls = 0
    public var written = 0
    public var lagMax = 0.0

    mutating func add(_ other: ParserShare) {
      polls += other.polls
      written += other.written
      lagMax = max(lagMax, other.lagMax)
    }
  }

  /// What the benchmark keeps of the polls: lags and counts, not the reports (whose games would
  /// make the benchmark's own memory grow with every cycle).
  struct Tally: Sendable {
    var lags: [Double] = []
    var outcomes: [String: Int] = [:]
    var written = 0
    var errors: [String] = []
    var byParser: [String: ParserShare] = [:]
    var polls: Int { lags.count }

    mutating func add(_ other: Tally) {
      lags += other.lags
      outcomes.merge(other.outcomes, uniquingKeysWith: +)
      written += other.written
      for (parser, share) in other.byParser { byParser[parser, default: ParserShare()].add(share) }
      for error in other.errors where errors.count < 5 && !errors.contains(error) { errors.append(error) }
    }
  }

  final class Collector: @unchecked Sendable {
    let lock = NSLock()
    var tally = Tally()
    /// The targets polled at least once, while the warm-up lasts (nil after it).
    var polledOnce: Set<String>? = []
    func add(_ event: JobEvent) {
      guard case .polled(let report) = event else { return }
      let outcome = report.outcome.rawValue + (report.status == 304 ? " (304)" : "")
      lock.withLock {
        polledOnce?.insert(report.target.id)
        let lag = JobClock<ContinuousClock>.seconds(report.lag)
        tally.lags.append(lag)
        tally.byParser[report.target.parser, default: ParserShare()].add(
          ParserShare(polls: 1, written: report.written, lagMax: lag))
        tally.outcomes[outcome, default: 0] += 1
        tally.written += report.written
        if let error = report.error, tally.errors.count < 5 { tally.errors.append("\(report.target.url): \(error)") }
      }
    }
    /// How many targets have been polled once; ends the count.
    func endWarmUp() -> Int {
      lock.withLock {
        defer { polledOnce = nil }
        return polledOnce?.count ?? 0
      }
    }
    func polledOnceCount() -> Int { lock.withLock { polledOnce?.count ?? 0 } }
    func take() -> Tally {
      lock.withLock {
        defer { tally = Tally() }
        return tally
      }
    }
  }

  public func run(progress: @Sendable (String) -> Void) async throws -> Result {
    var config = JobConfig()
    config.targets = (0..<targets).map {
      mixed
        ? JobConfig.TargetSpec(
          url: siteURL + BenchMix.target($0).path, parser: BenchMix.target($0).kind.parser, role: .game)
        : JobConfig.TargetSpec(url: siteURL + BenchSite.path($0), parser: "statbroadcast-game-xml", role: .game)
    }
    config.policy.live = cadence
    if mixed {
      config.policy.finalPolls = Int.max
      config.policy.finalInterval = cadence
      config.policy.idle = cadence
      config.policy.imminent = cadence
    }
    // Loopback: the per-host limits that protect a real site would cap 1,000 targets at 20/s.
    config.politeness.hostLimits = HostLimits(concurrency: 16, spacing: .zero)
    config.maxConcurrentPolls = 64
    config.summaryEvery = .seconds(3600)
    let collector = Collector()
    var runtimes: [JobRuntime<ContinuousClock>] = []
    // The merge is measured on SQLite, whose commit runs on one thread from start to end.
    let meter = merges && !PostgresLocation.isURL(storePath) ? CPUMeter() : nil
    for worker in 1...max(1, workers) {
      runtimes.append(
        try await JobRuntime(
          config: config, storePath: storePath, workerId: "bench-\(worker)", clock: ContinuousClock(),
          derivesEvents: derivesEvents, merges: merges, mergeMeter: meter, report: collector.add))
    }
    let jobs = runtimes.map { runtime in Task { try await runtime.scheduler.run(configured: runtime.targets) } }
    let seconds = JobClock<ContinuousClock>.seconds(cadence)
    // The warm-up stores every game once: a game's first poll writes its whole box score and
    // plays, so at 10,000 targets and more one cadence may not reach them all. It lasts whole
    // cadences until every target has been polled (at most five); the measured cycles follow.
    var warmUpCycles = 0
    repeat {
      try await Task.sleep(for: cadence)
      warmUpCycles += 1
    } while collector.polledOnceCount() < targets && warmUpCycles < 5
    let polledOnce = collector.endWarmUp()
    progress(
      "warm-up: \(collector.take().polls) polls in \(warmUpCycles) cycle\(warmUpCycles == 1 ? "" : "s"), "
        + "\(polledOnce) of \(targets) targets polled")
    var api: APIPoller?
    if let apiRate { api = try await APIPoller.start(storePath: storePath, rate: apiRate, progress: progress) }
    defer { api?.stop() }
    let (cpuStart, serverStart, mergeStart) = (Self.cpuSeconds(), PostgresCPU.seconds(), meter?.total.seconds)
    var measured = Tally()
    var rss: [Double] = []
    for cycle in 1...cycles {
      try await Task.sleep(for: cadence)
      let reports = collector.take()
      measured.add(reports)
      rss.append(Self.residentMiB())
      if cycle == 1 || cycle % max(1, cycles / 10) == 0 || cycle == cycles {
        progress("cycle \(cycle)/\(cycles): \(reports.polls) polls, RSS \(String(format: "%.1f", rss.last!)) MiB")
      }
    }
    let (cpu, server) = (Self.cpuSeconds() - cpuStart, PostgresCPU.seconds() - serverStart)
    let merge = meter.flatMap { meter in mergeStart.map { (meter.total.seconds - $0) / Double(cycles) } }
    for job in jobs { job.cancel() }
    for job in jobs { _ = try? await job.value }
    for runtime in runtimes { await runtime.shutdown() }
    let lags = measured.lags.sorted()
    func percentile(_ p: Double) -> Double { lags.isEmpty ? 0 : lags[min(lags.count - 1, Int(Double(lags.count) * p))] }
    return Result(
      polls: measured.polls, written: measured.written, outcomes: measured.outcomes,
      cpuSecondsPerCycle: cpu / Double(cycles), cadenceSeconds: seconds, lagP50: percentile(0.5),
      lagP99: percentile(0.99), lagMax: lags.last ?? 0, rss: rss,
      serverCPUSecondsPerCycle: PostgresLocation.isURL(storePath) ? server / Double(cycles) : 0,
      mergeCPUSecondsPerCycle: merge, errors: measured.errors, byParser: measured.byParser)
  }

  static func cpuSeconds() -> Double {
    var usage = rusage()
    #if os(Linux)
      getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
      getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
      + Double(usage.ru_stime.tv_usec) / 1e6
  }

  /// VmRSS from /proc (Linux), in MiB; 0 where unavailable.
  static func residentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
    else { return 0 }
    let kilobytes = line.split(separator: " ").compactMap { Double($0) }.first ?? 0
    return kilobytes / 1024
  }
}
