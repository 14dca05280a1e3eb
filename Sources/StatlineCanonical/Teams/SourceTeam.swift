import StatlineCore

/// A team as one source names it: its source id (`ncaa:team-594020`, `statbroadcast:team-iona`),
/// the name the page prints, and an NCAA org id when the page gives one (a StatCrew file's
/// `<team code>`).
public struct SourceTeam: Sendable, Hashable {
  public var id: String?
  public var name: String
  public var ncaaOrgId: String?
  /// The name without the nickname, when the page prints it too (`Team.shortName`).
  public var shortName: String?

  public init(id: String?, name: String, ncaaOrgId: String? = nil, shortName: String? = nil) {
    self.id = id
    self.name = name
    self.ncaaOrgId = ncaaOrgId
    self.shortName = shortName
  }

  public init(_ team: Team) {
    self.init(id: team.id, name: team.name, ncaaOrgId: team.ncaaOrgId, shortName: team.shortName)
  }

  public init(_ ref: TeamRef) { self.init(id: ref.id, name: ref.name) }
}
