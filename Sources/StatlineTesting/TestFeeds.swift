import StatlineCanonical
import StatlineCommit
import StatlineCore

/// The feeds the built-in plugins declare (`SiteFacts.feeds`), for tests of the merge and of the
/// stores that link no plugin. `SiteFactsTests` (in `StatlineAppTests`) holds this copy to the
/// plugins' own declarations, so it cannot drift from them.
public enum TestFeeds {
  public static let facts: [SourceFeedFact] = [
    SourceFeedFact(name: "statcrew", idPrefix: "statbroadcast:", precedence: 0, scheduleRank: 2),
    SourceFeedFact(name: "stats.ncaa.org", idPrefix: "ncaa:", precedence: 1, scheduleRank: 0),
    SourceFeedFact(name: "ncaa.com", idPrefix: "ncaa:com-", precedence: 2, scheduleRank: 1),
    SourceFeedFact(name: "espn", idPrefix: "espn:", precedence: 3, scheduleRank: 3),
  ]

  public static let feeds = SourceFeeds(facts)

  /// The team-id forms the built-in plugins declare (`SiteFacts.teamIds`).
  public static let teamIds: [TeamIdFact] = [
    TeamIdFact(idPrefix: "ncaa:org-", identity: .ncaaOrg),
    TeamIdFact(idPrefix: "ncaa:team-", identity: .ncaaSeasonTeam),
    TeamIdFact(idPrefix: "ncaa:com-team-", identity: .ncaaComSlug),
    TeamIdFact(idPrefix: "espn:team-", identity: .espn),
  ]

  /// The seeded registry resolving those forms.
  public static let registry: TeamRegistry = {
    do {
      return try TeamRegistry.seeded(teamIds: teamIds)
    } catch {
      fatalError("the team registry's seed does not load: \(error)")
    }
  }()

  /// The seeded registry with these feeds: what a job's store merges with, less its
  /// configuration.
  public static let canonical = CanonicalStep(merger: GameMerger(feeds: feeds, registry: registry))

  /// A planner that merges with `canonical` and derives events: what a test's store writes with.
  public static let planner = CommitPlanner(canonical: canonical)
}
