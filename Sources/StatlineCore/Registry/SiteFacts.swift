/// What a plugin knows of its sites that code outside the plugin needs (architecture.md#modules):
/// how politely each host must be asked, which feeds its game ids come from and how the merge
/// ranks them, which of its team ids carry a public identity the team registry holds, and how
/// its sites count seasons. The engine, the merge and the server read them
/// from the registry (`SourceRegistry.facts`), so no site is named outside its plugin.
public struct SiteFacts: Sendable, Equatable {
  /// Limits stricter than the defaults, by host name (lower case).
  public var hostLimits: [String: HostLimits]
  /// The feeds the plugin's game ids belong to.
  public var feeds: [SourceFeedFact]
  /// The forms of the plugin's team ids that carry an identity the team registry holds.
  public var teamIds: [TeamIdFact]
  /// How the plugin's sites count seasons, when they do.
  public var seasons: SeasonRule?

  public init(
    hostLimits: [String: HostLimits] = [:], feeds: [SourceFeedFact] = [], teamIds: [TeamIdFact] = [],
    seasons: SeasonRule? = nil
  ) {
    self.hostLimits = hostLimits
    self.feeds = feeds
    self.teamIds = teamIds
    self.seasons = seasons
  }

  /// Several plugins' facts as one: every host and feed (the earlier plugin's where two name the
  /// same one), and the first season rule declared.
  public init(merging all: [SiteFacts]) {
    self.init()
    for facts in all {
      hostLimits.merge(facts.hostLimits) { earlier, _ in earlier }
      feeds += facts.feeds.filter { feed in !feeds.contains { $0.name == feed.name || $0.idPrefix == feed.idPrefix } }
      teamIds += facts.teamIds.filter { form in !teamIds.contains { $0.idPrefix == form.idPrefix } }
      seasons = seasons ?? facts.seasons
    }
  }
}

/// The politeness limits for one host: requests in flight at once, and the time between starts.
public struct HostLimits: Sendable, Equatable {
  public var concurrency: Int
  public var spacing: Duration

  public init(concurrency: Int = 2, spacing: Duration = .milliseconds(50)) {
    self.concurrency = concurrency
    self.spacing = spacing
  }

  /// Politeness lifted, for loopback benchmarks.
  public static let unlimited = HostLimits(concurrency: .max, spacing: .zero)
}

/// One feed of source games: the unit the canonical merge ranks. A plugin with one feed names
/// it by its id prefix (`statbroadcast:`); the NCAA plugin reads two (`ncaa:com-` is ncaa.com,
/// any other `ncaa:` id stats.ncaa.org). The longest prefix that matches a game id wins.
public struct SourceFeedFact: Sendable, Equatable {
  /// The feed's name, as the configuration's `merge.precedence` names it (`stats.ncaa.org`).
  public var name: String
  /// The game-id prefix that marks the feed's games.
  public var idPrefix: String
  /// Its rank for box scores, plays and disputed finals (lower first).
  public var precedence: Int
  /// Its rank for schedule facts: start time, venue, neutral site (lower first).
  public var scheduleRank: Int

  public init(name: String, idPrefix: String, precedence: Int, scheduleRank: Int) {
    self.name = name
    self.idPrefix = idPrefix
    self.precedence = precedence
    self.scheduleRank = scheduleRank
  }
}

/// A form of team id a plugin writes whose rest is a public identity of the school
/// (`ncaa:org-721`: the NCAA's organisation id 721), so the team registry resolves it by id,
/// not by name (architecture.md#canonical-games).
public struct TeamIdFact: Sendable, Equatable {
  /// The identities the registry's seed holds for every school (`Resources/teams.tsv`).
  public enum Identity: String, Sendable, Equatable, CaseIterable {
    /// The NCAA's organisation id, stable across seasons.
    case ncaaOrg
    /// A stats.ncaa.org season team's number (one per school, sport and season).
    case ncaaSeasonTeam
    /// ESPN's team id.
    case espn
    /// ncaa.com's school slug.
    case ncaaComSlug
  }

  /// The prefix of the team id; what follows it is the identity.
  public var idPrefix: String
  public var identity: Identity

  public init(idPrefix: String, identity: Identity) {
    self.idPrefix = idPrefix
    self.identity = identity
  }
}

/// How a site counts seasons: season N runs from `firstMonth` of year N - 1 to the month before
/// it in year N, so it is named by the year it ends in (`firstMonth` 1: the calendar year). One
/// rule for every sport of the site.
public struct SeasonRule: Sendable, Equatable {
  public var firstMonth: Int

  public init(firstMonth: Int) {
    precondition((1...12).contains(firstMonth), "a season starts in a month 1 ... 12")
    self.firstMonth = firstMonth
  }

  /// The calendar year: what a store knows when no plugin says how its site counts.
  public static let calendarYear = SeasonRule(firstMonth: 1)

  /// The season a `YYYY-MM-DD` date is in (nil for a date that is none).
  public func season(of date: String) -> Int? {
    let parts = date.split(separator: "-")
    guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), (1...12).contains(month) else {
      return nil
    }
    return firstMonth > 1 && month >= firstMonth ? year + 1 : year
  }
}
