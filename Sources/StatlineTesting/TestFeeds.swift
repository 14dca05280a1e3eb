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

  /// The seeded registry with these feeds: what a job's store merges with, less its
  /// configuration.
  public static let canonical: CanonicalStep = {
    do {
      return CanonicalStep(merger: GameMerger(feeds: feeds, registry: try TeamRegistry.seeded()))
    } catch {
      fatalError("the team registry's seed does not load: \(error)")
    }
  }()

  /// A planner that merges with `canonical` and derives events: what a test's store writes with.
  public static let planner = CommitPlanner(canonical: canonical)
}
