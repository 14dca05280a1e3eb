import Foundation
import Logging
import StatlineCanonical
import StatlineCore
import StatlineEngine

/// The job's logo keeper (architecture.md#team-logos), when `logos.enabled`: the logos the stored
/// teams' pages show, one per school as the registry chooses, downloaded through the job's own
/// polite fetcher. In a cluster one worker at a time keeps them (a lease like a sink's).
enum JobLogos {
  static func keeper<C: Clock>(
    _ settings: JobConfig.LogoSettings, store: any JobStore, fetcher: any Fetcher, registry: TeamRegistry, clock: C,
    now: @escaping @Sendable () -> Date, cluster: ClusterMembership?
  ) -> LogoKeeper<C>? where C.Duration == Duration {
    guard settings.enabled, let logos = store as? any LogoStore else { return nil }
    let logger = Logger(label: "statline.logos")
    var mayRun: @Sendable () async throws -> Bool = { true }
    if let leases = store as? any SinkLeases, let cluster {
      let holder = cluster.worker.id
      let hold = LogoKeeperConfiguration.seconds(settings.keeper.every) * 3
      mayRun = {
        let time = now()
        return try await leases.holdSink(leaseName, holder: holder, now: time, until: time.addingTimeInterval(hold))
      }
    }
    let report: @Sendable (LogoKeeper<C>.Outcome) -> Void = { outcome in
      switch outcome {
      case .downloaded(let team, let url, let type, let bytes):
        logger.info(
          "logo stored", metadata: ["team": "\(team)", "url": "\(url)", "type": "\(type)", "bytes": "\(bytes)"])
      case .unchanged(let team, _):
        logger.debug("logo unchanged", metadata: ["team": "\(team)"])
      case .failed(let team, let url, let reason, let retryAt):
        logger.warning(
          "logo not fetched",
          metadata: [
            "team": "\(team)", "url": "\(url)", "reason": "\(reason)",
            "retry": "\(JobLog.iso(retryAt))",
          ])
      }
    }
    return LogoKeeper(
      store: logos, fetcher: fetcher,
      wanted: { registry.logoURLs(of: try await store.teams(sport: nil)) }, clock: clock, now: now,
      configuration: settings.keeper, mayRun: mayRun, report: report)
  }

  /// The lease the workers of a cluster pass the keeper with (in the sink leases' table).
  static let leaseName = "logo-keeper"
}
