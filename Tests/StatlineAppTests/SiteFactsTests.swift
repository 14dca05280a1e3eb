import Foundation
import StatlineApp
import StatlineCanonical
import StatlineCore
import StatlineEngine
import StatlineTesting
import Testing

/// What the plugins declare of their sites is what the job, the merge and the server use; and
/// the copy the tests of the merge use (`TestFeeds`) is the plugins' own.
@Suite struct SiteFactsTests {
  static let feeds = SourceFeeds(BuiltinPlugins.facts.feeds)

  @Test func theTestsFeedsAndTeamIdFormsAreThePluginsOwn() throws {
    #expect(Self.feeds == TestFeeds.feeds)
    #expect(BuiltinPlugins.facts.teamIds == TestFeeds.teamIds)
    #expect(
      try BuiltinPlugins.teamRegistry().resolve(SourceTeam(id: "espn:team-2005", name: "Whatever"))?.team.id
        == "team:721")
  }

  @Test(arguments: [
    ("statbroadcast:640303", "statcrew"), ("ncaa:6310104", "stats.ncaa.org"), ("ncaa:game-4004130", "stats.ncaa.org"),
    ("ncaa:com-6600103", "ncaa.com"), ("espn:401234567", "espn"), ("presto:17", "presto"),
  ])
  func aGameIdsFeedIsTheLongestDeclaredPrefix(_ id: String, _ feed: String) {
    #expect(Self.feeds.feed(of: id) == SourceFeed(feed))
  }

  @Test func theFeedsRankAsTheirPluginsSay() {
    #expect(Self.feeds.precedence.map(\.rawValue) == ["statcrew", "stats.ncaa.org", "ncaa.com", "espn"])
    #expect(Self.feeds.scheduleOrder.map(\.rawValue) == ["stats.ncaa.org", "ncaa.com", "statcrew", "espn"])
    #expect(SourceFeeds.undeclared.feed(of: "ncaa:com-1") == SourceFeed("ncaa"), "no plugin: the id's namespace")
  }

  /// A store a command opens merges as the job's does, by the plugins' feeds: two finals that
  /// disagree keep the scorer's file's (with no feed declared, ESPN's id would sort first).
  @Test func aStoreACommandOpensMergesByThePluginsFeeds() async throws {
    #expect(BuiltinPlugins.canonical.merger.feeds == TestFeeds.feeds)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("feeds-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let store = try await StoreLocation(path).open().store
    _ = try await store.write(Batch(games: [ConflictStatusTests.final("statbroadcast:1", 9, 8)]))
    _ = try await store.write(Batch(games: [ConflictStatusTests.final("espn:401", 8, 8)]))
    let game = try await store.game(id: "game:2026-03-14:lacrosse-men:725~726")
    #expect(game?.conflict?.kept == "statbroadcast:1" && game?.away.score == 9, "\(String(describing: game))")
  }

  @Test func theJobsPolitenessStartsFromThePluginsHostLimits() throws {
    let limits = JobConfig().politeness.hostOverrides
    #expect(limits == ["stats.ncaa.org": HostLimits(concurrency: 1, spacing: .seconds(5))])
    #expect(PoliteFetcher<ContinuousClock>.Configuration().hostOverrides.isEmpty, "the engine names no site")
    let yaml =
      "targets:\n  - url: https://stats.ncaa.org/teams/594020\npoliteness:\n  hosts:\n    stats.ncaa.org:\n      spacing: 10s\n"
    let config = try JobConfigReader.parse(yaml, file: "statline.yml")
    #expect(config.politeness.hostOverrides["stats.ncaa.org"] == HostLimits(concurrency: 1, spacing: .seconds(10)))
  }

  @Test(arguments: [
    ("2025-08-01", 2026), ("2026-07-31", 2026), ("2026-03-07", 2026), ("2025-12-31", 2026), ("2025-07-31", 2025),
  ])
  func aSeasonIsStatsNCAAsAcademicYear(_ date: String, _ season: Int) {
    #expect(BuiltinPlugins.facts.seasons?.season(of: date) == season)
    #expect(SeasonRule.calendarYear.season(of: date) == Int(date.prefix(4)))
  }
}
