/// Which feed a source game comes from, told by its id: the unit the merge ranks (architecture.md#canonical-games).
/// The NCAA plugin reads two feeds, stats.ncaa.org (`ncaa:6310104`, `ncaa:game-4004130`) and
/// ncaa.com (`ncaa:com-6599987`); every other plugin is one feed, named by its id.
public struct SourceFeed: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(_ rawValue: String) { self.rawValue = rawValue }

  public static let statCrew = SourceFeed("statcrew")
  public static let statsNCAA = SourceFeed("stats.ncaa.org")
  public static let ncaaCom = SourceFeed("ncaa.com")
  public static let espn = SourceFeed("espn")

  /// The feed of a source game id.
  public static func of(gameId: String) -> SourceFeed {
    if gameId.hasPrefix("statbroadcast:") { return .statCrew }
    if gameId.hasPrefix("ncaa:com-") { return .ncaaCom }
    if gameId.hasPrefix("ncaa:") { return .statsNCAA }
    if gameId.hasPrefix("espn:") { return .espn }
    return SourceFeed(String(gameId.prefix { $0 != ":" }))
  }

  /// Box scores, plays and disputed finals: StatCrew first (the scorer's own file), then
  /// stats.ncaa.org, ncaa.com and ESPN; a feed not listed comes after them all.
  public static let defaultPrecedence: [SourceFeed] = [.statCrew, .statsNCAA, .ncaaCom, .espn]

  /// Schedule facts (start time, venue, neutral site): the NCAA's feeds first.
  public static let scheduleOrder: [SourceFeed] = [.statsNCAA, .ncaaCom, .statCrew, .espn]

  public var description: String { rawValue }
}
