import Foundation
import StatlineApp
import StatlineCore
import StatlineTesting
import Testing

@testable import NCAASource

/// Runs a page through the NCAA parser that claims it, as the job and `replay` do.
enum NCAARun {
  static let registry = try! BuiltinPlugins.registry()

  static func batch(_ page: Page) throws -> Batch {
    let entry = try registry.select(for: page)
    return try PagePipeline.run(page, with: entry)
  }

  static func entry(_ id: String) throws -> ParserEntry { try #require(registry.parser(id: id)) }
}

@Suite(.enabled(if: RealPages.available)) struct NCAARealPageTests {
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
    #expect(!batch.plays.contains { $0.text.isEmpty }, "empty play texts are dropped")
    let first = try #require(batch.plays.first { $0.type == .faceoff })
    #expect(first.player == "Jack Cascadden" && first.side == .home && first.details["opponent"] == "Joe Hobot")
    #expect(batch.plays.contains { $0.type == .groundBall && $0.text == "Ground ball pickup by COR Cascadden, Jack." })
  }
}
