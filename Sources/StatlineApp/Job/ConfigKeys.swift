/// Every key the job configuration reader accepts, in one place: the reader takes each mapping's
/// keys from here (a key not listed is an error naming the ones that are), and the
/// configuration reference (`docs/running.md`) is checked against `reference` both ways.
public enum ConfigKeys {
  public static let top = [
    "store", "targets", "sources", "configs", "policy", "politeness", "http", "maxConcurrentPolls", "maxTargetsPerPage",
    "summaryEvery",
    "captures", "sinks", "cluster", "teams", "sports", "merge", "rankings", "api", "push", "logos",
  ]
  public static let target = ["url", "parser", "role", "allowLinkLocal"]
  public static let source = ["options", "headers", "policy", "redirectHosts"]
  public static let policy = [
    "live", "imminent", "imminentWindow", "idle", "finalPolls", "finalInterval", "failureBase", "failureCap", "jitter",
  ]
  public static let politeness = [
    "userAgent", "obeyRobots", "concurrency", "spacing", "retries", "breakerFailures", "breakerCooldown", "hosts",
  ]
  public static let host = ["concurrency", "spacing"]
  public static let http = ["timeout", "connectTimeout", "maxBodySize", "maxRedirects", "privateHosts"]
  public static let captures = ["keep", "maxAge", "maxBytes", "maxPageBytes"]
  public static let cluster = ["lease", "claimEvery", "renewEvery", "workerId"]
  public static let teams = ["aliases"]
  public static let logos = ["enabled", "every", "refreshAfter", "retryAfter", "maxRetryAfter", "maxBytes", "perPass"]
  public static let merge = ["precedence"]
  public static let rankings = ["primary"]
  public static let api = ["deviceKeys", "readRate", "readBurst", "maxConcurrentPerClient", "writeRate", "writeBurst"]
  public static let push = ["apns", "fcm", "inFlight", "batch", "lease", "cap", "disableBurst", "purgeDisabledAfter"]
  public static let apns = [
    "keyFile", "keyId", "teamId", "connections", "timeout", "production", "sandbox", "trustRoots", "broadcast",
  ]
  public static let broadcast = ["topic", "environment", "storage", "production", "sandbox"]
  public static let fcm = ["serviceAccountFile", "project", "connections", "timeout", "baseURL", "trustRoots"]
  public static let sink = ["kind", "name", "path", "url", "secretEnv", "timeout", "inFlight", "filter", "retry"]
  public static let sinkRetry = ["base", "cap", "giveUpAfter"]
  public static let sinkFilter = ["kinds", "sports", "teams"]

  /// The keys as the reference names them (`policy.live`, `sources.<id>.options`), each with the
  /// keys its row describes in words (a target's `url`, `parser`, …; a sink's fields).
  public static var reference: [(key: String, describes: [String])] {
    var rows: [(String, [String])] = []
    for key in top {
      switch key {
      case "targets": rows.append((key, target))
      case "sources": rows += source.map { ("sources.<id>.\($0)", []) }
      case "policy": rows += policy.map { ("policy.\($0)", []) }
      case "politeness":
        rows += politeness.map { $0 == "hosts" ? ("politeness.hosts.<host>", host) : ("politeness.\($0)", []) }
      case "http": rows += http.map { ("http.\($0)", []) }
      case "captures": rows += captures.map { ("captures.\($0)", []) }
      case "cluster": rows += cluster.map { ("cluster.\($0)", []) }
      case "teams": rows += teams.map { ("teams.\($0)", []) }
      case "merge": rows += merge.map { ("merge.\($0)", []) }
      case "rankings": rows += rankings.map { ("rankings.\($0).<sport>", []) }
      case "api": rows += api.map { ("api.\($0)", []) }
      case "logos": rows += logos.map { ("logos.\($0)", []) }
      case "sinks": rows.append((key, sink + sinkRetry + sinkFilter))
      case "push":
        rows += push.map {
          $0 == "apns" ? ("push.apns", apns) : $0 == "fcm" ? ("push.fcm", fcm) : ("push.\($0)", [])
        }
        rows.append(("push.apns.broadcast", broadcast))
      default: rows.append((key, []))
      }
    }
    return rows
  }
}
