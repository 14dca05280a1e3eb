import Foundation
import StatlineCanonical
import StatlineCore
import StatlineEngine
import StatlineServer
import Yams

/// Reads `statline.yml`. A mistake is reported at start-up with its key path, its line and
/// the expected form; unknown keys are mistakes too (a typo must not be silently ignored).
public enum JobConfigReader {
  public static func load(file: String) throws(StatlineError) -> JobConfig {
    let text: String
    do {
      text = try String(contentsOfFile: file, encoding: .utf8)
    } catch {
      throw StatlineError(
        .configuration, "cannot read the job configuration: \(error.localizedDescription)", location: file,
        hint: "pass an existing file with --config; `statline run --help` shows an example")
    }
    return try parse(text, file: file)
  }

  public static func parse(_ yaml: String, file: String? = nil) throws(StatlineError) -> JobConfig {
    let root: Yams.Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch {
      throw StatlineError(.configuration, "the file is not valid YAML: \(error)", location: file)
    }
    guard let root else {
      throw StatlineError(.configuration, "the configuration is empty", location: file, hint: "list `targets:`")
    }
    return try YAMLWalker(file: file).job(root)
  }
}

/// Walks the YAML tree with the key path at hand.
struct YAMLWalker {
  let file: String?

  func failure(_ path: String, _ node: Yams.Node?, _ message: String, expected: String) -> StatlineError {
    let line = node?.mark.map { " (line \($0.line))" } ?? ""
    return StatlineError(.configuration, "\(path)\(line): \(message)", location: file, hint: "expected \(expected)")
  }

  func pairs(_ node: Yams.Node, _ path: String, keys: [String]) throws(StatlineError) -> [(String, Yams.Node)] {
    guard let mapping = node.mapping else {
      throw failure(
        path, node, "must be a mapping",
        expected: keys.isEmpty ? "key: value pairs" : "keys \(keys.joined(separator: ", "))")
    }
    var result: [(String, Yams.Node)] = []
    for (key, value) in mapping {
      let name = key.string ?? ""
      guard keys.isEmpty || keys.contains(name) else {
        throw failure(
          path.isEmpty ? name : "\(path).\(name)", key, "unknown key '\(name)'",
          expected: "one of \(keys.joined(separator: ", "))")
      }
      result.append((name, value))
    }
    return result
  }

  func string(_ node: Yams.Node, _ path: String) throws(StatlineError) -> String {
    guard case .scalar(let scalar) = node, !scalar.string.isEmpty else {
      throw failure(path, node, "must be a non-empty string", expected: "a string")
    }
    return scalar.string
  }

  func int(_ node: Yams.Node, _ path: String, minimum: Int = 0) throws(StatlineError) -> Int {
    guard case .scalar(let scalar) = node, let value = Int(scalar.string), value >= minimum else {
      throw failure(path, node, "must be a whole number ≥ \(minimum)", expected: "for example 3")
    }
    return value
  }

  func bool(_ node: Yams.Node, _ path: String) throws(StatlineError) -> Bool {
    guard case .scalar(let scalar) = node, let value = node.bool ?? Bool(scalar.string) else {
      throw failure(path, node, "must be true or false", expected: "true or false")
    }
    return value
  }

  /// The longest duration a key takes: ten years (a longer one is a typo, and one past about
  /// 292,000 years would not fit the clock's arithmetic at all).
  static let longestDuration: Double = 10 * 365 * 86400
  /// The largest size a key takes: 1 TiB.
  static let largestSize = 1 << 40

  /// `30s`, `5m`, `1h`, `50ms`, `1d`, or a number of seconds; from 0 to ten years.
  func duration(_ node: Yams.Node, _ path: String) throws(StatlineError) -> Duration {
    let expected = "a duration such as 50ms, 30s, 5m, 1h or 14d"
    guard case .scalar(let scalar) = node else { throw failure(path, node, "must be a duration", expected: expected) }
    let text = scalar.string.trimmingCharacters(in: .whitespaces)
    let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("d", 86400)]
    var seconds = units.lazy.filter { text.hasSuffix($0.0) }.compactMap { suffix, factor in
      Double(text.dropLast(suffix.count)).map { $0 * factor }
    }.first
    if seconds == nil { seconds = Double(text) }
    guard let seconds, seconds >= 0 else {
      throw failure(path, node, "'\(text)' is not a duration", expected: expected)
    }
    guard seconds.isFinite, seconds <= Self.longestDuration else {
      throw failure(
        path, node, "'\(text.prefix(40))' is out of range: a duration is at most ten years (3650d)", expected: expected)
    }
    return .milliseconds(Int64((seconds * 1000).rounded()))
  }

  /// A duration between polls: more than zero (a zero cadence would poll without pause).
  func cadence(_ node: Yams.Node, _ path: String) throws(StatlineError) -> Duration {
    let value = try duration(node, path)
    guard value > .zero else {
      throw failure(path, node, "must be longer than zero (it is the time between polls)", expected: "for example 30s")
    }
    return value
  }

  /// `16MB`, `512KB`, or a number of bytes; from 1 byte to 1 TiB.
  func bytes(_ node: Yams.Node, _ path: String) throws(StatlineError) -> Int {
    let expected = "a size such as 512KB or 16MB"
    guard case .scalar(let scalar) = node else { throw failure(path, node, "must be a size", expected: "16MB") }
    let text = scalar.string.uppercased().replacingOccurrences(of: " ", with: "")
    var parsed: (value: Int, factor: Int)?
    for (suffix, factor) in [("KB", 1 << 10), ("MB", 1 << 20), ("GB", 1 << 30), ("B", 1)] where text.hasSuffix(suffix) {
      if let value = Int(text.dropLast(suffix.count)) { parsed = (value, factor) }
      break
    }
    if parsed == nil, let value = Int(text) { parsed = (value, 1) }
    guard let (value, factor) = parsed, value > 0 else {
      throw failure(path, node, "'\(scalar.string.prefix(40))' is not a size", expected: expected)
    }
    let (size, overflow) = value.multipliedReportingOverflow(by: factor)
    guard !overflow, size <= Self.largestSize else {
      throw failure(
        path, node, "'\(scalar.string.prefix(40))' is out of range: a size is at most 1 TiB", expected: expected)
    }
    return size
  }

  func strings(_ node: Yams.Node, _ path: String) throws(StatlineError) -> [String: String] {
    var result: [String: String] = [:]
    for (key, value) in try pairs(node, path, keys: []) { result[key] = try string(value, "\(path).\(key)") }
    return result
  }

  func job(_ root: Yams.Node) throws(StatlineError) -> JobConfig {
    var config = JobConfig()
    for (key, node) in try pairs(root, "", keys: ConfigKeys.top) {
      switch key {
      case "store": config.store = try string(node, key)
      case "targets":
        guard let items = node.sequence else {
          throw failure(key, node, "must be a list", expected: "- url: https://… (and optional parser:, role:)")
        }
        for (index, item) in items.enumerated() { config.targets.append(try target(item, "targets[\(index)]")) }
      case "sources":
        for (id, value) in try pairs(node, key, keys: []) { config.sources[id] = try source(value, "sources.\(id)") }
      case "configs":
        guard let items = node.sequence else {
          throw failure(key, node, "must be a list", expected: "- path/to/config.yml")
        }
        config.configs = try items.enumerated().map { (index, item) throws(StatlineError) in
          try string(item, "configs[\(index)]")
        }
      case "policy": config.policy = try policy(node, key, base: config.policy)
      case "politeness": try politeness(node, key, into: &config.politeness)
      case "http": try http(node, key, into: &config.http, redirects: &config.politeness.redirects)
      case "maxConcurrentPolls": config.maxConcurrentPolls = try int(node, key, minimum: 1)
      case "maxTargetsPerPage":
        config.maxTargetsPerPage = try int(node, key, minimum: 1)
        guard config.maxTargetsPerPage <= 1_000_000 else {
          throw failure(key, node, "must be at most 1,000,000", expected: "for example 1000 (the default)")
        }
      case "summaryEvery": config.summaryEvery = try duration(node, key)
      case "sinks": config.sinks = try sinks(node)
      case "push": config.push = try push(node)
      case "api": try api(node, key, into: &config)
      case "logos": try logos(node, key, into: &config.logos)
      case "cluster":
        for (name, value) in try pairs(node, key, keys: ConfigKeys.cluster) {
          switch name {
          case "lease": config.cluster.lease = try duration(value, "cluster.lease")
          case "claimEvery": config.cluster.claimEvery = try duration(value, "cluster.claimEvery")
          case "renewEvery": config.cluster.renewEvery = try duration(value, "cluster.renewEvery")
          default: config.cluster.workerId = try string(value, "cluster.workerId")
          }
        }
        guard config.cluster.renewEvery < config.cluster.lease else {
          throw failure(
            "cluster.renewEvery", node, "must be shorter than cluster.lease, or leases expire while polls run",
            expected: "renewEvery: 15s with lease: 60s")
        }
      case "sports":
        guard let items = node.sequence else {
          throw failure(key, node, "must be a list of sports", expected: "sports: [lacrosse-men, lacrosse-women]")
        }
        var sports: Set<Sport> = []
        for (index, item) in items.enumerated() {
          let name = try string(item, "sports[\(index)]")
          guard Sport(name).profile != nil else {
            throw failure(
              "sports[\(index)]", item, "'\(name)' is no sport Statline knows",
              expected: SportProfile.all.map(\.sport.rawValue).joined(separator: ", "))
          }
          sports.insert(Sport(name))
        }
        config.sports = sports
      case "merge":
        for (_, value) in try pairs(node, key, keys: ConfigKeys.merge) {
          guard let items = value.sequence, !items.isEmpty else {
            throw failure(
              "merge.precedence", value, "must be a list of feeds, first preferred",
              expected: "precedence: [statcrew, stats.ncaa.org, ncaa.com, espn]")
          }
          config.mergePrecedence = try items.enumerated().map { (index, item) throws(StatlineError) in
            SourceFeed(try string(item, "merge.precedence[\(index)]"))
          }
          guard Set(config.mergePrecedence ?? []).count == items.count else {
            throw failure("merge.precedence", value, "names a feed twice", expected: "each feed once")
          }
        }
      case "rankings":
        for (_, value) in try pairs(node, key, keys: ConfigKeys.rankings) {
          for (sport, poll) in try strings(value, "rankings.primary") {
            guard Sport(sport).profile != nil else {
              throw failure(
                "rankings.primary.\(sport)", value, "'\(sport)' is no sport Statline knows",
                expected: SportProfile.all.map(\.sport.rawValue).joined(separator: ", "))
            }
            guard poll.contains(":"), !poll.contains("@") else {
              throw failure(
                "rankings.primary.\(sport)", value, "'\(poll)' is not a poll id",
                expected: "a poll as /v1/rankings/polls lists it: ncaa:com-lacrosse-men-d1-inside-lacrosse")
            }
            config.primaryPolls[Sport(sport)] = poll
          }
        }
      case "teams":
        for (_, value) in try pairs(node, key, keys: ConfigKeys.teams) {
          config.teamAliases = try strings(value, "teams.aliases")
        }
        // Checked now, so a mistyped id stops the job at start, not the first time it matters.
        _ = try TeamRegistry.seeded(aliases: config.teamAliases)
      default:
        for (name, value) in try pairs(node, key, keys: ConfigKeys.captures) {
          if name == "keep" { config.capturesKeep = try int(value, "captures.keep") }
          if name == "maxAge" { config.capturesMaxAge = try duration(value, "captures.maxAge") }
          if name == "maxBytes" { config.capturesMaxBytes = Int64(try bytes(value, "captures.maxBytes")) }
          if name == "maxPageBytes" {
            config.capturesMaxPageBytes = try bytes(value, "captures.maxPageBytes")
            guard config.capturesMaxPageBytes >= 1_024 else {
              throw failure(
                "captures.maxPageBytes", value,
                "must be at least 1KB: a capture must keep enough of a page to replay it",
                expected: "for example 2MB (the default)")
            }
          }
        }
      }
    }
    guard !config.targets.isEmpty else {
      throw failure("targets", root, "the job has no targets", expected: "targets: [- url: https://…]")
    }
    return config
  }

  func target(_ node: Yams.Node, _ path: String) throws(StatlineError) -> JobConfig.TargetSpec {
    if case .scalar = node { return JobConfig.TargetSpec(url: try url(node, path)) }
    var spec = JobConfig.TargetSpec(url: "")
    var allowLinkLocal = false
    var urlNode: Yams.Node?
    for (key, value) in try pairs(node, path, keys: ConfigKeys.target) {
      switch key {
      case "url":
        spec.url = try url(value, "\(path).url", linkLocal: true)
        urlNode = value
      case "parser": spec.parser = try string(value, "\(path).parser")
      case "allowLinkLocal": allowLinkLocal = try bool(value, "\(path).allowLinkLocal")
      default:
        guard let role = Target.Role(rawValue: try string(value, "\(path).role")) else {
          throw failure("\(path).role", value, "unknown role", expected: "discovery, game or poll")
        }
        spec.role = role
      }
    }
    guard !spec.url.isEmpty else { throw failure(path, node, "the target has no url", expected: "url: https://…") }
    if !allowLinkLocal, let address = try? WebAddress(spec.url), address.reach == .linkLocal {
      throw failure(
        "\(path).url", urlNode,
        "\(address.host) is a link-local address (where cloud metadata services answer); Statline does not poll it unless told to",
        expected: "a site's address, or allowLinkLocal: true on the target if this is really meant")
    }
    return spec
  }

  /// An http(s) address with a host and a port from 1 to 65535 (`WebAddress`); a link-local one
  /// only where `linkLocal` allows it (a target that says `allowLinkLocal: true`); credentials
  /// only where `credentials` allows them (a sink's, sent as Basic auth and never shown): a
  /// target's URL is its id, stored and shown everywhere.
  func url(_ node: Yams.Node, _ path: String, linkLocal: Bool = false, credentials: Bool = false)
    throws(StatlineError) -> String
  {
    let text = try string(node, path)
    let address: WebAddress
    do {
      address = try WebAddress(text)
    } catch {
      throw failure(path, node, error.reason, expected: "https://host/path (http or https, a port from 1 to 65535)")
    }
    guard credentials || address.user == nil else {
      throw failure(
        path, node,
        "the address carries credentials, which would be stored and shown with the target's id",
        expected: "the address without them, and sources.<source>.headers.Authorization for the credentials")
    }
    guard linkLocal || address.reach != .linkLocal else {
      throw failure(
        path, node, "\(address.host) is a link-local address (where cloud metadata services answer)",
        expected: "a site's address")
    }
    return text
  }

  func source(_ node: Yams.Node, _ path: String) throws(StatlineError) -> JobConfig.SourceSettings {
    var settings = JobConfig.SourceSettings()
    for (key, value) in try pairs(node, path, keys: ConfigKeys.source) {
      switch key {
      case "options": settings.options = try strings(value, "\(path).options")
      case "headers": settings.headers = try strings(value, "\(path).headers")
      case "redirectHosts":
        settings.redirectHosts = try hosts(value, "\(path).redirectHosts", example: "- www.example.edu")
      default: settings.policy = try policy(value, "\(path).policy", base: .default)
      }
    }
    return settings
  }

  /// A list of host names, lower-cased.
  func hosts(_ node: Yams.Node, _ path: String, example: String) throws(StatlineError) -> Set<String> {
    guard let items = node.sequence else { throw failure(path, node, "must be a list", expected: example) }
    return Set(
      try items.enumerated().map { (index, item) throws(StatlineError) in
        try string(item, "\(path)[\(index)]").lowercased()
      })
  }

  func policy(_ node: Yams.Node, _ path: String, base: SchedulingPolicy) throws(StatlineError) -> SchedulingPolicy {
    var policy = base
    for (key, value) in try pairs(node, path, keys: ConfigKeys.policy) {
      let at = "\(path).\(key)"
      switch key {
      case "live": policy.live = try cadence(value, at)
      case "imminent": policy.imminent = try cadence(value, at)
      case "imminentWindow": policy.imminentWindow = try duration(value, at)
      case "idle": policy.idle = try cadence(value, at)
      case "finalPolls": policy.finalPolls = try int(value, at)
      case "finalInterval": policy.finalInterval = try cadence(value, at)
      case "failureBase": policy.failureBase = try cadence(value, at)
      case "failureCap": policy.failureCap = try cadence(value, at)
      default:
        guard case .scalar(let scalar) = value, let jitter = Double(scalar.string), (0...0.5).contains(jitter) else {
          throw failure(at, value, "must be a fraction between 0 and 0.5", expected: "0.1 for ±10 %")
        }
        policy.jitter = jitter
      }
    }
    return policy
  }

  func politeness(
    _ node: Yams.Node, _ path: String, into politeness: inout PoliteFetcher<ContinuousClock>.Configuration
  ) throws(StatlineError) {
    for (key, value) in try pairs(node, path, keys: ConfigKeys.politeness) {
      let at = "\(path).\(key)"
      switch key {
      case "userAgent": politeness.userAgent = try string(value, at)
      case "obeyRobots": politeness.obeyRobots = try bool(value, at)
      case "concurrency": politeness.hostLimits.concurrency = try int(value, at, minimum: 1)
      case "spacing": politeness.hostLimits.spacing = try duration(value, at)
      case "retries": politeness.retry.maxRetries = try int(value, at)
      case "breakerFailures": politeness.breaker.threshold = try int(value, at, minimum: 1)
      case "breakerCooldown": politeness.breaker.cooldown = try duration(value, at)
      default:
        for (host, limits) in try pairs(value, at, keys: []) {
          var hostLimits = politeness.hostOverrides[host] ?? politeness.hostLimits
          for (name, setting) in try pairs(limits, "\(at).\(host)", keys: ConfigKeys.host) {
            if name == "concurrency" {
              hostLimits.concurrency = try int(setting, "\(at).\(host).concurrency", minimum: 1)
            }
            if name == "spacing" { hostLimits.spacing = try duration(setting, "\(at).\(host).spacing") }
          }
          politeness.hostOverrides[host.lowercased()] = hostLimits
        }
      }
    }
  }

  func http(
    _ node: Yams.Node, _ path: String, into http: inout HTTPFetcher.Configuration, redirects: inout RedirectRules
  ) throws(StatlineError) {
    for (key, value) in try pairs(node, path, keys: ConfigKeys.http) {
      let at = "\(path).\(key)"
      switch key {
      case "timeout": http.requestTimeout = try duration(value, at)
      case "connectTimeout": http.connectTimeout = try duration(value, at)
      case "maxBodySize": http.maximumBodyBytes = try bytes(value, at)
      case "privateHosts": http.privateHosts = try hosts(value, at, example: "- scores.lab.internal")
      default: redirects.maximumHops = try int(value, at)
      }
    }
  }
}
