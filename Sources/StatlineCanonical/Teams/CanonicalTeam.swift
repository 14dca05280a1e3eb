/// One school, as the registry knows it (architecture.md#canonical-games): a school's teams in every sport share it
/// (the sport is on the game). Its id, `team:{org id}`, is anchored on the NCAA's org id, stable
/// across seasons and sports, and never changes once served.
public struct CanonicalTeam: Codable, Sendable, Hashable {
  public var id: String
  /// The NCAA's name for the school.
  public var name: String
  /// stats.ncaa.org's org id (`/team/{org}/…`, a StatCrew file's `<team code>`).
  public var orgId: String
  public var espnId: String?
  public var abbreviation: String?
  /// Other names the sources print: ESPN's display name and location, earlier NCAA names, and
  /// the aliases the configuration adds.
  public var names: [String]
  /// stats.ncaa.org season-team ids (`/teams/{id}`, new each season and sport) known to be it.
  public var seasonTeamIds: [String]
  /// StatBroadcast's school code (`schedule.php?gid=…`).
  public var statBroadcastGid: String?

  public init(
    orgId: String, name: String, espnId: String? = nil, abbreviation: String? = nil, names: [String] = [],
    seasonTeamIds: [String] = [], statBroadcastGid: String? = nil
  ) {
    self.id = Self.id(orgId: orgId)
    self.name = name
    self.orgId = orgId
    self.espnId = espnId
    self.abbreviation = abbreviation
    self.names = names
    self.seasonTeamIds = seasonTeamIds
    self.statBroadcastGid = statBroadcastGid
  }

  public static func id(orgId: String) -> String { "\(idPrefix)\(orgId)" }

  /// What every canonical team's id starts with.
  public static let idPrefix = "team:"
}
