import Foundation
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import NCAASource

/// Runs a page through the NCAA parser that claims it, as the job and `replay` do.
enum NCAARun {
  static let registry = try! SourceRegistry(plugins: [NCAASource.plugin])

  static func batch(_ page: Page) throws -> Batch {
    let entry = try registry.select(for: page)
    return try PagePipeline.run(page, with: entry)
  }

  static func entry(_ id: String) throws -> ParserEntry { try #require(registry.parser(id: id)) }
}

@Suite(.enabled(if: RealPages.available)) struct NCAARealPageTests {
  /// The first real stats.ncaa.org scoreboard (season-division layout, men's basketball): every
  /// game read whatever the sport, the sport named from the page.
  /// The season-division board names its sport in its selector (`sport_code_select`), which is
  /// read first: with a heading that names no sport, and with a heading that names another, the
  /// games are still the selector's sport.
  @Test func theSeasonDivisionBoardsSportIsItsSelectorsChoice() throws {
    let real = try RealPages.page(
      "ncaa-stats/scoreboard-mbb-d1-2025-11-11.html",
      url: "https://stats.ncaa.org/season_divisions/18703/scoreboards?game_date=11/11/2025")
    let text = String(decoding: real.body, as: UTF8.self)
    let heading = "Men&#39;s Basketball D-I Scoreboard"
    #expect(text.contains(heading))
    for replacement in ["Scoreboard", "Women&#39;s Volleyball D-I Scoreboard"] {
      var page = real
      page.body = Data(text.replacingOccurrences(of: heading, with: replacement).utf8)
      let batch = try NCAARun.batch(page)
      #expect(batch.games.count == 82 && batch.games.allSatisfy { $0.sport == .basketballMen }, "\(replacement)")
    }
  }

  @Test func theRealScoreboardIsReadWholeWhateverTheSport() throws {
    let batch = try NCAARun.batch(
      try RealPages.page(
        "ncaa-stats/scoreboard-mbb-d1-2025-11-11.html",
        url: "https://stats.ncaa.org/season_divisions/18703/scoreboards?game_date=11/11/2025"))
    #expect(batch.games.count == 82 && batch.games.allSatisfy { $0.sport == .basketballMen })
    #expect(batch.games.allSatisfy { $0.status == .unknown }, "no status is printed: never guessed")
    #expect(
      batch.warnings.contains("the board prints no status: its 82 games are unknown (scores and periods as printed)"))
    #expect(batch.games.filter { $0.period == 3 }.count == 3, "three overtime games")
    let neutral = batch.games.filter { $0.neutralSite == true }
    #expect(neutral.count == 1)
    #expect(neutral.first?.venue == "Detroit, MI" && neutral.first?.away.team.name == "Wake Forest")
    let illinois = try #require(batch.games.first { $0.id == "ncaa:6479639" })
    #expect(illinois.away.team.name == "Texas Tech" && illinois.home.team.name == "Illinois", "first listed: visitor")
    #expect((illinois.away.score, illinois.home.score) == (77, 81))
    let names = batch.games.flatMap { [$0.away.team, $0.home.team] }
    #expect(names.contains { $0.name == "Queens (NC)" }, "a name's own parentheses stay; only the record goes")
    #expect(names.filter { $0.id == nil }.count == 11, "11 opponents without an NCAA page")
    #expect(batch.games.first { $0.home.team.name == "Morgan St." }?.attendance == 0)
    // Basketball's play-by-play and box score are read: each contest gets both targets.
    let targets = NCAASource.contestTargets(batch)
    #expect(targets.count == 2 * batch.games.filter { $0.id.dropFirst(5).allSatisfy(\.isNumber) }.count)
    #expect(Set(targets.map(\.target.parser)) == ["ncaa-stats-contest-pbp", "ncaa-stats-contest-box"])
    #expect(targets.contains { $0.target.url == "https://stats.ncaa.org/contests/6479639/play_by_play" })
    #expect(targets.contains { $0.target.url == "https://stats.ncaa.org/contests/6479639/individual_stats" })
  }

  /// ncaa.com's GraphQL scoreboard of another sport: the real 2026 tournament answer's three
  /// basketball games, the first in overtime (period 3 after two halves), each with its game
  /// centre and play-by-play targets and no box-score target (only lacrosse's is read).
  @Test func theGraphQLTournamentBoardReadsBasketballAndAsksOnlyForPagesItReads() throws {
    let page = try RealPages.page(
      "ncaa-data/gql-scoreboard-mbb-d1-2026-03-20-ncaa-tournament-trimmed.json",
      url:
        "https://sdataprod.ncaa.com/?meta=GetContests_web&variables=%7B%22contestDate%22%3A%2203%2F20%2F2026%22%2C%22division%22%3A1%2C%22sportCode%22%3A%22MBB%22%2C%22week%22%3Anull%7D"
    )
    let (batch, discovered) = try PagePipeline.runDiscovering(page, with: try NCAARun.entry("ncaa-gql-contests"))
    #expect(batch.games.count == 3 && batch.games.allSatisfy { $0.sport == .basketballMen && $0.status == .final })
    let kentucky = try #require(batch.games.first { $0.id == "ncaa:com-6534626" })
    #expect(kentucky.period == 3 && kentucky.periodLabel == "Final" && 3 > kentucky.sport.regulationPeriods)
    #expect((kentucky.away.score, kentucky.home.score) == (84, 89) && kentucky.home.winner == true)
    #expect(batch.games.filter { $0.period == 2 }.count == 2)
    #expect(discovered.count == 9)
    #expect(Set(discovered.map(\.target.parser)) == ["ncaa-gql-game", "ncaa-gql-pbp", "ncaa-gql-boxscore"])
    // Basketball's box score is its own query, and the target carries the game's sport: the
    // query serves men and women alike.
    let boxes = discovered.filter { $0.target.parser == "ncaa-gql-boxscore" }
    #expect(boxes.allSatisfy { $0.target.url.contains("meta=NCAA_GetGamecenterBoxscoreBasketballById_web&") })
    #expect(boxes.allSatisfy { $0.target.sport == .basketballMen })
  }

  @Test func theContestIsAirForceEightAtLafayetteEleven() throws {
    let batch = try NCAARun.batch(
      try RealPages.page(
        "ncaa-stats/contest-6310104-individual-stats-mlax-final.html",
        url: "https://stats.ncaa.org/contests/6310104/individual_stats"))
    let game = try #require(batch.games.first)
    #expect(game.id == "ncaa:6310104" && game.sport == .lacrosseMen)
    #expect(game.status == .final && game.period == 4)
    #expect(game.away.team.name == "Air Force" && game.away.score == 8 && game.away.team.id == "ncaa:team-594020")
    #expect(game.home.team.name == "Lafayette" && game.home.score == 11 && game.home.team.id == "ncaa:team-593962")
    #expect(game.away.periodScores == [4, 2, 1, 1] && game.home.periodScores == [2, 2, 3, 4])
    #expect(game.home.winner == true && game.away.winner == false)
    #expect(game.attendance == 213 && game.date == "2025-02-01" && game.venue == "Fisher Stadium (Easton, PA)")
    #expect(game.away.record == "0-1" && game.home.record == "1-0")
    #expect(batch.teams.map(\.name) == ["Air Force Falcons", "Lafayette Leopards"])
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.count == 27 && box.home.players.count == 29)
    #expect(
      !box.away.players.contains { $0.name == "TEAM" || $0.name == "Air Force" }, "TEAM and total rows are no players")
    #expect(box.away.players.compactMap { $0.stats[StatKey.goals] }.reduce(0, +) == 8)
    #expect(box.home.players.compactMap { $0.stats[StatKey.goals] }.reduce(0, +) == 11)
    #expect(box.away.totals[StatKey.goals] == 8 && box.away.totals[StatKey.saves] == 10)
    let goalie = try #require(box.away.players.first { $0.name == "Jake Marek" })
    #expect(goalie.stats[StatKey.saves] == 10 && goalie.stats[StatKey.goalsAllowed] == 11)
    #expect(goalie.stats[StatKey.secondsPlayed] == 3600 && goalie.stats[StatKey.groundBalls] == 4)
  }

  @Test func theGraphQLGameWentToOvertimeAndEndsAtItsLastGoal() throws {
    let batch = try NCAARun.batch(
      try RealPages.page(
        "ncaa-data/gql-pbp-mla-6599987-final-ot.json",
        url: PersistedQuery.contestURL(operation: PersistedQuery.playByPlay, contestId: "6599987")))
    let game = try #require(batch.games.first)
    #expect(game.id == "ncaa:com-6599987" && game.status == .final)
    #expect(game.period == 5, "one overtime continues the count")
    #expect(game.home.team.name == "Cornell" && game.away.team.name == "Johns Hopkins")
    #expect(game.away.score == 9 && game.home.score == 8 && game.away.winner == true)
    #expect(game.away.periodScores.count == 5 && game.away.periodScores[4] == 1 && game.home.periodScores[4] == 0)
    let goals = batch.plays.filter { $0.type == .goal }
    let last = try #require(goals.last)
    #expect(last.period == 5 && last.side == .away)
    #expect(last.awayScore == game.away.score && last.homeScore == game.home.score)
    let empty = batch.plays.filter { $0.text.isEmpty }
    #expect(empty.map(\.period) == [3, 4, 5], "the feed's three empty plays are kept where it lists them")
    #expect(empty.allSatisfy { $0.type == .other && $0.details["emptyText"] == "true" })
    let first = try #require(batch.plays.first { $0.type == .faceoff })
    #expect(first.player == "Jack Cascadden" && first.side == .home && first.details["opponent"] == "Joe Hobot")
    #expect(batch.plays.contains { $0.type == .groundBall && $0.text == "Ground ball pickup by COR Cascadden, Jack." })
  }
}

@Suite(.enabled(if: RealPages.available)) struct NCAARealScheduleTests {
  @Test func theCurrentScheduleHasFifteenResultsOneUnplayedGameAndNoRankingRows() throws {
    let batch = try NCAARun.batch(
      try RealPages.page("ncaa-stats/team-594020-schedule-mlax-2025.html", url: "https://stats.ncaa.org/teams/594020"))
    #expect(batch.parser == "ncaa-stats-schedule")
    #expect(batch.games.count == 16, "the team-stats ranking rows below the schedule are not games")
    let first = try #require(batch.games.first)
    #expect(first.id == "ncaa:6310104" && first.date == "2025-02-01" && first.status == .final)
    #expect(first.away.team.name == "Air Force" && first.away.score == 8 && first.home.score == 11)
    #expect(first.home.team.id == "ncaa:team-593962" && first.attendance == 213)
    let overtime = try #require(batch.games.first { $0.id == "ncaa:6310153" })
    #expect(overtime.period == 5 && overtime.home.team.name == "Air Force" && overtime.home.score == 16)
    let neutral = try #require(batch.games.first { $0.id == "ncaa:6380947" })
    #expect(neutral.neutralSite == true && neutral.venue == "Jacksonville, FL" && neutral.away.rank == 1)
    let unplayed = try #require(batch.games.last)
    #expect(unplayed.status == .scheduled && unplayed.away.score == nil && unplayed.home.team.name == "Robert Morris")
    let targets = try NCAARun.entry("ncaa-stats-schedule").discover?(batch) ?? []
    #expect(targets.count == 30, "a box score and a play-by-play target for each of the 15 played games")
    #expect(targets.first?.target.url == "https://stats.ncaa.org/contests/6310104/individual_stats")
  }

  @Test func aLegacyScheduleWithoutAResultColumnIsAClearErrorNamingItsHeaders() throws {
    let page = try RealPages.page(
      "ncaa-stats/legacy-team-721-schedule-mlax-2016.html", url: "https://stats.ncaa.org/team/721/12380")
    try NCAARealMarkupTests.expectResultColumnMissing(page, renaming: "Result</th>", parser: "ncaa-legacy-schedule")
  }

  @Test func theLegacyScheduleHasAFourOvertimeWinAndThirteenUnplayedGames() throws {
    var page = try RealPages.page("ncaa-stats/legacy-team-721-schedule-mlax-2016.html", url: "")
    page.url = nil
    let batch = try NCAARun.batch(page)
    #expect(batch.parser == "ncaa-legacy-schedule" && batch.games.count == 16)
    let win = try #require(batch.games.first { $0.id == "ncaa:game-4021878" })
    #expect(win.status == .final && win.period == 8 && win.periodLabel == "Final (4OT)")
    #expect(win.away.team.id == "ncaa:org-721" && win.away.score == 7 && win.away.winner == true)
    #expect(win.home.team.name == "Marist" && win.home.score == 6)
    let unplayed = batch.games.filter { $0.status == .scheduled }
    #expect(unplayed.count == 13 && unplayed.allSatisfy { $0.away.score == nil && $0.home.score == nil })
    let neutral = try #require(batch.games.first { $0.away.team.name == "Dartmouth" })
    #expect(neutral.neutralSite == true && neutral.venue == "Denver, CO")
    #expect(batch.games.first { $0.home.team.name == "Robert Morris" }?.away.team.id == "ncaa:org-721")
  }

  @Test func theTeamListNamesSeventySevenTeamsAndAsksForTheirSchedules() throws {
    let page = try RealPages.page(
      "ncaa-stats/team-list-mlax-d1-2025.html",
      url: "https://stats.ncaa.org/team/inst_team_list?academic_year=2025&conf_id=-1&division=1&sport_code=MLA")
    let entry = try NCAARun.entry("ncaa-stats-team-list")
    let (batch, discovered) = try PagePipeline.runDiscovering(page, with: entry)
    #expect(batch.teams.count == 77 && batch.games.isEmpty)
    #expect(batch.teams.first == Team(id: "ncaa:team-594020", name: "Air Force", sport: .lacrosseMen))
    #expect(discovered.count == 77 && discovered.allSatisfy { $0.gameId == nil && $0.target.role == .discovery })
    #expect(discovered.first?.target.url == "https://stats.ncaa.org/teams/594020")
  }

  /// A team list of another sport: its teams, named by their season ids, and each team's
  /// schedule as a discovery target (schedules of every sport are read).
  @Test func aBaseballTeamListNamesItsTeamsAndAsksForTheirSchedules() throws {
    let page = try RealPages.page(
      "ncaa-stats/team-list-mba-d1-2026.html",
      url: "https://stats.ncaa.org/team/inst_team_list?academic_year=2026&conf_id=-1&division=1&sport_code=MBA")
    let (batch, discovered) = try PagePipeline.runDiscovering(page, with: try NCAARun.entry("ncaa-stats-team-list"))
    #expect(batch.teams.count == 308 && batch.teams.allSatisfy { $0.sport == .baseball })
    #expect(batch.teams.prefix(3).map(\.name) == ["A&M-Corpus Christi", "Abilene Christian", "Air Force"])
    #expect(batch.teams.first?.id == "ncaa:team-614839" && batch.teams.last?.name == "Youngstown St.")
    #expect(discovered.count == 308 && discovered.allSatisfy { $0.gameId == nil && $0.target.role == .discovery })
    #expect(discovered.first?.target.url == "https://stats.ncaa.org/teams/614839")
  }

  @Test func aTeamListOfAnUnknownSportCodeIsUnsupportedNamingTheKnownOnes() throws {
    let page = try RealPages.page(
      "ncaa-stats/team-list-mba-d1-2026.html",
      url: "https://stats.ncaa.org/team/inst_team_list?academic_year=2026&conf_id=-1&division=1&sport_code=MRI")
    let error = #expect(throws: StatlineError.self) {
      try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-team-list"))
    }
    #expect(error?.kind == .unsupported && error?.hint?.contains("MBA") == true)
  }
}

/// `statline replay` of every real NCAA case prints its batch (exit 0), as a user would run it.
@Suite(.enabled(if: RealPages.available)) struct NCAAReplayCommandTests {
  static let cases = [
    "ncaa-stats-contest-box/real-air-force-at-lafayette", "ncaa-stats-schedule/real-air-force-2025",
    "ncaa-legacy-schedule/real-air-force-2016", "ncaa-stats-team-list/real-mla-d1-2025",
    "ncaa-gql-pbp/real-johns-hopkins-at-cornell-ot", "ncaa-casablanca-scoreboard/real-mbb-d1-2025-02-28",
  ]

  @Test(arguments: cases) func replayPrintsTheBatch(_ folder: String) throws {
    let output = try CommandRunner.run(["replay", "Fixtures/NCAA/\(folder)"])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(output.stdout.hasPrefix("ncaa-"), "the table names the NCAA parser first")
  }
}
