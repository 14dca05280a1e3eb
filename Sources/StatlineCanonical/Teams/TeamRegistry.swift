import StatlineCore

/// Canonical teams, one per school, with every id and name the sources use (architecture.md#canonical-games).
///
/// A source team resolves by deterministic passes (`TeamResolution.Pass`): a configured alias,
/// then an id the page gives, then its name by `TeamName`'s rules, then another name the school
/// goes by. A key two schools share (`Miami`: Miami (FL) and Miami (OH)) resolves to neither: it
/// is ambiguous, and `unresolvedReason` names the candidates. A source's qualifier may be dropped
/// to find a school named without one (`St. Joseph's (PA)` → `Saint Joseph's`), never the
/// reverse (`Loyola` is not `Loyola (LA)`). Nothing is ever guessed.
public struct TeamRegistry: Sendable {
  /// The schools and their keys, built once and shared by every copy: a merge copies its
  /// registry with its merger, and a copy is then one reference, not a dozen tables.
  private let tables: Tables

  private final class Tables: Sendable {
    let teams: [CanonicalTeam]
    let byId: [String: Int]
    let byOrg: [String: Int]
    let bySeasonTeam: [String: Int]
    let byESPN: [String: Int]
    let bySlug: KeyIndex
    let byKey: KeyIndex
    let byUnqualified: KeyIndex
    let byAlias: KeyIndex
    let configuredIds: [String: Int]
    let configuredNames: [String: Int]
    let teamIds: [TeamIdFact]

    init(_ registry: Builder) {
      teams = registry.teams
      byId = registry.byId
      byOrg = registry.byOrg
      bySeasonTeam = registry.bySeasonTeam
      byESPN = registry.byESPN
      bySlug = registry.bySlug
      byKey = registry.byKey
      byUnqualified = registry.byUnqualified
      byAlias = registry.byAlias
      configuredIds = registry.configuredIds
      configuredNames = registry.configuredNames
      teamIds = registry.teamIds
    }
  }

  /// The tables as `init` fills them.
  private struct Builder {
    var teams: [CanonicalTeam]
    var byId: [String: Int] = [:]
    var byOrg: [String: Int] = [:]
    var bySeasonTeam: [String: Int] = [:]
    var byESPN: [String: Int] = [:]
    var bySlug = KeyIndex()
    var byKey = KeyIndex()
    var byUnqualified = KeyIndex()
    var byAlias = KeyIndex()
    var configuredIds: [String: Int] = [:]
    var configuredNames: [String: Int] = [:]
    var teamIds: [TeamIdFact] = []
  }

  public var teams: [CanonicalTeam] { tables.teams }
  private var byId: [String: Int] { tables.byId }
  private var byOrg: [String: Int] { tables.byOrg }
  private var bySeasonTeam: [String: Int] { tables.bySeasonTeam }
  private var byESPN: [String: Int] { tables.byESPN }
  private var bySlug: KeyIndex { tables.bySlug }
  private var byKey: KeyIndex { tables.byKey }
  private var byUnqualified: KeyIndex { tables.byUnqualified }
  private var byAlias: KeyIndex { tables.byAlias }
  private var configuredIds: [String: Int] { tables.configuredIds }
  private var configuredNames: [String: Int] { tables.configuredNames }

  /// The seed (every school with an NCAA org id, from public data), with the configuration's
  /// aliases: a source id (`statbroadcast:team-north-ca`) or a printed name (`NC Brooklyn`) →
  /// `team:457` or `457`.
  ///
  /// - Parameter teamIds: the plugins' team-id forms that carry an identity the seed holds
  ///   (`SiteFacts.teamIds`, `SourceRegistry.facts`); without them a team resolves by alias
  ///   and name only.
  public static func seeded(aliases: [String: String] = [:], teamIds: [TeamIdFact] = []) throws(StatlineError)
    -> TeamRegistry
  {
    try TeamRegistry(teams: TeamSeed.loaded.get(), aliases: aliases, teamIds: teamIds)
  }

  public init(teams: [CanonicalTeam], aliases: [String: String] = [:], teamIds: [TeamIdFact] = [])
    throws(StatlineError)
  {
    var built = Builder(teams: teams)
    built.teamIds = teamIds
    try Self.fill(&built, aliases: aliases)
    tables = Tables(built)
  }

  private static func fill(_ registry: inout Builder, aliases: [String: String]) throws(StatlineError) {
    let teams = registry.teams
    for (index, team) in teams.enumerated() {
      registry.byId[team.id] = index
      registry.byOrg[team.orgId] = index
      for season in team.seasonTeamIds { registry.bySeasonTeam[season] = index }
      if let espn = team.espnId { registry.byESPN[espn] = index }
      registry.byKey.add(TeamName.key(team.name), index)
      if let unqualified = TeamName.unqualifiedKey(team.name) { registry.byUnqualified.add(unqualified, index) }
      registry.bySlug.add(TeamName.slug(team.name), index)
      for name in team.names {
        registry.byAlias.add(TeamName.key(name), index)
        registry.bySlug.add(TeamName.slug(name), index)
      }
      if let abbreviation = team.abbreviation { registry.byAlias.add(TeamName.key(abbreviation), index) }
    }
    for (source, target) in aliases.sorted(by: { $0.key < $1.key }) {
      let canonical = target.hasPrefix("team:") ? target : CanonicalTeam.id(orgId: target)
      guard let index = registry.byId[canonical] else {
        throw StatlineError(
          .configuration, "teams.aliases: '\(source)' maps to '\(target)', which is no team in the registry",
          hint: "give the school's NCAA org id (the number in stats.ncaa.org/team/{org}/…) or its id team:{org}")
      }
      if source.contains(":") {
        registry.configuredIds[source] = index
      } else {
        registry.configuredNames[TeamName.key(source)] = index
        registry.teams[index].names.append(source)
      }
    }
  }

  public func team(id: String) -> CanonicalTeam? { byId[id].map { teams[$0] } }

  /// The canonical team a source team is, or nil when no pass finds exactly one. The name passes
  /// try the printed name, then the short name (`Johns Hopkins` for `Johns Hopkins Blue Jays`).
  public func resolve(_ source: SourceTeam) -> TeamResolution? {
    let names = [source.name] + (source.shortName.map { [$0] } ?? [])
    if let id = source.id, let hit = found(configuredIds[id], .configured, "alias for '\(id)'") { return hit }
    for name in names {
      if let hit = found(configuredNames[TeamName.key(name)], .configured, "alias '\(name)'") { return hit }
    }
    if let org = source.ncaaOrgId, let hit = found(byOrg[org], .id, "org id \(org)") { return hit }
    if let hit = idMatch(source.id) { return hit }
    for name in names {
      if let hit = byName(name) { return hit }
    }
    for name in names {
      if let hit = byOtherName(name) { return hit }
    }
    return nil
  }

  private func found(_ index: Int?, _ pass: TeamResolution.Pass, _ matched: String) -> TeamResolution? {
    index.map { TeamResolution(team: teams[$0], pass: pass, matched: matched) }
  }

  /// "St. Joseph's (PA)" is the school named "Saint Joseph's" with no qualifier: a school named
  /// with another qualifier ("St. Joseph's (IN)") is ruled out by it. The reverse never holds: a
  /// plain "Loyola" is not "Loyola (LA)", whatever else goes by Loyola.
  private func byName(_ name: String) -> TeamResolution? {
    let key = TeamName.key(name)
    if let hit = found(byKey.one(key), .name, "name '\(key)'") { return hit }
    guard let unqualified = TeamName.unqualifiedKey(name) else { return nil }
    return found(byKey.one(unqualified), .name, "name '\(unqualified)'")
  }

  /// Another name, when no school with a qualifier goes by it too ("Miami" is ESPN's for Miami
  /// (FL), but Miami (OH) is Miami as well).
  private func byOtherName(_ name: String) -> TeamResolution? {
    let key = TeamName.key(name)
    guard let index = byAlias.one(key), byUnqualified.all(key).allSatisfy({ $0 == index }) else { return nil }
    return found(index, .alias, "other name '\(key)'")
  }

  /// Why a source team does not resolve: the schools an ambiguous key names, the schools named
  /// like it, or that nothing is.
  public func unresolvedReason(_ source: SourceTeam) -> String {
    let keys = [TeamName.key(source.name)] + (TeamName.unqualifiedKey(source.name).map { [$0] } ?? [])
    var candidates: [Int] = []
    for key in keys {
      for index in [byKey, byUnqualified, byAlias] {
        for found in index.all(key) where !candidates.contains(found) { candidates.append(found) }
      }
    }
    let names = candidates.sorted().map { "\(teams[$0].name) (\(teams[$0].id))" }.joined(separator: ", ")
    if candidates.count > 1 { return "'\(source.name)' could be \(names)" }
    let nobody = "no school goes by '\(source.name)'" + (source.id.map { " or by the id \($0)" } ?? "")
    return candidates.isEmpty ? nobody : nobody + "; named like it: \(names)"
  }

  /// A team id of a form a plugin declared (`SiteFacts.teamIds`), by the identity after its prefix.
  private func idMatch(_ id: String?) -> TeamResolution? {
    guard let id else { return nil }
    for form in tables.teamIds where id.hasPrefix(form.idPrefix) {
      let native = String(id.dropFirst(form.idPrefix.count))
      let found: Int? =
        switch form.identity {
        case .ncaaOrg: byOrg[native]
        case .ncaaSeasonTeam: bySeasonTeam[native]
        case .espn: byESPN[native]
        case .ncaaComSlug: bySlug.one(native)
        }
      if let found {
        return TeamResolution(team: teams[found], pass: .id, matched: "\(form.identity.what) \(native)")
      }
    }
    return nil
  }
}

extension TeamIdFact.Identity {
  /// How a resolution names it.
  var what: String {
    switch self {
    case .ncaaOrg: "org id"
    case .ncaaSeasonTeam: "season-team id"
    case .espn: "ESPN id"
    case .ncaaComSlug: "ncaa.com slug"
    }
  }
}

/// Keys to schools; a key two schools share resolves to neither.
struct KeyIndex: Sendable {
  private var entries: [String: [Int]] = [:]

  mutating func add(_ key: String, _ index: Int) {
    guard !key.isEmpty else { return }
    if !(entries[key]?.contains(index) ?? false) { entries[key, default: []].append(index) }
  }

  func one(_ key: String) -> Int? {
    guard let found = entries[key], found.count == 1 else { return nil }
    return found[0]
  }

  func all(_ key: String) -> [Int] { entries[key] ?? [] }
}
