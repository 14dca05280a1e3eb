import StatlineCore

/// Which feed a source game comes from: the unit the merge ranks (architecture.md#canonical-games).
/// The feeds and their ranks are the plugins' (`SiteFacts.feeds`), read through `SourceFeeds`.
public struct SourceFeed: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public var description: String { rawValue }
}

/// The plugins' feeds, found by a game id's prefix, with the two orders the merge ranks them in.
public struct SourceFeeds: Sendable, Equatable {
  /// The declared feeds, longest id prefix first (the first that matches an id is its feed).
  public let facts: [SourceFeedFact]
  /// Box scores, plays and disputed finals: the declared feeds by precedence. A feed not listed
  /// comes after them all.
  public let precedence: [SourceFeed]
  /// Schedule facts (start time, venue, neutral site), likewise.
  public let scheduleOrder: [SourceFeed]

  public init(_ facts: [SourceFeedFact]) {
    self.facts = facts.sorted { ($0.idPrefix.count, $1.idPrefix) > ($1.idPrefix.count, $0.idPrefix) }
    precedence = facts.sorted { ($0.precedence, $0.name) < ($1.precedence, $1.name) }.map { SourceFeed($0.name) }
    scheduleOrder = facts.sorted { ($0.scheduleRank, $0.name) < ($1.scheduleRank, $1.name) }.map {
      SourceFeed($0.name)
    }
  }

  /// The feeds the registry's plugins declare.
  public init(registry: SourceRegistry) { self.init(registry.facts.feeds) }

  /// No feed declared: each source id's namespace (`espn` of `espn:401`) is its own feed, none
  /// ranked before another.
  public static let undeclared = SourceFeeds([])

  /// The feed of a source game id: the declared feed of the longest prefix it has, else its
  /// namespace (what comes before the first colon).
  public func feed(of gameId: String) -> SourceFeed {
    if let fact = facts.first(where: { gameId.hasPrefix($0.idPrefix) }) { return SourceFeed(fact.name) }
    return SourceFeed(String(gameId.prefix { $0 != ":" }))
  }
}
