import Foundation
import StatlineCanonical
import StatlineCore
import StatlineEngine
import StatlineServer

/// The scrape job's configuration (`statline.yml`): what to watch, how often, how politely, and
/// where to store it. Every field has a default except `targets`.
public struct JobConfig: Sendable {
  /// One configured target; game targets are usually discovered, not listed.
  public struct TargetSpec: Sendable, Equatable {
    public var url: String
    /// The parser id; when absent, the parser that claims the URL.
    public var parser: String?
    /// `discovery` or `game`; when absent, `discovery` for a parser that discovers games.
    public var role: Target.Role?
    public init(url: String, parser: String? = nil, role: Target.Role? = nil) {
      self.url = url
      self.parser = parser
      self.role = role
    }
  }

  /// Per-source settings, by plugin id.
  public struct SourceSettings: Sendable, Equatable {
    public var options: [String: String] = [:]
    /// Extra request headers (a `Referer`, for example).
    public var headers: [String: String] = [:]
    public var policy: SchedulingPolicy?
    /// Hosts (or sites) outside the target's site that its redirects may lead to.
    public var redirectHosts: Set<String> = []
    public init() {}
  }

  public var store = "statline.sqlite"
  public var targets: [TargetSpec] = []
  public var sources: [String: SourceSettings] = [:]
  /// GenericHTML configs to load.
  public var configs: [String] = []
  public var policy = SchedulingPolicy.default
  /// Politeness; its host limits start from the built-in plugins' (`SiteFacts.hostLimits`:
  /// stats.ncaa.org one request at a time, 5 s apart), and `politeness.<host>` adjusts them.
  public var politeness: PoliteFetcher<ContinuousClock>.Configuration = {
    var politeness = PoliteFetcher<ContinuousClock>.Configuration()
    politeness.hostOverrides = BuiltinPlugins.facts.hostLimits
    return politeness
  }()
  public var http = HTTPFetcher.Configuration()
  public var maxConcurrentPolls = 32
  /// The most targets one poll of a page creates; the rest come with its next polls.
  public var maxTargetsPerPage = 1_000
  public var summaryEvery: Duration = .seconds(60)
  /// Captures beyond the newest `keep`, or older than `maxAge`, are pruned as the job runs.
  public var capturesKeep = 500
  public var capturesMaxAge: Duration = .seconds(14 * 24 * 3600)
  /// All captures' pages together at most this many bytes (the oldest go first), each page at
  /// most `capturesMaxPageBytes` (its start kept, marked truncated).
  public var capturesMaxBytes: Int64 = 256 << 20
  public var capturesMaxPageBytes = 2 << 20
  /// `sports:`: the sports whose games get game targets (nil: all that a parser reads).
  public var sports: Set<Sport>?
  /// `teams.aliases`: a source team id or a printed name → the canonical team it is (`team:457`
  /// or the NCAA org id `457`), for names the registry cannot resolve on its own.
  public var teamAliases: [String: String] = [:]
  /// Each sport's primary poll (`rankings.primary`): the read API gives a game's team line
  /// without a rank of its own the team's rank in it.
  public var primaryPolls: [Sport: String] = [:]
  /// `merge.precedence`: which feed's box score, plays and disputed final a canonical game takes
  /// first (nil: StatCrew, stats.ncaa.org, ncaa.com, ESPN; a feed not listed comes after).
  public var mergePrecedence: [SourceFeed]?
  /// Where change events go (none: they are only kept in the store, for `statline events`).
  public var sinks: [SinkSpec] = []
  /// How workers sharing a PostgreSQL store split the schedule (ignored on SQLite).
  public var cluster = ClusterSettings()
  /// `push:`: the push evaluator and its senders (nil: no pushes are sent).
  public var push: PushSettings?
  /// `api.deviceKeys`: the hashes (`sha256:…`) of the API keys that may write devices through
  /// `run --serve` (none: the device routes are not served).
  public var deviceKeyHashes: [String] = []
  /// `api.readRate`, `api.readBurst`, `api.maxConcurrentPerClient`: what one client address may
  /// ask of `run --serve` (off by default).
  public var clientLimits = ClientLimits()
  /// `api.writeRate`, `api.writeBurst`: the device routes' rate per client address.
  public var deviceLimits = DeviceRoutes.Limits()
  /// `logos:`: whether `run` downloads the team logos its pages show (off by default: they come
  /// from hosts the targets do not name, such as a CDN), and how.
  public var logos = LogoSettings()

  /// The `logos:` section (architecture.md#team-logos).
  public struct LogoSettings: Sendable, Equatable {
    public var enabled = false
    public var keeper = LogoKeeperConfiguration()
    public init() {}
  }

  /// The `cluster:` section.
  public struct ClusterSettings: Sendable, Equatable {
    /// A claimed target stays the worker's this long without a renewal.
    public var lease: Duration = .seconds(60)
    /// How often a worker asks for due targets.
    public var claimEvery: Duration = .seconds(1)
    /// How often a worker renews its leases and beats its heartbeat.
    public var renewEvery: Duration = .seconds(15)
    /// This worker's id (default: host-pid-random); `--worker-id` overrides.
    public var workerId: String?
    public init() {}
  }

  public init() {}

  /// The plugin settings this configuration gives.
  public var pluginSettings: PluginSettings {
    PluginSettings(configFiles: configs, options: sources.mapValues(\.options).filter { !$0.value.isEmpty })
  }

  /// The configured targets, each with its parser and role resolved against `registry`.
  public func resolvedTargets(_ registry: SourceRegistry) throws(StatlineError) -> [Target] {
    var result: [Target] = []
    for index in targets.indices { result.append(try resolvedTarget(index, registry)) }
    return result
  }

  /// The target at `index` with its parser (named, else the one that claims its URL) and role.
  public func resolvedTarget(_ index: Int, _ registry: SourceRegistry) throws(StatlineError) -> Target {
    let spec = targets[index]
    let path = "targets[\(index)]"
    let entry: ParserEntry
    if let id = spec.parser {
      guard let found = registry.parser(id: id) else {
        throw StatlineError(
          .configuration, "\(path).parser: no parser is named '\(id)'",
          hint: "one of: \(registry.parsers.map(\.id).joined(separator: ", "))")
      }
      entry = found
    } else {
      let claiming = registry.parsers.filter { $0.claims(url: spec.url) }.sorted { $0.priority > $1.priority }
      guard let first = claiming.first else {
        throw StatlineError(
          .configuration, "\(path).url: no parser claims \(spec.url)",
          hint: "name one with `parser:`; `statline sources` lists them")
      }
      entry = first
    }
    return Target(url: spec.url, source: entry.source, parser: entry.id, role: spec.role ?? entry.role)
  }
}
