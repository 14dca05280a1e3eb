import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

@Suite struct TeamRegistryTests {
  static let registry = try! TeamRegistry.seeded(teamIds: TestFeeds.teamIds)

  func resolved(_ id: String?, _ name: String, org: String? = nil) -> (id: String, pass: TeamResolution.Pass)? {
    Self.registry.resolve(SourceTeam(id: id, name: name, ncaaOrgId: org)).map { ($0.team.id, $0.pass) }
  }

  @Test func theSeedHoldsEverySchoolWithItsIds() throws {
    #expect(Self.registry.teams.count > 1900)
    let unc = try #require(Self.registry.team(id: "team:457"))
    #expect(unc.name == "North Carolina" && unc.espnId == "153" && unc.abbreviation == "UNC")
    #expect(unc.statBroadcastGid == "unc" && unc.names.contains("North Carolina Tar Heels"))
    #expect(Self.registry.team(id: "team:725")?.names.contains("Army") == true)
  }

  /// The ids the real StatCrew files give (STRUCTURE.md): `<team code>` is the org id.
  @Test(arguments: [
    ("457", "team:457"), ("310", "team:310"), ("193", "team:193"), ("756", "team:756"), ("490", "team:490"),
    ("415", "team:415"),
  ])
  func aStatCrewCodeIsTheOrgId(_ code: String, _ canonical: String) {
    let hit = resolved("statbroadcast:team-x", "A Name Nobody Prints", org: code)
    #expect(hit?.id == canonical && hit?.pass == .id)
  }

  @Test func idsInSourceIdsResolveFirst() {
    #expect(resolved("ncaa:org-721", "Whatever")?.id == "team:721")
    #expect(resolved("ncaa:team-609502", "Whatever")?.id == "team:721", "a basketball season-team id")
    #expect(resolved("espn:team-2005", "Whatever")?.id == "team:721")
    #expect(resolved("ncaa:com-team-air-force", "Whatever")?.id == "team:721")
    #expect(resolved("ncaa:com-team-air-force", "Whatever")?.pass == .id)
  }

  /// The id forms are the plugins' (`SiteFacts.teamIds`): a registry told none resolves a team
  /// by its names alone, and one told a form reads the identity after its prefix, whatever the
  /// prefix is.
  @Test func anIdResolvesOnlyByAFormAPluginDeclared() throws {
    let bare = try TeamRegistry.seeded()
    #expect(bare.resolve(SourceTeam(id: "ncaa:org-721", name: "Whatever")) == nil)
    #expect(bare.resolve(SourceTeam(id: "ncaa:org-721", name: "Air Force"))?.pass == .name)
    let other = try TeamRegistry.seeded(teamIds: [TeamIdFact(idPrefix: "presto:school-", identity: .ncaaOrg)])
    #expect(other.resolve(SourceTeam(id: "presto:school-721", name: "Whatever"))?.team.id == "team:721")
    #expect(other.resolve(SourceTeam(id: "ncaa:org-721", name: "Whatever")) == nil)
  }

  /// The names the sources print for one school, each resolved by the pass that should find it.
  @Test(arguments: [
    ("North Carolina", "team:457", TeamResolution.Pass.name), ("NORTH CAROLINA", "team:457", .name),
    ("UNC", "team:457", .alias), ("North Carolina Tar Heels", "team:457", .alias),
    ("Army West Point", "team:725", .name), ("Army", "team:725", .alias),
    ("Saint Joseph's", "team:606", .name), ("St. Joseph's (PA)", "team:606", .name),
    ("Air Force", "team:721", .name), ("Air Force Falcons", "team:721", .alias), ("Lafayette", "team:342", .name),
    ("Michigan State", "team:416", .name), ("Michigan St.", "team:416", .name),
  ])
  func printedNamesResolveByDeterministicPasses(_ name: String, _ canonical: String, _ pass: TeamResolution.Pass) {
    let hit = resolved(nil, name)
    #expect(hit?.id == canonical, "\(name)")
    #expect(hit?.pass == pass, "\(name)")
  }

  /// ESPN prints "Johns Hopkins Blue Jays" (a name no seed lists: the school plays no Division I
  /// basketball) with its location "Johns Hopkins": the short name finds it.
  @Test func theShortNameIsTriedAfterTheName() {
    let hopkins = SourceTeam(id: "espn:team-118", name: "Johns Hopkins Blue Jays", shortName: "Johns Hopkins")
    #expect(Self.registry.resolve(SourceTeam(id: nil, name: "Johns Hopkins Blue Jays")) == nil)
    let hit = Self.registry.resolve(hopkins)
    #expect(hit?.team.name == "Johns Hopkins" && hit?.pass == .name && hit?.matched == "name 'johns hopkins'")
  }

  @Test func anAmbiguousNameResolvesToNoneAndSaysWhichItCouldBe() {
    let miami = SourceTeam(id: nil, name: "Miami (PA)")
    #expect(Self.registry.resolve(SourceTeam(id: nil, name: "Miami (FL)"))?.team.id == "team:415")
    #expect(Self.registry.resolve(miami) == nil, "Miami (PA) is no school; Miami alone is two")
    #expect(Self.registry.unresolvedReason(miami).contains("could be"), "\(Self.registry.unresolvedReason(miami))")
    let nobody = SourceTeam(id: "statbroadcast:team-ncb", name: "NC Brooklyn")
    #expect(Self.registry.resolve(nobody) == nil)
    #expect(
      Self.registry.unresolvedReason(nobody) == "no school goes by 'NC Brooklyn' or by the id statbroadcast:team-ncb")
  }

  @Test func configuredAliasesWinAndAreCheckedAtStart() throws {
    let registry = try TeamRegistry.seeded(aliases: [
      "NC Brooklyn": "457", "statbroadcast:team-north-ca": "team:457", "Army": "team:721",
    ])
    #expect(registry.resolve(SourceTeam(id: nil, name: "nc brooklyn"))?.team.id == "team:457")
    #expect(registry.resolve(SourceTeam(id: "statbroadcast:team-north-ca", name: "NORTH CA"))?.pass == .configured)
    #expect(registry.resolve(SourceTeam(id: nil, name: "Army"))?.team.id == "team:721", "the operator's word wins")
    let error = #expect(throws: StatlineError.self) { try TeamRegistry.seeded(aliases: ["X": "999999999"]) }
    #expect(error?.kind == .configuration && error?.reason.contains("'X' maps to '999999999'") == true)
  }
}

@Suite struct TeamQualifierTests {
  static let registry = TeamRegistryTests.registry

  /// Qualifiers are where a fuzzy join would go wrong: each of these must resolve to exactly the
  /// school named, or to none.
  @Test(arguments: [
    ("St. Joseph's (PA)", "team:606"), ("St. Joseph's (IN)", "team:604"), ("Saint Joseph's", "team:606"),
    ("Miami (FL)", "team:415"), ("Miami (OH)", "team:414"), ("Loyola Maryland", "team:369"),
    ("Loyola Chicago", "team:371"), ("Saint Mary's (CA)", "team:610"), ("St. Mary's (MD)", "team:611"),
  ])
  func aQualifiedNameIsTheSchoolItQualifies(_ name: String, _ canonical: String) {
    #expect(Self.registry.resolve(SourceTeam(id: nil, name: name))?.team.id == canonical, "\(name)")
  }

  @Test(arguments: ["Loyola", "Loyola (MD)", "Miami", "Saint Mary's", "St. Mary's"])
  func aNameSeveralSchoolsGoByIsNone(_ name: String) {
    #expect(Self.registry.resolve(SourceTeam(id: nil, name: name)) == nil, "\(name)")
  }
}
