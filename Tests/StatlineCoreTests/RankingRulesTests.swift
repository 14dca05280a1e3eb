import StatlineCore
import Testing

/// What a poll's week must keep to be stored (architecture.md#failure), and how a paged poll's parts make
/// one week.
@Suite struct RankingRulesTests {
  static func week(_ rows: [RankingRow], part: Int? = nil) -> Ranking {
    Ranking(
      poll: "ncaa:com-lacrosse-men-d1-inside-lacrosse", name: "IL", sport: .lacrosseMen, season: 2026,
      edition: "2026-03-01", through: "2026-03-01", part: part, rows: rows)
  }

  static func row(_ rank: Int, _ name: String, tied: Bool = false) -> RankingRow {
    RankingRow(rank: rank, tied: tied, team: TeamRef(name: name))
  }

  @Test func aWellFormedWeekPasses() {
    #expect(
      BatchValidator.problems(in: Batch(rankings: [Self.week([Self.row(1, "Duke"), Self.row(2, "Army")])])).isEmpty)
    #expect(
      BatchValidator.problems(
        in: Batch(rankings: [
          Self.week([Self.row(1, "Duke"), Self.row(2, "Army", tied: true), Self.row(2, "Navy", tied: true)])
        ])
      ).isEmpty)
  }

  @Test(
    arguments: [
      ([RankingRulesTests.row(2, "Duke"), RankingRulesTests.row(1, "Army")], "rank 1 (Army) comes after rank 2"),
      (
        [RankingRulesTests.row(1, "Duke"), RankingRulesTests.row(1, "Army")], "is shared with Duke but not marked tied"
      ),
      ([RankingRulesTests.row(1, "Duke"), RankingRulesTests.row(2, "Duke")], "ranked twice"),
      ([RankingRulesTests.row(0, "Duke")], "is not 1-based"),
      ([RankingRulesTests.row(1, "")], "names no team"),
      ([], "no team is ranked"),
    ] as [([RankingRow], String)])
  func aBrokenWeekIsRefusedWhole(_ rows: [RankingRow], _ problem: String) {
    let problems = BatchValidator.problems(in: Batch(rankings: [Self.week(rows)]))
    #expect(problems.contains { $0.contains(problem) }, "\(problems)")
  }

  @Test func aScreenedPageKeepsItsGoodWeekAndNamesTheBadOne() throws {
    var other = Self.week([Self.row(2, "Duke"), Self.row(1, "Army")])
    other.poll = "ncaa:com-lacrosse-men-d1-usila-coaches"
    other.id = Ranking.id(poll: other.poll, season: 2026, edition: "2026-03-01")
    let screened = try BatchValidator.screen(Batch(rankings: [Self.week([Self.row(1, "Duke")]), other]))
    #expect(screened.rankings.count == 1 && BatchValidator.refusals(of: screened).count == 1)
  }

  @Test func aPagedPollsPartsMergeIntoOneWeekInPartOrder() throws {
    let first = Self.week([Self.row(1, "Duke"), Self.row(2, "Army")])
    let second = Self.week([Self.row(3, "Navy")], part: 2)
    #expect(second.id == first.id + "/p2" && second.weekId == first.id)
    let merged = try #require(Ranking.merged([second, first]))
    #expect(merged.id == first.id && merged.part == nil && merged.rows.map(\.team.name) == ["Duke", "Army", "Navy"])
    var wrong = second
    wrong.part = 1
    #expect(BatchValidator.problems(in: Batch(rankings: [wrong])).contains { $0.contains("part 1") })
  }
}
