import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import NCAASource

/// ncaa.com's box-score answers of basketball and soccer (their own queries, lacrosse's shape),
/// read by their members' names (`GraphQLBoxMembers`).
@Suite struct GraphQLBoxScoreSportsTests {
  static func page(_ folder: String, _ edit: (String) -> String = { $0 }) throws -> Page {
    var page = try NCAAHandWrittenTests.page("ncaa-gql-boxscore/\(folder)")
    page.body = Data(edit(String(decoding: page.body, as: UTF8.self)).utf8)
    return page
  }

  static func failure(_ page: Page) throws -> StatlineError {
    do {
      _ = try NCAAHandWrittenTests.run(page, parser: "ncaa-gql-boxscore")
    } catch let error as StatlineError {
      return error
    }
    throw StatlineError(.wrongPage, "the page was read, but it must be refused")
  }

  @Test func aBasketballBoxScoreIsReadByItsMembers() throws {
    let batch = try NCAAHandWrittenTests.batch("ncaa-gql-boxscore/basketball-final", parser: "ncaa-gql-boxscore")
    #expect(batch.teams.map(\.sport) == [.basketballMen, .basketballMen] && batch.warnings.isEmpty)
    let box = try #require(batch.boxScores.first)
    #expect(box.gameId == "ncaa:com-6600101")
    let toppin = try #require(box.away.players.first)
    #expect(toppin.name == "JT Toppin" && toppin.starter == true)
    // threePointsMade, totalRebounds, blockedShots, personalFouls, minutesPlayed "34:10".
    #expect(toppin.stats["threePointersMade"] == 1 && toppin.stats["rebounds"] == 11 && toppin.stats["blocks"] == 2)
    #expect(toppin.stats["fouls"] == 2 && toppin.stats["secondsPlayed"] == 34 * 60 + 10)
    #expect(toppin.stats["defensiveRebounds"] == 7, "total less offensive")
    #expect(toppin.stats["points"] == 23 && toppin.stats["year"] == nil)
    #expect(box.away.players.last?.stats == [:], "a player who did not take part has no line")
    #expect(box.away.totals["points"] == 74 && box.home.totals["points"] == 76)
    #expect(box.home.totals["defensiveRebounds"] == 23 && box.home.totals["secondsPlayed"] == nil)
    #expect(Set(box.away.totals.keys).isSubset(of: SportKeys.basketball))
  }

  @Test func aSoccerBoxScoreTakesTheKeepersSavesFromTheTeamsGoalieLine() throws {
    let batch = try NCAAHandWrittenTests.batch("ncaa-gql-boxscore/soccer-final", parser: "ncaa-gql-boxscore")
    #expect(batch.teams.map(\.sport) == [.soccerWomen, .soccerWomen] && batch.warnings.isEmpty)
    let box = try #require(batch.boxScores.first)
    let keeper = try #require(box.away.players.first { $0.position == "GK" })
    #expect(keeper.name == "Maria Alvarez" && keeper.stats["saves"] == nil, "a player's saves is always \"0\"")
    #expect(keeper.stats["secondsPlayed"] == 90 * 60, "whole minutes")
    #expect(box.away.totals["saves"] == 3 && box.away.totals["goalsAllowed"] == 2)
    #expect(box.away.totals["goals"] == 1 && box.home.totals["goals"] == 2)
    #expect(box.away.totals["yellowCards"] == 1 && box.home.totals["fouls"] == 6 && box.home.totals["corners"] == 6)
    let hirst = try #require(box.away.players.first { $0.name == "Sophie Hirst" })
    #expect(hirst.stats["yellowCards"] == 1 && hirst.stats["fouls"] == 2 && hirst.stats["assists"] == 1)
    #expect(Set(box.home.totals.keys).isSubset(of: SportKeys.soccer))
  }

  /// A member no table knows is named, not stored under a guess (and not named when it is zero).
  @Test func aMemberNoSportKnowsIsNamedInAWarning() throws {
    let page = try Self.page("basketball-final") {
      $0.replacingOccurrences(
        of: #""lastName": "TOPPIN","#, with: #""lastName": "TOPPIN", "technicalFouls": "1", "flagrantFouls": "0","#)
    }
    let batch = try NCAAHandWrittenTests.run(page, parser: "ncaa-gql-boxscore")
    #expect(batch.warnings == ["members not read (no basketball-men stat key): technicalFouls"])
    #expect(batch.boxScores.first?.away.players.first?.stats["technicalFouls"] == nil)
    // Lacrosse's team line: its man-up record is known and passed over in any shape; a count
    // no key takes is named.
    let lacrosse = try Self.page("final") {
      $0.replacingOccurrences(of: #""powerPlay": "1-3""#, with: #""powerPlay": {"goals": "1", "attempts": "3"}"#)
        .replacingOccurrences(of: #""goals": "12","#, with: #""goals": "12", "faceoffWins": "14","#)
    }
    let read = try NCAAHandWrittenTests.run(lacrosse, parser: "ncaa-gql-boxscore")
    #expect(read.warnings == ["members not read (no lacrosse-men stat key): faceoffWins"])
    #expect(read.boxScores.first?.away.totals[StatKey.goals] == 12)
  }

  /// An answer whose numbers are all under names no sport knows is refused, not stored empty.
  @Test func anAnswerWhoseMembersAreAllUnknownIsRefused() throws {
    let page = try Self.page("soccer-final") { text in
      [
        "goals", "assists", "shots", "shotsOnGoal", "minutesPlayed", "fouls", "yellowCards", "redCards", "corners",
        "offsides", "goalsAllowed", "saves",
      ].reduce(text) { text, name in
        text.replacingOccurrences(of: "\"\(name)\":", with: "\"x\(name)\":")
      }
    }
    let error = try Self.failure(page)
    #expect(
      error.kind == .wrongPage && error.reason.hasPrefix("none of the box score's members is a soccer-women stat"))
  }

  /// The players' points must add up to the team's: a box score at odds with itself is refused.
  @Test func playersPointsThatDoNotAddUpAreRefused() throws {
    let page = try Self.page("basketball-final") {
      $0.replacingOccurrences(of: #""points": "23""#, with: #""points": "25""#)
    }
    let error = try Self.failure(page)
    #expect(
      error.kind == .validation && error.reason.contains("away players' points add up to 76, but the score is 74"))
  }

  /// Basketball's and soccer's queries serve men and women alike: an answer without its
  /// `sportCode` takes the target's sport, and without that is refused, never guessed.
  @Test func anAnswerThatNamesNoSportTakesItsTargetsOrIsRefused() throws {
    var page = try Self.page("basketball-final") { $0.replacingOccurrences(of: #""sportCode": "MBB","#, with: "") }
    let error = try Self.failure(page)
    #expect(error.kind == .unsupported && error.reason.contains("names no sport"))
    #expect(error.hint?.contains("`sport:`") == true && error.hint?.contains("replay --sport") == true)
    page.sport = .basketballWomen
    let batch = try NCAAHandWrittenTests.run(page, parser: "ncaa-gql-boxscore")
    #expect(batch.teams.first?.sport == .basketballWomen)
    let football = try Self.page("basketball-final") { $0.replacingOccurrences(of: #""MBB""#, with: #""MFB""#) }
    #expect(try Self.failure(football).reason.contains("sport 'MFB', which the box-score reader does not read"))
  }

  /// The same day's board asked for three sports: each board's box-score targets carry its sport
  /// and that sport's own query (a board with none would prove nothing, so there must be some).
  @Test(arguments: [("MLA", Sport.lacrosseMen), ("MBB", .basketballMen), ("WSO", .soccerWomen)])
  func discoveryAsksEachSportsOwnQueryWithTheGamesSport(_ code: String, _ sport: Sport) throws {
    var scoreboard = try NCAAHandWrittenTests.page("ncaa-gql-contests/mixed-day")
    scoreboard.url = try #require(scoreboard.url).replacingOccurrences(of: "%22MLA%22", with: "%22\(code)%22")
    let (_, discovered) = try PagePipeline.runDiscovering(scoreboard, with: try NCAARun.entry("ncaa-gql-contests"))
    let boxes = discovered.map(\.target).filter { $0.parser == "ncaa-gql-boxscore" }
    #expect(boxes.count >= 2, "box-score targets of the \(code) board: \(boxes.map(\.url))")
    let query = try #require(PersistedQuery.boxScore(for: sport))
    for target in boxes {
      #expect(target.sport == sport)
      #expect(target.url.contains("meta=\(query)&"), "\(target.url)")
    }
  }

  @Test func aSportWithNoBoxScoreQueryGetsNoTarget() {
    #expect(PersistedQuery.boxScore(for: .soccerWomen) == "NCAA_GetGamecenterBoxscoreSoccerById_web")
    #expect(PersistedQuery.boxScore(for: .baseball) == nil, "no query known: no target")
    #expect(PersistedQuery.defaultHashes[PersistedQuery.boxScoreBasketball] != nil)
  }
}
