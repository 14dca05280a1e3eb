import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlineEngine
import StatlinePostgres

/// `statline once`: every due target once, then exit; for cron.
public struct OnceCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "once",
    abstract: "Poll every due target once (and the games they discover), deliver pending events, then exit.",
    discussion:
      "Exits 0 when every poll succeeded or was unchanged, 1 when any failed or was blocked. On SQLite only: it takes no leases, so a PostgreSQL store (shared by workers) is refused."
  )

  @OptionGroup var job: JobOptions

  /// Why `once` refuses a PostgreSQL store: it polls every due target without taking a lease, so
  /// beside the cluster's workers it would poll (and write) what a worker holds.
  static let clusterRefusal =
    "statline once polls without leases, so it does not run against a PostgreSQL store, which workers share"

  public func run() async throws {
    let runtime: JobRuntime<ContinuousClock>
    do throws(StatlineError) {
      let config = try job.load()
      let store = job.store ?? config.store
      if PostgresLocation.isURL(store) {
        throw StatlineError(
          .configuration, Self.clusterRefusal, location: PostgresLocation.redacted(store),
          hint:
            "run `statline run --store URL` (a worker that takes leases) and stop it when done, or use a SQLite store")
      }
      runtime = try await JobRuntime(config: config, storePath: job.store, clock: ContinuousClock(), report: { _ in })
    } catch {
      throw fail(error)
    }
    let reports: [PollReport]
    do {
      reports = try await runtime.scheduler.runOnce(configured: runtime.targets)
      _ = try await runtime.pruneCaptures()
      // Events go out once each; a sink that fails keeps its cursor for the next run (cron must
      // not block on a dead receiver).
      for sink in runtime.delivery.sinks {
        let (handled, stopped) = try await runtime.delivery.deliverWithoutWaiting(to: sink)
        if let stopped {
          Console.error(
            "statline: sink \(sink.name) stopped after \(handled) events at \(stopped); the next run goes on")
        }
      }
    } catch {
      await runtime.shutdown()
      throw fail(StatlineError.wrapping(error, location: PostgresLocation.redacted(job.store ?? runtime.config.store)))
    }
    await runtime.shutdown()
    Console.out(Self.render(reports))
    if reports.contains(where: { $0.outcome == .failed || $0.outcome == .blocked }) { throw ExitCode(1) }
  }

  static func render(_ reports: [PollReport]) -> String {
    guard !reports.isEmpty else { return "nothing was due" }
    let rows = reports.map { report in
      [
        report.outcome.rawValue, report.status.map(String.init) ?? "", String(report.written), report.target.parser,
        report.target.url,
        report.error ?? report.partial.first.map { "partial (\(report.partial.count) refused or unread): \($0)" } ?? "",
      ]
    }
    let failed = reports.filter { $0.outcome == .failed || $0.outcome == .blocked }.count
    return
      (BatchTable.table(header: ["OUTCOME", "HTTP", "WRITTEN", "PARSER", "URL", "ERROR"], rows: rows)
      + ["\(reports.count) polls, \(failed) failed"]).joined(separator: "\n")
  }
}
