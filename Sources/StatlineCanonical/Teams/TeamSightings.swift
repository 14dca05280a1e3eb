import StatlineCore

/// Every source team the store holds (team records, the teams in games, the schools polls rank),
/// resolved through the registry: what `statline teams unmatched` lists, and with where each was
/// seen.
public struct TeamSightings: Sendable {
  /// One source team, as its pages name it.
  public struct Sighting: Sendable, Equatable {
    /// The source id, or the printed name where the page gives no id.
    public var key: String
    public var team: SourceTeam
    /// Games it plays in, and the newest local date among them.
    public var games: Int
    public var lastDate: String?
    /// One game it was seen in (else one poll's week), for an operator to look at.
    public var exampleGame: String?
    public var resolution: TeamResolution?
    /// Why it does not resolve (nil when it does).
    public var reason: String?
  }

  public private(set) var sightings: [Sighting]

  public init(teams: [Team], games: [Game], rankings: [Ranking] = [], registry: TeamRegistry) {
    var byKey: [String: Sighting] = [:]
    func see(_ team: SourceTeam, game: Game?, poll: String? = nil) {
      let key = team.id ?? team.name
      var sighting =
        byKey[key] ?? Sighting(key: key, team: team, games: 0, lastDate: nil, exampleGame: nil, resolution: nil)
      if sighting.team.ncaaOrgId == nil { sighting.team.ncaaOrgId = team.ncaaOrgId }
      if let game {
        sighting.games += 1
        sighting.exampleGame = sighting.exampleGame ?? game.id
        if let date = game.date, date > (sighting.lastDate ?? "") { sighting.lastDate = date }
      }
      if sighting.exampleGame == nil { sighting.exampleGame = poll }
      byKey[key] = sighting
    }
    for team in teams { see(SourceTeam(team), game: nil) }
    for game in games {
      see(SourceTeam(game.away.team), game: game)
      see(SourceTeam(game.home.team), game: game)
    }
    // A poll's school keeps its printed name when it does not resolve: listed, never dropped.
    for ranking in rankings {
      for (team, _) in ranking.namedTeams { see(SourceTeam(team), game: nil, poll: ranking.id) }
    }
    sightings = byKey.values.map { sighting in
      var sighting = sighting
      sighting.resolution = registry.resolve(sighting.team)
      if sighting.resolution == nil { sighting.reason = registry.unresolvedReason(sighting.team) }
      return sighting
    }.sorted { ($0.games, $1.key) > ($1.games, $0.key) }
  }

  public var unmatched: [Sighting] { sightings.filter { $0.resolution == nil } }

  /// How many resolved by each pass.
  public var byPass: [TeamResolution.Pass: Int] {
    sightings.reduce(into: [:]) { counts, sighting in
      if let pass = sighting.resolution?.pass { counts[pass, default: 0] += 1 }
    }
  }
}
