import Foundation
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineTesting
import Testing

@testable import NCAASource

/// Key facts of the hand-written NCAA pages, beyond their goldens.
@Suite struct NCAAHandWrittenTests {
  static func page(_ folder: String) throws -> Page {
    try PageLoader.load(PackageRoot.file("Fixtures/NCAA/\(folder)").path)
  }

  static func batch(_ folder: String, parser: String) throws -> Batch {
    try run(try page(folder), parser: parser)
  }

  static func run(_ page: Page, parser: String) throws -> Batch {
    try PagePipeline.run(page, with: try NCAARun.entry(parser))
  }

  static func failure(_ folder: String, parser: String) throws -> StatlineError {
    do {
      _ = try batch(folder, parser: parser)
    } catch let error as StatlineError {
      return error
    }
    throw StatlineError(.wrongPage, "\(folder) parsed, but it must fail")
  }

  @Test func aLiveContestIsInTheThirdQuarterWithNoWinner() throws {
    let batch = try Self.batch("ncaa-stats-contest-box/live-third-quarter", parser: "ncaa-stats-contest-box")
    let game = try #require(batch.games.first)
    #expect(game.status == .live && game.period == 3 && game.periodLabel == "3rd")
    #expect(game.away.score == 4 && game.home.score == 6 && game.away.winner == nil && game.home.winner == nil)
    #expect(game.away.periodScores == [2, 1, 1] && game.attendance == 3102)
    let goalie = try #require(batch.boxScores.first?.away.players.first { $0.position == "G" })
    #expect(goalie.stats[StatKey.secondsPlayed] == 38 * 60 + 12 && goalie.stats[StatKey.saves] == 8)
  }

  /// A basketball box score by its columns: men's when the line score has two halves, women's
  /// when it has four quarters; its points add up to the score, or the box score is refused
  /// alone (the game is still stored) and the poll says so.
  /// Every key a box-score column is read into is one a sport's profile documents (a misspelt
  /// key would be stored and served without a word).
  @Test func everyBoxColumnKeyIsASportsKey() {
    let documented = Set(SportProfile.all.flatMap(\.statKeys))
    for (table, columns) in BoxColumnNames.all {
      for (header, column) in columns {
        switch column {
        case .stat(let key), .wholePoints(let key), .part(let key, _):
          #expect(documented.contains(key), "\(table) column '\(header)' → '\(key)'")
        default: break
        }
      }
    }
  }

  @Test func aBasketballBoxScoreIsReadByItsColumnsAndItsHalvesSayMens() throws {
    let batch = try Self.batch("ncaa-stats-contest-box/basketball-men-final", parser: "ncaa-stats-contest-box")
    let game = try #require(batch.games.first)
    #expect(game.sport == .basketballMen && game.status == .final && game.period == 2)
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.compactMap { $0.stats["points"] }.reduce(0, +) == 78)
    #expect(box.home.totals["rebounds"] == 25 && box.home.totals["points"] == 72)
    #expect(box.away.players.first { $0.name == "Cooper Flagg" }?.stats["threePointersMade"] == 2)

    var page = try Self.page("ncaa-stats-contest-box/basketball-men-final")
    var html = String(decoding: page.body, as: UTF8.self)
    // Four quarters: women's.
    var quarters = html.replacingOccurrences(
      of: #"align="right">2</td>"#, with: #"align="right">2</td><td align="right">3</td><td align="right">4</td>"#)
    for (halves, fourths) in [("38", "40", [18, 20, 20, 20]), ("35", "37", [17, 18, 18, 19])].map({
      (#"<td class="grey_text" align="right">\#($0.0)</td><td class="grey_text" align="right">\#($0.1)</td>"#, $0.2)
    }) {
      quarters = quarters.replacingOccurrences(
        of: halves, with: fourths.map { #"<td class="grey_text" align="right">\#($0)</td>"# }.joined())
    }
    page.body = Data(quarters.utf8)
    let women = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-contest-box"))
    #expect(women.games.first?.sport == .basketballWomen, "\(women.warnings)")
    // A player's points that do not add up to the score: the box score is refused, named.
    html = html.replacingOccurrences(of: #"<td data-order="26">26</td>"#, with: #"<td data-order="27">27</td>"#)
    page.body = Data(html.utf8)
    let refused = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-contest-box"))
    #expect(refused.games.count == 1 && refused.boxScores.isEmpty)
    #expect(refused.warnings.contains { $0.hasPrefix(BatchValidator.refusedPrefix) && $0.contains("79") })
  }

  @Test func aContestInsideALayoutTableReadsTheSame() throws {
    let plain = try Self.page("ncaa-stats-contest-box/live-third-quarter")
    let html = String(decoding: plain.body, as: UTF8.self)
    let body = try #require(html.range(of: "<body>")).upperBound
    let end = try #require(html.range(of: "</body>")).lowerBound
    let wrapped =
      String(html[..<body]) + "<table class=\"layout\"><tr><td>" + String(html[body..<end]) + "</td></tr></table>"
      + String(html[end...])
    var nested = plain
    nested.body = Data(wrapped.utf8)
    let entry = try NCAARun.entry("ncaa-stats-contest-box")
    let expected = try PagePipeline.run(plain, with: entry)
    let read = try PagePipeline.run(nested, with: entry)
    #expect(!expected.boxScores.isEmpty)
    #expect(read == expected, "header and stat tables nested in a layout table are still found")
  }

  @Test func aWomensContestHasDrawControlsAndFreePositionStats() throws {
    let batch = try Self.batch("ncaa-stats-contest-box/womens-final", parser: "ncaa-stats-contest-box")
    let game = try #require(batch.games.first)
    #expect(game.sport == .lacrosseWomen && game.status == .final && game.home.winner == true)
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.compactMap { $0.stats[StatKey.drawControls] }.reduce(0, +) == 11)
    #expect(box.home.totals[StatKey.drawControls] == 13)
    #expect(box.home.players.first?.stats[StatKey.freePositionGoals] == 2)
    #expect(box.away.players.allSatisfy { $0.stats[StatKey.faceoffsWon] == nil })
  }

  @Test func anotherSportsContestIsUnsupportedAndWallsAreBlocked() throws {
    #expect(
      try Self.failure("ncaa-stats-contest-box/other-sport", parser: "ncaa-stats-contest-box").kind == .unsupported)
    for wall in ["bot-challenge", "access-denied", "login-page"] {
      let error = try Self.failure("ncaa-stats-contest-box/\(wall)", parser: "ncaa-stats-contest-box")
      #expect(error.kind == .blocked, "\(wall): \(error)")
    }
  }

  @Test func theCurrentPlayByPlayTakesItsScoreFromTheHeader() throws {
    let batch = try Self.batch("ncaa-stats-contest-pbp/final", parser: "ncaa-stats-contest-pbp")
    let game = try #require(batch.games.first)
    #expect(game.status == .final && game.away.score == 3 && game.home.score == 4)
    let goals = batch.plays.filter { $0.type == .goal }
    #expect(goals.count == 7 && goals.last?.awayScore == 3 && goals.last?.homeScore == 4)
    #expect(batch.plays.filter { $0.type == .periodEnd }.count == 4)
    #expect(batch.plays.first?.player == "Ryan Cole" && batch.plays.first?.type == .faceoff)
    #expect(batch.plays.contains { $0.type == .penalty && $0.details["seconds"] == "60" })
  }

  /// The printed running score is the authority: a row whose score rose is a goal for that side,
  /// whatever its text reads as (kept, with details.readAs), and the page is partial.
  @Test func aPlayWhoseRunningScoreRisesIsAGoalWhateverItsTextReadsAs() throws {
    var page = try Self.page("ncaa-stats-contest-pbp/final")
    let text = String(decoding: page.body, as: UTF8.self).replacingOccurrences(
      of: "GOAL by ARMY Morrison, Jake.", with: "Shot by ARMY Morrison, Jake WIDE.")
    page.body = Data(text.utf8)
    let batch = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-contest-pbp"))
    let play = try #require(batch.plays.first { $0.text == "Shot by ARMY Morrison, Jake WIDE." })
    #expect(play.type == .goal && play.player == nil && play.isUnread && play.details["readAs"] == "shot")
    let refusals = BatchValidator.refusals(of: batch)
    #expect(refusals.count == 1 && refusals[0].contains("changes the running score from 3-3 to 3-4"), "\(refusals)")
    #expect(refusals[0].contains("'Shot by ARMY Morrison, Jake WIDE.'"), "the play is named")
  }

  @Test func theScoreboardMapsEveryStateAndNeverGuessesScheduled() throws {
    let batch = try Self.batch("ncaa-stats-scoreboard/mixed-day", parser: "ncaa-stats-scoreboard")
    #expect(batch.games.map(\.status) == [.final, .final, .live, .scheduled, .postponed, .cancelled])
    #expect(batch.games[1].period == 5 && batch.games[1].away.periodScores.count == 5)
    #expect(batch.games[2].period == 3 && batch.games[2].clock == "08:12")
    #expect(batch.games[4].away.team.id == nil && batch.games[4].away.team.name == "St. Francis (IL)")
    #expect(batch.games[0].attendance == 1204 && batch.games[0].away.record == "3-1")
  }

  @Test func aScoreboardWhoseGamesCannotBeReadFailsInsteadOfComingBackEmpty() throws {
    let html = """
      <html><head><title>NCAA Statistics</title></head><body><table>
      <tr><td>03/07/2026 12:00 PM</td><td>Attend: 10</td><td>Final</td></tr>
      <tr id="contest_1"><td><a href="/teams/1"><img alt="Navy" /></a></td><td><a href="/teams/1">Navy</a></td><td>3</td></tr>
      </table></body></html>
      """
    let page = Page(url: "https://stats.ncaa.org/contests/livestream_scoreboards?sport_code=MLA", body: Data(html.utf8))
    let error = try #require(throws: StatlineError.self) {
      try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-scoreboard"))
    }
    #expect(error.kind == .wrongPage && error.reason.contains("1 team rows, not 2"))
  }

  /// Tag soup that nests each game's table in the one before (a fuzzer's find): every table is
  /// read by its own rows, so each game keeps its two teams, where `.//tr` gave the outer tables
  /// every nested team row (and on 35 levels took seconds under ASan). Not timed.
  @Test func gameTablesNestedInEachOtherAreEachReadByTheirOwnRows() throws {
    func game(_ n: Int, inside: String) -> String {
      """
      <table><tr><td>03/07/2026 12:00 PM</td><td>Attend: \(n)</td><td>Final</td></tr>
      <tr id="contest_\(n)"><td><a href="/teams/\(2 * n)"><img alt="Away \(n)" /></a></td><td><a href="/teams/\(2 * n)">Away \(n)</a></td><td>1</td><td>1</td><td>1</td><td>0</td><td class="totalcol">3</td></tr>
      <tr id="contest_\(n)"><td><a href="/teams/\(2 * n + 1)"><img alt="Home \(n)" /></a></td><td><a href="/teams/\(2 * n + 1)">Home \(n)</a></td><td>0</td><td>1</td><td>0</td><td>0</td><td class="totalcol">1</td></tr>
      <tr><td colspan="7">\(inside)</td></tr></table>
      """
    }
    let nested = (1...30).reversed().reduce("") { inner, n in game(n, inside: inner) }
    let html = "<html><head><title>NCAA Statistics</title></head><body>\(nested)</body></html>"
    let page = Page(url: "https://stats.ncaa.org/contests/livestream_scoreboards?sport_code=MLA", body: Data(html.utf8))
    let board = try ScoreboardParser().parse(page)
    #expect(board.entries.map(\.contestId) == (1...30).map(String.init))
    #expect(board.entries.allSatisfy { $0.rows.count == 2 && $0.state == "Final" })
    #expect(board.entries[29].rows.map(\.name) == ["Away 30", "Home 30"])
    let batch = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-scoreboard"))
    #expect(batch.games.count == 30 && batch.games.allSatisfy { $0.status == .final && $0.away.score == 3 })
  }

  @Test func theLegacyBoxScoreAndPlayByPlayAgree() throws {
    let box = try Self.batch("ncaa-legacy-box/final", parser: "ncaa-legacy-box")
    let game = try #require(box.games.first)
    #expect(game.id == "ncaa:game-4021999" && game.status == .final && game.venue == "Poughkeepsie, NY")
    #expect(game.away.team.id == "ncaa:org-721" && game.away.score == 5 && game.home.score == 4)
    #expect(game.attendance == 312 && game.date == "2016-03-05")
    #expect(box.boxScores.first?.away.players.map(\.name).contains("TEAM") == false)
    #expect(box.boxScores.first?.away.totals[StatKey.groundBalls] == 9, "the TEAM row's ground ball is in the total")
    let plays = try Self.batch("ncaa-legacy-pbp/final", parser: "ncaa-legacy-pbp")
    #expect(plays.games.first?.id == game.id)
    let goals = plays.plays.filter { $0.type == .goal }
    #expect(goals.filter { $0.side == .away }.count == 5 && goals.filter { $0.side == .home }.count == 4)
    #expect(goals.first?.player == "Connor Meyers" && goals.first?.assist == "Luke Kirk")
  }

  @Test func theGraphQLScoreboardMapsStatesAndAsksForGameTargets() throws {
    let page = try Self.page("ncaa-gql-contests/mixed-day")
    let (batch, discovered) = try PagePipeline.runDiscovering(page, with: try NCAARun.entry("ncaa-gql-contests"))
    #expect(batch.games.map(\.status) == [.final, .live, .scheduled, .postponed, .unknown], "'S' is unknown")
    #expect(batch.games[0].id == "ncaa:com-6600001" && batch.games[0].away.rank == 7)
    #expect(batch.games[0].startTime == "2026-03-07T17:00:00Z")
    #expect(batch.games[1].period == 3 && batch.games[1].clock == "08:12")
    #expect(batch.games[2].away.score == nil)
    #expect(discovered.count == 15 && discovered.allSatisfy { $0.target.url.hasPrefix("https://sdataprod.ncaa.com/") })
    #expect(Set(discovered.map(\.target.parser)) == ["ncaa-gql-game", "ncaa-gql-pbp", "ncaa-gql-boxscore"])
    // One authority per record kind: the game centre writes the game, the others their parts.
    #expect(try NCAARun.entry("ncaa-gql-game").stores == nil)
    #expect(try NCAARun.entry("ncaa-gql-pbp").stores == [.play, .team])
    #expect(try NCAARun.entry("ncaa-gql-boxscore").stores == [.boxScore, .team])
  }

  @Test func theGraphQLGameCentreAndBoxScore() throws {
    let game = try #require(try Self.batch("ncaa-gql-game/live-third-quarter", parser: "ncaa-gql-game").games.first)
    #expect(game.status == .live && game.period == 3 && game.away.periodScores == [3, 2, 1])
    #expect(game.venue == "Klöckner Stadium, Charlottesville, VA")
    let box = try #require(try Self.batch("ncaa-gql-boxscore/final", parser: "ncaa-gql-boxscore").boxScores.first)
    #expect(box.gameId == "ncaa:com-6600001")
    #expect(box.away.players.first?.name == "Charlie Iler" && box.home.players.first?.name == "AJ Nikolic")
    #expect(box.away.players.last.map { ($0.name, $0.stats) } ?? ("", ["x": 1]) == ("Sam Wells", [:]))
    #expect(box.away.totals[StatKey.goals] == 12 && box.away.totals[StatKey.penaltySeconds] == 60)
    let goalie = try #require(box.away.players.first { $0.position == "GK" })
    #expect(goalie.stats[StatKey.saves] == 11 && goalie.stats[StatKey.secondsPlayed] == 3600)
  }

  @Test func staleAndWrongSportHashesSayWhatToDo() throws {
    let stale = try Self.failure("ncaa-gql-contests/stale-hash", parser: "ncaa-gql-contests")
    #expect(stale.kind == .configuration && stale.hint?.contains("sources.ncaa.options.hash.GetContests_web") == true)
    let rejected = try Self.failure("ncaa-gql-pbp/http-400", parser: "ncaa-gql-pbp")
    #expect(rejected.kind == .configuration && rejected.reason.contains("HTTP 400"))
    let wrong = try Self.failure("ncaa-gql-boxscore/wrong-sport-hash", parser: "ncaa-gql-boxscore")
    #expect(wrong.reason.contains("only __typename"))
  }

  @Test func casablancaTakesTheContestIdFromTheURLAndNeverGuessesScheduled() throws {
    let batch = try Self.batch("ncaa-casablanca-scoreboard/lacrosse-states", parser: "ncaa-casablanca-scoreboard")
    #expect(batch.games.map(\.id) == ["ncaa:com-6400001", "ncaa:com-6400002", "ncaa:com-6400003", "ncaa:com-6400004"])
    #expect(batch.games.map(\.status) == [.final, .live, .scheduled, .unknown])
    #expect(batch.games[0].away.score == 9 && batch.games[0].away.rank == 5 && batch.games[0].away.record == "9-3")
    #expect(batch.games[1].clock == "04:51" && batch.games[1].period == 2)
  }
}

/// A scoreboard lists each team once, however many games it has: a day of 40 games in which every
/// team plays twice (a tournament's two sessions) lists 40 teams, on both ncaa.com boards. (Past 32
/// teams the ids are hashed, below they are compared: the same answer.)
@Suite struct ScoreboardTeamsTests {
  static let games = 40
  static func team(_ game: Int, home: Bool) -> Int { (game + (home ? 1 : 0)) % games }

  @Test func aCasablancaBoardListsEachTeamOnce() throws {
    for count in [3, 16, 17, Self.games] {
      let entries = (0..<count).map { game in
        func side(_ home: Bool) -> String {
          let team = Self.team(game, home: home)
          return #"{"score":"1","names":{"short":"T\#(team)","seo":"t\#(team)","full":"Team \#(team)"},"winner":false}"#
        }
        return
          #"{"game":{"url":"/game/\#(7_000_000 + game)","gameState":"final","currentPeriod":"FINAL","startDate":"03-14-2026","away":\#(side(false)),"home":\#(side(true))}}"#
      }
      let body = #"{"games":["# + entries.joined(separator: ",") + "]}"
      let page = Page(
        url: "https://data.ncaa.com/casablanca/scoreboard/basketball-men/d1/2026/03/14/scoreboard.json",
        body: Data(body.utf8))
      let batch = try NCAAHandWrittenTests.run(page, parser: "ncaa-casablanca-scoreboard")
      let expected = Set((0..<count).flatMap { [Self.team($0, home: false), Self.team($0, home: true)] })
      #expect(batch.games.count == count)
      #expect(batch.teams.count == expected.count && Set(batch.teams.map(\.id)).count == expected.count, "\(count)")
    }
  }

  @Test func aGraphQLBoardListsEachTeamOnce() throws {
    let contests = (0..<Self.games).map { game in
      func team(_ home: Bool) -> String {
        let team = Self.team(game, home: home)
        return #"{"isHome":\#(home),"seoname":"t\#(team)","nameShort":"T\#(team)","score":1,"isWinner":\#(home)}"#
      }
      return
        #"{"contestId":\#(7_000_000 + game),"gameState":"F","currentPeriod":"FINAL","startDate":"03/14/2026","teams":[\#(team(true)),\#(team(false))]}"#
    }
    let body = #"{"data":{"contests":["# + contests.joined(separator: ",") + "]}}"
    let url =
      "https://sdataprod.ncaa.com/?meta=GetContests_web&variables=%7B%22contestDate%22%3A%2203%2F14%2F2026%22%2C%22division%22%3A1%2C%22sportCode%22%3A%22MBB%22%7D"
    let batch = try NCAAHandWrittenTests.run(Page(url: url, body: Data(body.utf8)), parser: "ncaa-gql-contests")
    #expect(batch.games.count == Self.games)
    #expect(batch.teams.count == Self.games && Set(batch.teams.map(\.id)).count == Self.games)
  }
}

@Suite struct PersistedQueryTests {
  @Test func theRequestAddsTheConfiguredHashCompactJSONAndTheSeasonYear() throws {
    let stored =
      #"https://sdataprod.ncaa.com/?meta=GetContests_web&variables={"sportCode":"MLA","division":1,"contestDate":"03/07/2026","week":null}"#
    let url = PersistedQuery.request(stored, hashes: ["GetContests_web": "abc123"], now: Date())
    let query = PersistedQuery.parameters(of: url)
    #expect(query["meta"] == "GetContests_web")
    #expect(query["extensions"] == #"{"persistedQuery":{"version":1,"sha256Hash":"abc123"}}"#)
    #expect(
      query["variables"]
        == #"{"contestDate":"03/07/2026","division":1,"seasonYear":2025,"sportCode":"MLA","week":null}"#,
      "spring 2026 is season 2025; no spaces")
    #expect(!url.contains(" ") && !url.contains("{"), "the JSON is percent-encoded")
    let defaulted = PersistedQuery.parameters(of: PersistedQuery.request(stored, hashes: [:], now: Date()))
    #expect(defaulted["extensions"]?.contains(PersistedQuery.defaultHashes["GetContests_web"]!) == true)
  }

  @Test func aQueryIsAskedAtItsTargetsOriginAndGamesItListsStayThere() throws {
    // A mirror or a loopback site (the demo's) is never sent to ncaa.com.
    let stored = #"http://127.0.0.1:8080/?meta=GetContests_web&variables={"contestDate":"03/07/2026"}"#
    let url = PersistedQuery.request(stored, hashes: [:], now: Date())
    #expect(url.hasPrefix("http://127.0.0.1:8080/?meta=GetContests_web&extensions="), "\(url)")
    var batch = Batch(games: [
      Game(
        id: "ncaa:com-6600101", sport: .lacrosseMen, status: .live, period: 1,
        away: TeamLine(team: TeamRef(name: "Army West Point"), score: 0),
        home: TeamLine(team: TeamRef(name: "Navy"), score: 0))
    ])
    batch.url = url
    let targets = NCAASource.comTargets(batch).map(\.target.url)
    #expect(targets.count == 3 && targets.allSatisfy { $0.hasPrefix("http://127.0.0.1:8080/?meta=") }, "\(targets)")
    batch.url = PersistedQuery.request(
      #"https://sdataprod.ncaa.com/?meta=GetContests_web&variables={"contestDate":"03/07/2026"}"#, hashes: [:],
      now: Date())
    #expect(NCAASource.comTargets(batch).allSatisfy { $0.target.url.hasPrefix("https://sdataprod.ncaa.com/?meta=") })
  }

  @Test func todayIsTheDateOnTheEastCoastAtTheJobClocksTime() throws {
    let stored =
      #"https://sdataprod.ncaa.com/?meta=GetContests_web&variables={"sportCode":"MLA","division":1,"contestDate":"today","week":null}"#
    // 03:30 UTC on 8 March 2026 is still the evening of 7 March in New York.
    let evening = Date(timeIntervalSince1970: 1_772_940_600)
    let variables = PersistedQuery.parameters(of: PersistedQuery.request(stored, hashes: [:], now: evening))[
      "variables"]
    #expect(variables == #"{"contestDate":"03/07/2026","division":1,"seasonYear":2025,"sportCode":"MLA","week":null}"#)
    let autumn = Date(timeIntervalSince1970: 1_789_000_000)  // 9 September 2026
    let next = PersistedQuery.parameters(of: PersistedQuery.request(stored, hashes: [:], now: autumn))["variables"]
    #expect(next?.contains(#""contestDate":"09/0"#) == true && next?.contains(#""seasonYear":2026"#) == true)
  }

  @Test func aScoreboardTargetForTodayFollowsTheJobClockThroughThePoller() async throws {
    let stored =
      #"https://sdataprod.ncaa.com/?meta=GetContests_web&variables={"sportCode":"MLA","division":1,"contestDate":"today","week":null}"#
    let fetcher = ScriptedFetcher([:])
    let poller = Poller(fetcher: fetcher, registry: try SourceRegistry(plugins: [NCAASource.plugin]), captures: nil)
    let target = Target(url: stored, source: "ncaa", parser: "ncaa-gql-contests", role: .discovery)
    var book = ScheduleBook(states: [])
    let evening = Date(timeIntervalSince1970: 1_772_940_600)
    _ = book.seed([target], now: evening)
    _ = await poller.poll(book.states[target.id]!, now: { evening })
    _ = await poller.poll(book.states[target.id]!, now: { evening.addingTimeInterval(86_400) })
    let dates = await fetcher.requests.compactMap {
      PersistedQuery.parameters(of: $0.url)["variables"]?.split(separator: ",").first { $0.contains("contestDate") }
    }
    #expect(dates == [#"{"contestDate":"03/07/2026""#, #"{"contestDate":"03/08/2026""#])
  }

  @Test func seasonYearIsTheAcademicStartYear() {
    #expect(PersistedQuery.seasonYear("03/07/2026") == 2025)
    #expect(PersistedQuery.seasonYear("11/15/2025") == 2025)
    #expect(PersistedQuery.seasonYear("garbage") == nil)
  }

  @Test func theConfiguredHashReachesTheRequestThroughThePlugin() throws {
    let settings = PluginSettings(options: ["ncaa": ["hash.NCAA_GetGamecenterPbpGenericById_web": "fresh"]])
    let entry = try #require(try NCAASource.plugin.parsers(settings).first { $0.id == "ncaa-gql-pbp" })
    let target = PersistedQuery.contestURL(operation: PersistedQuery.playByPlay, contestId: "6599987")
    #expect(entry.claims(url: target))
    let request = try #require(entry.delta).request(target, [:], Date())
    #expect(PersistedQuery.parameters(of: request)["extensions"]?.contains(#""sha256Hash":"fresh""#) == true)
  }
  /// A stats page without the part a reader keeps: rows like schedule rows in another card, a
  /// `table.mytable` that is not the schedule, no team links. Each parser fails, naming what is
  /// missing; none returns an empty schedule or list.
  @Test(arguments: [
    ("ncaa-stats-schedule", "https://stats.ncaa.org/teams/594020", "the page has no Schedule/Results card"),
    ("ncaa-legacy-schedule", "https://stats.ncaa.org/team/721/12360", "the page has no Schedule/Results table"),
    (
      "ncaa-stats-team-list",
      "https://stats.ncaa.org/team/inst_team_list?academic_year=2025&conf_id=-1&division=1&sport_code=MLA",
      "the team list links to no team pages"
    ),
  ])
  func aPageWithoutWhatItsReaderKeepsFails(parser: String, url: String, reason: String) throws {
    let html = """
      <html><head><title>NCAA Statistics</title></head><body>
      <nav><a href="/teams/1">Nav link</a></nav>
      <div class="card"><div class="card-header">Team Stats</div>
      <table class="mytable"><tr class="heading"><td>Roster</td></tr>
      <tr class="underline_rows"><td>02/15/2025</td><td>Navy</td><td>W 9-8</td></tr></table></div>
      </body></html>
      """
    do {
      let batch = try PagePipeline.run(Page(url: url, body: Data(html.utf8)), with: try NCAARun.entry(parser))
      Issue.record("\(parser) read \(batch.games.count) games and \(batch.teams.count) teams from a page without them")
    } catch let error as StatlineError {
      #expect(error.kind == .wrongPage)
      #expect(error.reason.hasPrefix(reason), "\(error.reason)")
    }
  }
}
