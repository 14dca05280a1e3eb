/// A team as a team list or schedule page describes it.
public struct Team: Codable, Sendable, Hashable {
  public var id: String
  public var name: String
  @NullEncoded public var abbreviation: String?
  @NullEncoded public var conference: String?
  @NullEncoded public var sport: Sport?
  /// The school's NCAA org id when the page gives one (a StatCrew file's `<team code>`): the
  /// team registry anchors on it (architecture.md#canonical-games).
  @NullEncoded public var ncaaOrgId: String?
  /// The school's name without its nickname when the page prints both (ESPN's `location`
  /// "Johns Hopkins" beside "Johns Hopkins Blue Jays"; a stats.ncaa.org logo's alt beside the
  /// heading): another name the team registry resolves by.
  @NullEncoded public var shortName: String?
  /// The logo the page shows for the team, as an absolute http(s) URL (absent when it shows
  /// none): the logo keeper downloads it (architecture.md#team-logos); apps never load it.
  public var logoURL: String?

  // A canonical team's, as the read API lists it (architecture.md#canonical-games); absent from a source's team,
  // so its JSON is unchanged.

  /// On a canonical team: the stored source teams that are it.
  public var sourceIds: [String]?
  /// On a canonical team: the other names the registry knows it by.
  public var aliases: [String]?
  /// On a canonical team whose pages show a logo: where Statline serves it
  /// (`/v1/teams/{id}/logo`), from its own host.
  public var logo: String?

  public init(
    id: String, name: String, abbreviation: String? = nil, conference: String? = nil,
    sport: Sport? = nil, ncaaOrgId: String? = nil, shortName: String? = nil, logoURL: String? = nil
  ) {
    self.id = id
    self.name = name
    self.abbreviation = abbreviation
    self.conference = conference
    self.sport = sport
    self.ncaaOrgId = ncaaOrgId
    self.shortName = shortName
    self.logoURL = logoURL
  }
}
