import Foundation
import StatlineCore
import StatlineSQLite
import StatlineTesting
import Testing

/// `statline teams unmatched` and `statline teams resolve`, as a user runs them.
@Suite struct TeamsCommandTests {
  static func store() async throws -> (folder: URL, store: String) {
    let folder = try JobCommandTests.folder()
    let path = folder.appendingPathComponent("store.sqlite").path
    let game = Game(
      id: "statbroadcast:640301", sport: .lacrosseMen, status: .final, date: "2026-03-14",
      away: TeamLine(team: TeamRef(id: "statbroadcast:team-loyola", name: "Loyola (MD)"), score: 9),
      home: TeamLine(team: TeamRef(id: "statbroadcast:team-army", name: "Army West Point"), score: 11))
    _ = try await SQLiteStore(path: path).write(Batch(games: [game]))
    return (folder, path)
  }

  @Test func unmatchedTeamsAreListedWithWhereAndWhyAndAnAliasMapsThem() async throws {
    let (folder, store) = try await Self.store()
    let listed = try CommandRunner.run(["teams", "unmatched", "--store", store])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains("2 source teams: 1 resolve (1 by name), 1 do not"), "\(listed.stdout)")
    #expect(listed.stdout.contains("statbroadcast:team-loyola"), "\(listed.stdout)")
    #expect(listed.stdout.contains("2026-03-14") && listed.stdout.contains("statbroadcast:640301"))
    #expect(
      listed.stdout.contains(
        "no school goes by 'Loyola (MD)' or by the id statbroadcast:team-loyola; named like it: Loyola (LA) (team:502812)"
      ),
      "a school with another qualifier is named, never taken")

    let config = folder.appendingPathComponent("statline.yml")
    try """
    store: \(store)
    targets:
      - url: https://stats.ncaa.org/teams/594020
    teams:
      aliases:
        "Loyola (MD)": 369
    """.write(to: config, atomically: true, encoding: .utf8)
    let mapped = try CommandRunner.run(["teams", "unmatched", "--config", config.path])
    #expect(mapped.status == 0 && mapped.stdout.contains("2 source teams: 2 resolve"), "\(mapped.stdout)")
    #expect(mapped.stdout.contains("1 by configured"), "\(mapped.stdout)")
  }

  /// A poll's school that resolves to no canonical team is listed with the poll's week, never dropped.
  @Test func aPollsUnresolvedSchoolIsListedWithItsWeek() async throws {
    let (_, store) = try await Self.store()
    let week = Ranking(
      poll: "ncaa:com-lacrosse-men-d1-inside-lacrosse", name: "IL", sport: .lacrosseMen, season: 2026,
      edition: "2026-03-01", through: "2026-03-01",
      rows: [
        RankingRow(rank: 1, team: TeamRef(name: "Duke")), RankingRow(rank: 2, team: TeamRef(name: "Nowhere State")),
      ])
    _ = try await SQLiteStore(path: store).write(Batch(rankings: [week]))
    let listed = try CommandRunner.run(["teams", "unmatched", "--store", store])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(listed.stdout.contains("4 source teams: 2 resolve (2 by name), 2 do not"), "\(listed.stdout)")
    let line = try #require(listed.stdout.split(separator: "\n").first { $0.contains("Nowhere State") })
    #expect(line.contains(week.id), "seen in the poll's week: \(line)")
  }

  @Test func resolveSaysWhichTeamAndByWhichPassAndFailsForAnUnknownName() throws {
    let run = try CommandRunner.run(["teams", "resolve", "Army West Point", "ncaa:org-721", "UNC", "NC Brooklyn"])
    #expect(run.status == 1)
    #expect(run.stdout.contains("Army West Point → team:725 Army West Point (by name"), "\(run.stdout)")
    #expect(run.stdout.contains("ncaa:org-721 → team:721 Air Force (by id: org id 721)"), "\(run.stdout)")
    #expect(run.stdout.contains("UNC → team:457 North Carolina (by alias"), "\(run.stdout)")
    #expect(run.stdout.contains("NC Brooklyn → none: no school goes by 'NC Brooklyn'"), "\(run.stdout)")
  }

  @Test func anAliasToNoTeamStopsTheConfigurationAtStart() throws {
    let folder = try JobCommandTests.folder()
    let config = folder.appendingPathComponent("statline.yml")
    try """
    targets:
      - url: https://stats.ncaa.org/teams/594020
    teams:
      aliases:
        "Loyola (MD)": 99999999
    """.write(to: config, atomically: true, encoding: .utf8)
    let run = try CommandRunner.run(["teams", "resolve", "--config", config.path, "Loyola (MD)"])
    #expect(run.status != 0)
    #expect(run.stderr.contains("teams.aliases: 'Loyola (MD)' maps to '99999999'"), "\(run.stderr)")
  }
}
