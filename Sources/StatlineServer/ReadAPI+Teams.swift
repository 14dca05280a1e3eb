import StatlineCanonical
import StatlineCore

/// Teams as the app sees them (architecture.md#canonical-games): one canonical team per school (`team:457`), with
/// the stored source teams that are it (`sourceIds`) and the names the registry knows it by
/// (`aliases`); a source team that resolves to no school is listed as it was stored. A team is
/// asked for by its canonical id or by any of its source ids, and its schedule is its canonical
/// games.
extension ReadAPI {
  /// The stored teams of `sport` (nil: every sport), each school once, by id.
  func canonicalTeams(sport: Sport?) async throws -> [Team] {
    var groups: [String: [Team]] = [:]
    var unmatched: [Team] = []
    for team in try await reader.teams(sport: sport) {
      if let school = registry.resolve(SourceTeam(team))?.team {
        groups[school.id, default: []].append(team)
      } else {
        unmatched.append(team)
      }
    }
    let schools = groups.compactMap { id, sources in registry.team(id: id).map { Self.team($0, sources: sources) } }
    return (schools + unmatched).sorted { $0.id < $1.id }
  }

  /// The canonical team a canonical or source team id names (with the stored source teams that
  /// are it), or the stored source team that resolves to no school; nil when neither knows it.
  func canonicalTeam(id: String) async throws -> Team? {
    if let school = registry.team(id: id) {
      let sources = try await reader.teams(sport: nil).filter { registry.resolve(SourceTeam($0))?.team.id == school.id }
      return Self.team(school, sources: sources)
    }
    guard let stored = try await reader.team(id: id) else { return nil }
    guard let school = registry.resolve(SourceTeam(stored))?.team else { return stored }
    return try await canonicalTeam(id: school.id)
  }

  /// A school as a team record: the registry's name, abbreviation and org id; the conference and
  /// sport its source teams agree on.
  static func team(_ school: CanonicalTeam, sources: [Team]) -> Team {
    let sports = Set(sources.compactMap(\.sport))
    var team = Team(
      id: school.id, name: school.name,
      abbreviation: school.abbreviation ?? sources.lazy.compactMap(\.abbreviation).first,
      conference: sources.lazy.compactMap(\.conference).first, sport: sports.count == 1 ? sports.first : nil,
      ncaaOrgId: school.orgId)
    team.sourceIds = sources.map(\.id).sorted()
    team.aliases = school.names
    // Named once a page shows one: the keeper downloads it (a 404 until it has).
    if sources.contains(where: { $0.logoURL != nil }) { team.logo = "/v1/teams/\(school.id)/logo" }
    return team
  }
}
