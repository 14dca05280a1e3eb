import Foundation
import StatlineCore
import StatlineEngine
import StatlinePostgres

/// How fast a worker claims targets from a PostgreSQL store, and what a lease costs a poll:
/// `targets` due targets claimed in batches of `batch` (the claim's CPU measured alone), then
/// each given back on its own with a fenced touch (a poll that stores something gives its lease
/// back inside its commit instead, at no extra round trip).
public struct ClaimBenchmark: Sendable {
  public var targets: Int
  public var batch: Int
  public var location: PostgresLocation

  public struct Result: Sendable {
    public var claimSeconds: Double
    public var releaseSeconds: Double
    /// Statline's and PostgreSQL's CPU seconds while claiming.
    public var claimCPU: Double
    public var claimServerCPU: Double
    /// The same while giving back.
    public var releaseCPU: Double
    public var releaseServerCPU: Double
  }

  public func run() async throws -> Result {
    let store = try await PostgresStore.open(location)
    let now = Date()
    let states = (0..<targets).map {
      TargetState(
        target: Target(url: "https://bench.example/game/\($0).xml", source: "s", parser: "p", role: .game),
        nextDue: now)
    }
    for chunk in stride(from: 0, to: states.count, by: 1000) {
      try await store.seed(new: Array(states[chunk..<min(chunk + 1000, states.count)]), changed: [], at: now)
    }
    let clock = ContinuousClock()
    let (cpuStart, serverStart) = (CycleBenchmark.cpuSeconds(), PostgresCPU.seconds())
    var claimed: [TargetState] = []
    let claimStart = clock.now
    while true {
      let page = try await store.claim(worker: "bench", now: now, limit: batch, until: now.addingTimeInterval(60))
      if page.isEmpty { break }
      claimed += page
    }
    let claimSeconds = JobClock<ContinuousClock>.seconds(claimStart.duration(to: clock.now))
    let (cpuClaimed, serverClaimed) = (CycleBenchmark.cpuSeconds(), PostgresCPU.seconds())
    let releaseStart = clock.now
    for state in claimed {
      _ = try await store.touch(
        state.id, succeededAt: now, nextDue: now.addingTimeInterval(30), lease: Lease(worker: "bench", target: state.id)
      )
    }
    let releaseSeconds = JobClock<ContinuousClock>.seconds(releaseStart.duration(to: clock.now))
    let (cpu, server) = (CycleBenchmark.cpuSeconds(), PostgresCPU.seconds())
    await store.close()
    guard claimed.count == targets else {
      throw StatlineError(.store, "claimed \(claimed.count) of \(targets) targets")
    }
    return Result(
      claimSeconds: claimSeconds, releaseSeconds: releaseSeconds, claimCPU: cpuClaimed - cpuStart,
      claimServerCPU: serverClaimed - serverStart, releaseCPU: cpu - cpuClaimed,
      releaseServerCPU: server - serverClaimed)
  }
}
