import Foundation
import StatlineApp
import StatlineCanonical
import StatlineCore
import StatlineTesting
import Testing

/// The `statline` executable, run as a user would run it.
@Suite struct CommandLineTests {
  func run(_ arguments: String...) throws -> CommandRunner.Output {
    try CommandRunner.run(arguments)
  }

  @Test func versionPrintsTheVersion() throws {
    let output = try run("--version")
    #expect(
      output.status == 0 && output.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == StatlineVersion.current)
  }

  @Test func sourcesListsPluginsParsersAndPatterns() throws {
    let output = try run("sources")
    #expect(output.status == 0)
    #expect(output.stdout.contains("generic-html — Generic HTML"))
    #expect(output.stdout.contains("  ncaa-team-schedule [html, priority 10]"))
    #expect(output.stdout.contains("    url: ^https?://(www\\.)?statbroadcast\\.com/events/schedule\\.php"))
    // Each parser says which sports it reads.
    let lines = output.stdout.split(separator: "\n").map(String.init)
    func sports(of parser: String) -> String? {
      guard let at = lines.firstIndex(where: { $0.hasPrefix("  \(parser) [") }) else { return nil }
      return lines[(at + 1)...].first { $0.hasPrefix("    sports: ") }
    }
    #expect(
      sports(of: "ncaa-gql-boxscore")
        == "    sports: basketball-men, basketball-women, lacrosse-men, lacrosse-women, soccer-men, soccer-women")
    #expect(
      sports(of: "ncaa-stats-contest-box")
        == "    sports: baseball, basketball-men, basketball-women, field-hockey, football, ice-hockey-men, "
        + "ice-hockey-women, lacrosse-men, lacrosse-women, soccer-men, soccer-women, softball, volleyball-men, "
        + "volleyball-women")
    #expect(
      sports(of: "ncaa-gql-pbp")
        == "    sports: basketball-men, basketball-women, football, lacrosse-men, lacrosse-women")
    #expect(sports(of: "statbroadcast-game-xml")?.contains("baseball, basketball-men") == true)
    #expect(sports(of: "ncaa-stats-scoreboard")?.hasPrefix("    sports: any") == true)
  }

  @Test func replayPrintsATableOfGames() throws {
    let output = try run("replay", "Fixtures/GenericHTML/ncaa-team-schedule/edge-cases")
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("8 games, 1 team, 0 box scores, 0 plays"))
    #expect(output.stdout.contains("2026-02-14  final      lacrosse-men  Navy              10-11  #5 Johns Hopkins"))
  }

  /// Two NCAA feeds' boards of one day (ncaa.com names teams its own way, one game is final on
  /// one board and in an unknown state on the other): each game once, with both sources.
  @Test func replayMergeShowsEachGameOnceWithItsSources() throws {
    let boards = ["Fixtures/NCAA/ncaa-gql-contests/mixed-day", "Fixtures/NCAA/ncaa-stats-scoreboard/mixed-day"]
    let output = try CommandRunner.run(["replay", "--merge"] + boards)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("8 canonical games from 11 source games"), "\(output.stdout)")
    let duke = try #require(output.stdout.split(separator: "\n").first { $0.contains("Duke") })
    #expect(duke.contains("game:2026-03-07:lacrosse-men:193~746") && duke.contains("ncaa:6500203, ncaa:com-6600002"))
    let navy = try #require(output.stdout.split(separator: "\n").first { $0.contains("Navy") })
    #expect(navy.contains("final") && navy.contains("7-6"), "the final board's game, not the unknown one's")

    let json = try CommandRunner.run(["replay", "--merge", "--json"] + boards)
    let merged = try JSONDecoder().decode([MergedGame].self, from: Data(json.stdout.utf8))
    #expect(merged.count == 8 && merged.filter { $0.sources.count == 2 }.count == 3)
  }

  /// The Texas Tech–Illinois contest on the real scoreboard (no status) and on its real
  /// play-by-play (final): one game, final, with the canonical teams.
  @Test(.enabled(if: RealPages.available)) func theRealScoreboardAndPlayByPlayMergeIntoOneGame() throws {
    let output = try CommandRunner.run([
      "replay", "--merge", "--json", "Fixtures/NCAA/ncaa-stats-scoreboard/real-mbb-d1-2025-11-11",
      "Fixtures/NCAA/ncaa-stats-contest-pbp/real-texastech-at-illinois-mbb",
    ])
    #expect(output.status == 0, "\(output.stderr)")
    let merged = try JSONDecoder().decode([MergedGame].self, from: Data(output.stdout.utf8))
    let games = merged.filter { $0.sources.contains("ncaa:6479639") }
    #expect(merged.count == 82 && games.count == 1)
    let game = try #require(games.first?.game)
    #expect(game.id == "game:2025-11-11:basketball-men:301~700" && game.status == .final)
    #expect(game.away.team.name == "Texas Tech" && game.home.team.id == "team:301" && game.home.score == 81)
  }

  @Test func replayShowsABasketballBoxInBasketballColumns() throws {
    let output = try run("replay", "Fixtures/StatBroadcast/statbroadcast-game-xml/basketball-women-overtime-live")
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("NO  PLAYER             POS  PTS  FGM  FGA  3PM  FTM  REB  AST  TO  STL  BLK  PF"))
    #expect(output.stdout.contains("3   Ashlon Day-Wilson  G    26   9    20   4    4    5    3    3   2    0    2"))
  }

  @Test func replayJSONIsTheGoldenByteForByte() throws {
    let output = try run(
      "replay", "--json", "--parser", "statbroadcast-calendar",
      "Fixtures/GenericHTML/statbroadcast-calendar/server-html/page.html")
    #expect(output.status == 0)
    let golden = try String(
      contentsOf: PackageRoot.file("Fixtures/GenericHTML/statbroadcast-calendar/server-html/normalized.golden.json"),
      encoding: .utf8)
    #expect(output.stdout == golden)
  }

  @Test(.enabled(if: RealPages.available)) func replayOfARealPageCaseAndABarePageFile() throws {
    let fromCase = try run("replay", "Fixtures/GenericHTML/ncaa-team-schedule/real-air-force-2025")
    #expect(fromCase.status == 0, "\(fromCase.stderr)")
    #expect(fromCase.stdout.contains("16 games"))
    let file = try #require(RealPages.folder).appendingPathComponent("statbroadcast/events-schedule-msu.html").path
    let bare = try run("replay", file)
    #expect(bare.status == 0, "\(bare.stderr)")
    #expect(bare.stdout.contains("25 games"))
  }

  @Test func aPageThatFailsExits65NamingFileSourceParserAndReason() throws {
    let path = "Fixtures/GenericHTML/ncaa-team-schedule/bot-challenge"
    let output = try run("replay", path)
    #expect(output.status == 65)
    #expect(output.stdout.isEmpty)
    #expect(
      output.stderr.hasPrefix("statline: replay failed: \(path): blocked: the page is an Akamai bot-manager challenge"))
    #expect(
      output.stderr.contains("[source generic-html, parser ncaa-team-schedule, https://stats.ncaa.org/teams/614511]"))
  }

  @Test func garbageWithAChosenParserExits65() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("garbage-\(UUID()).bin")
    try Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let chosen = try run(
      "replay", file.path, "--parser", "ncaa-team-schedule", "--url", "https://stats.ncaa.org/teams/1")
    #expect(chosen.status == 65)
    #expect(chosen.stderr.contains(file.path))
    let unclaimed = try run("replay", file.path)
    #expect(unclaimed.status == 64)
    #expect(unclaimed.stderr.contains("no parser claims this page"))
  }

  @Test func usageErrorsExit64() throws {
    #expect(try run("replay").status == 64)
    #expect(try run("replay", "/nonexistent/page.html").status == 64)
    #expect(try run("replay", "--bogus-flag", "x").status == 64)
    #expect(try run("replay", "Fixtures/GenericHTML/ncaa-team-schedule/edge-cases", "--parser", "nope").status == 64)
    #expect(try run("replay", "x", "--config", "/nonexistent.yml").status == 64)
  }

  @Test func aUserConfigReadsAPageWithNoSwiftCode() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("statline-cfg-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let config = folder.appendingPathComponent("league.yml")
    try Data(
      """
      id: league-scores
      namespace: league
      sport: lacrosse-women
      match:
        urls: ['^https://league\\.test/scores']
      games:
        rows: table.scores tr.game
        fields:
          id: { attribute: data-id, xpath: '.', format: 'league:{value}' }
          status: { css: td.status, map: { F: final }, otherwise: unknown }
          away.name: td.away
          away.score: { css: td.away-score, type: integer }
          home.name: td.home
          home.score: { css: td.home-score, type: integer }
      """.utf8
    ).write(to: config)
    let page = folder.appendingPathComponent("scores.html")
    try Data(
      """
      <html><body><table class="scores">
      <tr class="game" data-id="77"><td class="away">Army</td><td class="away-score">9</td><td class="home">Navy</td><td class="home-score">12</td><td class="status">F</td></tr>
      </table></body></html>
      """.utf8
    ).write(to: page)
    let output = try run("replay", page.path, "--config", config.path, "--url", "https://league.test/scores", "--json")
    #expect(output.status == 0, "\(output.stderr)")
    let batch = try JSONDecoder().decode(Batch.self, from: Data(output.stdout.utf8))
    #expect(batch.parser == "league-scores")
    #expect(batch.games.map(\.id) == ["league:77"])
    #expect(batch.games.first?.sport == .lacrosseWomen)
    #expect(batch.games.first?.home.winner == true)

    try Data(
      "id: league-scores\nnamespace: league\nmatch: {urls: ['x']}\ngames:\n  fields:\n    id: {css: a, type: colour}\n"
        .utf8
    )
    .write(to: config)
    let broken = try run("replay", page.path, "--config", config.path)
    #expect(broken.status == 64)
    #expect(broken.stderr.contains("games.fields.id.type (line 6)"))
    #expect(broken.stderr.contains(config.path))
  }

  @Test func fixturesVerifyPassesOnTheRepository() throws {
    let output = try run("fixtures", "verify")
    #expect(output.status == 0, "\(output.stdout)")
    #expect(output.stdout.contains(" 0 failed"))
  }

  @Test func newSourceScaffoldsIntoAPackageRoot() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    let output = try run("new-source", "Sidearm", "--root", root.path)
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.contains("wrote Plugins/Sidearm/SidearmSource.swift"))
    #expect(try run("new-source", "sidearm", "--root", root.path).status == 64)
  }
}
