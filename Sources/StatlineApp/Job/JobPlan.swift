import Foundation
import StatlineCore
import StatlinePush

/// What a job configuration makes the job do, worked out without fetching anything or opening
/// the store: each target's parser, role and cadence, each host's politeness, the sinks and
/// their filters, the store; and every problem found, each on its own (`statline check`).
struct JobPlan {
  var targets: [Target] = []
  var problems: [StatlineError] = []
  let config: JobConfig
  let store: String

  init(
    config: JobConfig, registry: SourceRegistry, store: String?,
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) {
    self.config = config
    self.store = store ?? config.store
    for index in config.targets.indices {
      do { targets.append(try config.resolvedTarget(index, registry)) } catch { problems.append(error) }
    }
    do { _ = try StoreLocation(self.store, environment: environment) } catch { problems.append(error) }
    var names: Set<String> = []
    for (index, spec) in config.sinks.enumerated() {
      let path = "sinks[\(index)]"
      if !names.insert(spec.name).inserted {
        problems.append(
          StatlineError(
            .configuration, "\(path).name: two sinks are named '\(spec.name)'",
            hint: "each sink needs its own name: it names its cursor in the store"))
      }
      if spec.kind == .webhook {
        do {
          _ = try EventSinks.checkedWebhook(spec, path: path, environment: environment)
        } catch {
          problems.append(error)
        }
      }
    }
    if let push = config.push {
      do { try JobPush<ContinuousClock>.check(push) } catch { problems.append(error) }
    }
  }

  func render(file: String) -> String {
    var lines = ["statline check: \(file) is valid; nothing was fetched.", ""]
    let location = (try? StoreLocation(store).description) ?? store
    lines.append("Store: \(location.hasPrefix("postgres") ? "PostgreSQL " : "SQLite file ")\(location)")
    lines.append("")
    lines.append("Targets (\(targets.count)):")
    lines += BatchTable.table(
      header: ["URL", "PARSER", "ROLE", "CADENCE"],
      rows: targets.map { [$0.url, $0.parser, $0.role.rawValue, cadence(of: $0)] })
    lines.append("")
    let hosts = Set(targets.compactMap { URL(string: $0.url)?.host?.lowercased() }).sorted()
    let politeness = config.politeness
    lines.append(
      "Hosts (\(hosts.count)), as \(politeness.userAgent), robots.txt \(politeness.obeyRobots ? "obeyed" : "NOT obeyed"):"
    )
    lines += BatchTable.table(
      header: ["HOST", "CONCURRENCY", "SPACING"],
      rows: hosts.map { host in
        let limits = politeness.hostOverrides[host] ?? politeness.hostLimits
        return [host, String(limits.concurrency), Self.text(limits.spacing)]
      })
    lines.append("")
    if config.sinks.isEmpty {
      lines.append("Sinks: none (events are kept in the store: `statline events tail`)")
    } else {
      lines.append("Sinks (\(config.sinks.count)):")
      lines += BatchTable.table(
        header: ["NAME", "KIND", "WHERE", "FILTER"],
        rows: config.sinks.map { spec in
          [
            spec.name, spec.kind.rawValue, spec.url.map(WebAddress.redacted) ?? spec.path ?? "stdout",
            Self.filter(spec.filter),
          ]
        })
    }
    lines.append("")
    if let apns = config.push?.apns {
      lines.append(
        "Push: APNs key \(apns.keyId) of team \(apns.teamId) (\(apns.keyFile), read and checked; nothing sent), "
          + "\(apns.connections) connections per environment, \(config.push?.inFlight ?? 0) requests in flight")
      if let broadcast = apns.broadcast {
        lines.append(
          "  Broadcast channels for \(broadcast.topic) (\(broadcast.environment.rawValue)): one per game, opened when "
            + "it starts, deleted after its final, at \(broadcast.environment == .production ? broadcast.production : broadcast.sandbox)"
            + " (messages stored: \(broadcast.storesLatest ? "the latest" : "none"))")
      }
    }
    if let push = config.push, let fcm = push.fcm {
      let account = try? FCMServiceAccount(file: fcm.serviceAccountFile)
      let project = fcm.project ?? account?.projectId ?? "(none named)"
      lines.append(
        "Push: FCM project \(project) as \(account?.description ?? "(unreadable account)") "
          + "(\(fcm.serviceAccountFile), read and checked; nothing sent), \(fcm.connections(inFlight: push.inFlight)) "
          + "connections to \(fcm.baseURL) (each under FCM's 100 streams), tokens from \(account?.tokenURI ?? "?")")
    }
    if config.push == nil {
      lines.append("Push: none (devices are kept, no alerts are sent)")
    }
    lines.append("")
    lines.append(
      "Sports with game targets: "
        + (config.sports.map { $0.map(\.rawValue).sorted().joined(separator: ", ") } ?? "all"))
    if !config.primaryPolls.isEmpty {
      lines.append(
        "Primary polls: "
          + config.primaryPolls.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) → \($0.value)" }
          .joined(separator: ", "))
    }
    return lines.joined(separator: "\n")
  }

  /// How often the target is polled, by its role and its source's policy.
  func cadence(of target: Target) -> String {
    let policy = config.sources[target.source]?.policy ?? config.policy
    switch target.role {
    case .poll:
      return "daily; hourly on the poll's day"
    case .game:
      return
        "live \(Self.text(policy.live)), idle \(Self.text(policy.idle)), retired \(policy.finalPolls) polls after final"
    case .discovery:
      return "live \(Self.text(policy.live)), imminent \(Self.text(policy.imminent)), idle \(Self.text(policy.idle))"
    }
  }

  static func filter(_ filter: EventFilter) -> String {
    let parts = [
      filter.kinds.isEmpty ? nil : "kinds: " + filter.kinds.map(\.rawValue).joined(separator: ", "),
      filter.sports.isEmpty ? nil : "sports: " + filter.sports.map(\.rawValue).joined(separator: ", "),
      filter.teams.isEmpty ? nil : "teams: " + filter.teams.joined(separator: ", "),
    ].compactMap { $0 }
    return parts.isEmpty ? "every event" : parts.joined(separator: "; ")
  }

  /// `30s`, `5m`, `1h`, `50ms`.
  static func text(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    if seconds == 0 { return "\(attoseconds / 1_000_000_000_000_000)ms" }
    if seconds % 3600 == 0 { return "\(seconds / 3600)h" }
    if seconds % 60 == 0 { return "\(seconds / 60)m" }
    return "\(seconds)s"
  }
}
