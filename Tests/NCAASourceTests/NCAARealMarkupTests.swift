import Foundation
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import NCAASource

/// Markup the real pages hold that the first parsers did not expect: annotated goals, legacy
/// rows with the class on the row, period cards named by the site, the summary box-score tab.
@Suite struct NCAARealMarkupTests {
  static func batch(_ folder: String, parser: String) throws -> Batch {
    try NCAAHandWrittenTests.batch(folder, parser: parser)
  }

  static func failure(_ folder: String, parser: String) throws -> StatlineError {
    try NCAAHandWrittenTests.failure(folder, parser: parser)
  }

  // MARK: Annotated goals

  @Test func annotatedGoalsAreGoalsByTheirScorerWithTheRunningScore() throws {
    let batch = try Self.batch("ncaa-stats-contest-pbp/quarters-and-overtime", parser: "ncaa-stats-contest-pbp")
    let goals = batch.plays.filter { $0.type == .goal }
    #expect(goals.count == 7, "every GOAL text is a goal")
    let first = try #require(goals.first)
    #expect(first.player == "Ty Sowers" && first.assist == "Brennan O'Neill")
    #expect(first.details["manUp"] == "true" && first.details["firstGoal"] == "true")
    #expect(first.awayScore == 1 && first.homeScore == 0)
    #expect(
      goals.contains { $0.player == "Jack Lane" && $0.details["hatTrickWatch"] == "true" }, "an unseen annotation")
    #expect(goals.contains { $0.assist == "Ty Sowers" && $0.details["manUp"] == "true" }, "after the assist")
    #expect(goals.last?.details["gameWinning"] == "true" && goals.last?.awayScore == 3 && goals.last?.homeScore == 4)
  }

  @Test func theGraphQLGrammarReadsAnnotatedGoals() throws {
    let batch = try Self.batch("ncaa-gql-pbp/annotated-goals", parser: "ncaa-gql-pbp")
    let goals = batch.plays.filter { $0.type == .goal }
    #expect(goals.map(\.player) == ["Brooks English", "Rowyn Nurry", "Willem Firth", "Chuck Rawson", "Charlie Iler"])
    #expect(goals[0].assist == "Charlie Iler" && goals[0].details["firstGoal"] == "true")
    #expect(goals[2].assist == "Ryan Goldstein" && goals[2].details["manUp"] == "true")
    #expect(goals[3].details["somethingNew"] == "true" && goals[3].details["unassisted"] == "true")
    let game = try #require(batch.games.first)
    #expect(game.away.score == 3 && game.home.score == 2 && game.period == 5)
    #expect(goals.last?.periodLabel == "Overtime(1)")
  }

  /// The real feed opens some periods with a play whose text is empty: it is kept, as a play of
  /// type other marked emptyText, so the plays are counted and numbered as the feed lists them.
  @Test func aGraphQLPlayWithAnEmptyTextIsKeptAndMarked() throws {
    let batch = try Self.batch("ncaa-gql-pbp/annotated-goals", parser: "ncaa-gql-pbp")
    let empty = batch.plays.filter { $0.text.isEmpty }
    #expect(empty.count == 1)
    let play = try #require(empty.first)
    #expect(play.type == .other && play.details["emptyText"] == "true" && play.player == nil)
    #expect(play.period == 3 && play.clock == "15:00" && play.side == .away)
    #expect(batch.plays.map(\.sequence) == Array(1...batch.plays.count), "numbered in the feed's order")
  }

  // MARK: A goal the grammar cannot read

  /// Its running score proves a goal: it is stored as one, for the side whose score rose, with
  /// no scorer and its text kept (details.unread), and the page is partial, the play named.
  @Test(arguments: [
    ("ncaa-stats-contest-pbp/unreadable-goal", "ncaa-stats-contest-pbp", "GOAL (FREE POSITION) by UVA Lane, Jack."),
    ("ncaa-gql-pbp/unreadable-goal", "ncaa-gql-pbp", "GOAL: COR Firth, Willem"),
  ])
  func aGoalTheGrammarCannotReadIsStoredAsWhatTheScoreProves(_ folder: String, _ parser: String, _ text: String)
    throws
  {
    let batch = try Self.batch(folder, parser: parser)
    let play = try #require(batch.plays.first { $0.text.hasPrefix(text) })
    #expect(play.type == .goal && play.side == .home && play.player == nil && play.assist == nil)
    #expect(play.details["unread"] == "true")
    let refusals = BatchValidator.refusals(of: batch)
    #expect(refusals.count == 1 && refusals[0].hasPrefix("unread: ") && refusals[0].contains(text), "\(refusals)")
    let goals = batch.plays.filter { $0.type == .goal }
    let game = try #require(batch.games.first)
    #expect(goals.filter { $0.side == .away }.count == game.away.score, "every goal is there")
    #expect(goals.filter { $0.side == .home }.count == game.home.score)
  }

  // MARK: Tables by their header

  /// A 2020 legacy box score prints `G` (games played) beside `Goals`, and ends goalie minutes,
  /// decisions and clear percentages with a slash.
  @Test func aGamesPlayedColumnBesideGoalsIsNotGoalsAndSlashedValuesAreRead() throws {
    let batch = try Self.batch("ncaa-legacy-box/games-played-column-2020", parser: "ncaa-legacy-box")
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.compactMap { $0.stats[StatKey.goals] }.reduce(0, +) == 5)
    #expect(box.home.players.compactMap { $0.stats[StatKey.goals] }.reduce(0, +) == 4)
    let goalie = try #require(box.away.players.first { $0.position == "G" })
    #expect(goalie.stats[StatKey.secondsPlayed] == 3600, "60:00/ is sixty minutes")
    #expect(goalie.stats[StatKey.clearsMade] == 10 && goalie.stats[StatKey.clearsAttempted] == 12)
    #expect(box.away.totals[StatKey.penaltySeconds] == 60)
    #expect(
      batch.warnings.contains("Air Force: column 'G' is games played here (the table has a Goals column): not read"))
    #expect(batch.warnings.contains("Air Force: column 'OTG' is not read"), "a header not known is named, not guessed")
  }

  @Test func gIsGoalsOnlyWhereNoGoalsColumnExistsWhateverTheOrder() {
    var warnings: [String] = []
    let after = BoxColumns.columns(
      ["Player", "Goals", "G", "Assists"], family: .lacrosse, table: "t", warnings: &warnings)
    #expect(after == [.name, .stat(StatKey.goals), .ignored, .stat(StatKey.assists)])
    let alone = BoxColumns.columns(["Player", "G", "A"], family: .lacrosse, table: "t", warnings: &warnings)
    #expect(alone == [.name, .stat(StatKey.goals), .stat(StatKey.assists)])
  }

  @Test func aPlayerTableWithoutAGoalsColumnIsAClearErrorNamingItsHeaders() throws {
    var page = try NCAAHandWrittenTests.page("ncaa-legacy-box/final")
    page.body = Data(
      String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: ">Goals<", with: ">Scores<").utf8)
    do {
      _ = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-legacy-box"))
      Issue.record("a table without goals must be refused")
    } catch let error as StatlineError {
      #expect(error.kind == .wrongPage && error.reason.contains("Air Force: the player table has no goals column"))
      #expect(error.reason.contains("headers: Player, Pos, Scores, Assists"), "\(error.reason)")
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func aCurrentLayoutBoxWithoutAGoalsColumnIsAClearErrorNamingItsTables() throws {
    var page = try NCAAHandWrittenTests.page("ncaa-stats-contest-box/womens-final")
    page.body = Data(
      String(decoding: page.body, as: UTF8.self).replacingOccurrences(
        of: #"<th class="no_padding">Goals</th>"#, with: #"<th class="no_padding">Scores</th>"#
      ).utf8)
    do {
      _ = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-contest-box"))
      Issue.record("tables without goals must be refused")
    } catch let error as StatlineError {
      #expect(error.kind == .wrongPage && error.reason.contains("has a name and a goals column"), "\(error.reason)")
      #expect(error.reason.contains("#, Name, P, Min, Scores, Assists"), "the headers found: \(error.reason)")
    } catch {
      Issue.record("\(error)")
    }
  }

  /// The TEAM and total rows are the team's, not players, by their class and, should the class
  /// go, by their names: the page without any tbody_border_top class reads the same.
  @Test func summaryRowsAreKnownByTheirNamesWithoutTheirClass() throws {
    let original = try Self.batch("ncaa-stats-contest-box/womens-final", parser: "ncaa-stats-contest-box")
    var page = try NCAAHandWrittenTests.page("ncaa-stats-contest-box/womens-final")
    let text = String(decoding: page.body, as: UTF8.self)
    try #require(text.contains(" tbody_border_top"))
    page.body = Data(text.replacingOccurrences(of: " tbody_border_top", with: "").utf8)
    let classless = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-contest-box"))
    #expect(classless.boxScores == original.boxScores && classless.games == original.games)
    let box = try #require(classless.boxScores.first)
    #expect(!(box.away.players + box.home.players).contains { $0.name.uppercased() == "TEAM" })
  }

  // MARK: Play-by-play tables by their header

  @Test func playColumnsAreReadByTheirHeaderText() {
    let home = PlayColumns.read(["Time", "Marist", "Score", "Air Force"], visitor: ["Air Force"], home: ["Marist"])
    #expect(home == PlayColumns(time: 0, score: 2, away: 3, home: 1), "the team columns by the names they print")
    let extra = PlayColumns.read(["Period", "Time", "Air Force", "Score", "Marist"])
    #expect(extra == nil, "three named columns besides Time and Score: not a period table")
    let shifted = PlayColumns.read(["", "Time", "Air Force", "Score", "Marist"], visitor: ["Air Force"])
    #expect(shifted == PlayColumns(time: 1, score: 3, away: 2, home: 4))
    #expect(PlayColumns.read(["Time", "Air Force", "Marist"]) == nil, "no Score column")
  }

  /// A legacy play-by-play whose tables print the home team's column first: the sides follow
  /// the header's names, not the column order.
  @Test func aPlayByPlayWithTheHomeColumnFirstKeepsEachPlaysSide() throws {
    var page = try NCAAHandWrittenTests.page("ncaa-legacy-pbp/final")
    var text = String(decoding: page.body, as: UTF8.self).replacingOccurrences(
      of: #"<th style="text-align:"center"">Air Force</th><th>Score</th><th>Marist</th>"#,
      with: "<th>Marist</th><th>Score</th><th>Air Force</th>")
    let row = try NSRegularExpression(
      pattern: #"<tr class="smtext"><td>([^<]*)</td><td>([^<]*)</td><td align=center>([^<]*)</td><td>([^<]*)</td></tr>"#
    )
    text = row.stringByReplacingMatches(
      in: text, range: NSRange(text.startIndex..., in: text),
      withTemplate: #"<tr class="smtext"><td>$1</td><td>$4</td><td align=center>$3</td><td>$2</td></tr>"#)
    page.body = Data(text.utf8)
    let swapped = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-legacy-pbp"))
    let original = try Self.batch("ncaa-legacy-pbp/final", parser: "ncaa-legacy-pbp")
    #expect(swapped.plays == original.plays, "the same plays, each on its own side")
    #expect(
      swapped.plays.first { $0.type == .goal }.map { ($0.side, $0.player) } ?? (nil, nil) == (.away, "Connor Meyers"))
  }

  // MARK: Team pages in every form

  /// An early-season team page: the heading's logo has no logo_image class (every game was
  /// refused with "the away team has no name"); unplayed games have an empty result and
  /// attendance.
  @Test func anEarlySeasonTeamPageIsReadWholeWithItsUnplayedGames() throws {
    let batch = try Self.batch("ncaa-stats-schedule/early-season-no-logo-class", parser: "ncaa-stats-schedule")
    #expect(batch.games.count == 6)
    #expect(batch.teams.first.map { ($0.id, $0.name) } ?? ("", "") == ("ncaa:team-614506", "Air Force Falcons"))
    let ours = batch.games.map { $0.away.team.id == "ncaa:team-614506" ? $0.away : $0.home }
    #expect(ours.allSatisfy { $0.team.name == "Air Force" }, "the logo's alt names the team in its games")
    #expect(batch.games.filter { $0.status == .final }.count == 3)
    let unplayed = batch.games.filter { $0.status == .scheduled }
    #expect(unplayed.count == 3 && unplayed.allSatisfy { !$0.away.team.name.isEmpty && !$0.home.team.name.isEmpty })
    #expect(unplayed.allSatisfy { $0.away.score == nil && $0.home.score == nil && $0.attendance == nil })
  }

  /// The schedule's columns come from its header row, and a game row is one whatever its class:
  /// Opponent before Date, an unread Time column and rows without `underline_rows` give the
  /// same games as the page laid out as usual, with the unread column named.
  @Test func aScheduleIsReadByItsHeaderWhateverItsColumnOrderAndRowClasses() throws {
    let usual = try Self.batch("ncaa-stats-schedule/early-season-no-logo-class", parser: "ncaa-stats-schedule")
    let reordered = try Self.batch("ncaa-stats-schedule/columns-reordered", parser: "ncaa-stats-schedule")
    #expect(reordered.games.count == 6)
    #expect(reordered.games == usual.games && reordered.teams == usual.teams)
    #expect(reordered.warnings == ["schedule columns not read: 'Time'"])
  }

  /// A schedule whose header row lacks a column the parser needs is a clear error naming the
  /// headers it found (the legacy layout: NCAARealScheduleTests).
  @Test func aScheduleWithoutAResultColumnIsAClearErrorNamingItsHeaders() throws {
    let page = try NCAAHandWrittenTests.page("ncaa-stats-schedule/early-season-no-logo-class")
    try Self.expectResultColumnMissing(page, renaming: "<th>Result</th>", parser: "ncaa-stats-schedule")
  }

  static func expectResultColumnMissing(_ page: Page, renaming header: String, parser: String) throws {
    var page = page
    let text = String(decoding: page.body, as: UTF8.self)
    try #require(text.contains(header))
    let renamed = header.replacingOccurrences(of: "Result", with: "Score")
    page.body = Data(text.replacingOccurrences(of: header, with: renamed).utf8)
    do {
      let batch = try PagePipeline.run(page, with: try NCAARun.entry(parser))
      Issue.record("read \(batch.games.count) games from a schedule without a Result column")
    } catch let error as StatlineError {
      #expect(error.kind == .wrongPage)
      #expect(error.reason.contains("no Date, Opponent and Result columns"), "\(error.reason)")
      #expect(error.reason.contains("'Date', 'Opponent', 'Score'"), "\(error.reason)")
    }
  }

  // MARK: Legacy rows

  @Test(arguments: ["final", "final-cell-class"])
  func legacyBoxRowsAreReadWhetherTheClassIsOnTheRowOrTheCells(_ form: String) throws {
    let batch = try Self.batch("ncaa-legacy-box/\(form)", parser: "ncaa-legacy-box")
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.map(\.name) == ["Connor Meyers", "Chris Lyons", "Luke Kirk", "Danny Rhee", "Max Gordon"])
    #expect(box.home.players.count == 4)
    #expect(box.away.players[0].stats[StatKey.goals] == 2 && box.away.players[0].stats[StatKey.shots] == 5)
    #expect(box.away.players[0].stats[StatKey.saves] == nil, "'-' and blank cells are no number")
    #expect(box.away.players[4].stats[StatKey.saves] == 11 && box.away.players[4].stats[StatKey.goalsAllowed] == 4)
    #expect(box.away.totals[StatKey.groundBalls] == 9 && box.home.totals[StatKey.goals] == 4)
    #expect(batch.warnings.isEmpty, "every column header is read: \(batch.warnings)")
  }

  @Test func theRealLegacyBoxMarkupHasNoCellClasses() throws {
    let html = String(decoding: try NCAAHandWrittenTests.page("ncaa-legacy-box/final").body, as: UTF8.self)
    #expect(!html.contains("<td class=\"smtext\""), "the fixture is in the real form (class on the row)")
    #expect(html.contains("<tr class=\"smtext\">") && html.contains("data-order=\"-\""))
  }

  // MARK: Period cards named by the site

  @Test func periodCardsAreNumberedInPageOrderAndKeepTheSitesNames() throws {
    let batch = try Self.batch("ncaa-stats-contest-pbp/quarters-and-overtime", parser: "ncaa-stats-contest-pbp")
    var labels: [Int: String] = [:]
    for play in batch.plays { labels[play.period ?? 0] = play.periodLabel }
    #expect(labels == [1: "1st Quarter", 2: "2nd Quarter", 3: "3rd Quarter", 4: "4th Quarter", 5: "1st OT"])
    let game = try #require(batch.games.first)
    #expect(game.status == .final && game.home.winner == true && game.home.periodScores == [1, 1, 0, 1, 1])
  }

  /// A men's basketball play-by-play (halves) is read: its plays by their texts (a row ending in
  /// `made` scores, its points from `3pt` / `freethrow`), the sport from the halves. This
  /// hand-written final lists two baskets of a 79-75 game, so its plays are refused together (the
  /// score plays do not add up) while the game is stored.
  @Test func aBasketballPlayByPlayIsReadByItsTextsAndHalves() throws {
    let page = try NCAAHandWrittenTests.page("ncaa-stats-contest-pbp/basketball-halves")
    let records = try ContestPlaysParser().parse(page)
    #expect(Set(records.rows.map(\.period)) == [1, 2] && records.rows.first?.periodLabel == "1st Half")
    let plays = BasketballPlayRows.plays(records.rows, gameId: "ncaa:6500104")
    #expect(plays.map(\.type) == [.score, .other, .other, .score, .periodEnd])
    #expect(plays[0].details["points"] == "2" && plays[0].side == .away && plays[0].player == "Graham Ike")
    #expect(BasketballPlayRows.actor("JT Toppin, 2pt jumpshot made").name == "JT Toppin")
    #expect(BasketballPlayRows.clock("19:41:00") == "19:41" && BasketballPlayRows.clock("00:55:50") == "00:55")
    // The byte shortcut reads as the split it stands in for.
    for text in [
      "9:41:00", "19:41:00", "19::41:00", ":19:41:0", "19:41:0:", "1941:00:", "19:41", "é:41:00", "19:4a:00",
    ] {
      let parts = text.split(separator: ":")
      #expect(
        BasketballPlayRows.clock(text) == GameText.clock(parts.count == 3 ? "\(parts[0]):\(parts[1])" : text), "\(text)"
      )
    }
    let batch = try Self.batch("ncaa-stats-contest-pbp/basketball-halves", parser: "ncaa-stats-contest-pbp")
    #expect(batch.games.first?.sport == .basketballMen && batch.games.first?.away.score == 79)
    #expect(batch.plays.isEmpty && batch.warnings.contains { $0.hasPrefix("refused: ") }, "\(batch.warnings)")
  }

  /// ncaa.com's flat basketball play-by-play: every entry a play, "X makes three point jump shot
  /// (Y assists)" a score play with its points and assist, the score and half from the plays.
  @Test func aGraphQLBasketballPlayByPlayIsReadFromItsFlatEntries() throws {
    let batch = try Self.batch("ncaa-gql-pbp/basketball-live", parser: "ncaa-gql-pbp")
    let game = try #require(batch.games.first)
    #expect(game.sport == .basketballMen && game.status == .live && game.period == 2)
    #expect(game.periodLabel == "2nd Half" && game.clock == "12:04" && game.away.score == 4 && game.home.score == 5)
    let scores = batch.plays.filter { $0.type == .score }
    #expect(scores.map { $0.details["points"] } == ["3", "2", "1", "1", "2"])
    #expect(scores[1].player == "Joel Armotrading" && scores[1].assist == "Isaiah Moses" && scores[1].side == .away)
    #expect(batch.plays.count == 8 && batch.warnings.isEmpty)
  }

  /// Each entry prints its score twice: flat, "(visitor-home)", and as two numbers. Without the
  /// numbers the flat score is read; where the two disagree the numbers are kept, and said so.
  @Test func aGraphQLBasketballEntrysFlatScoreIsReadWhereItsNumbersAreMissing() throws {
    var page = try NCAAHandWrittenTests.page("ncaa-gql-pbp/basketball-live")
    let text = String(decoding: page.body, as: UTF8.self)
    let withoutNumbers = text.split(separator: "\n", omittingEmptySubsequences: false)
      .filter { !$0.contains("\"homeScore\"") && !$0.contains("\"visitorScore\"") }.joined(separator: "\n")
    #expect(withoutNumbers.count < text.count)
    page.body = Data(withoutNumbers.utf8)
    let flat = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-gql-pbp"))
    let original = try Self.batch("ncaa-gql-pbp/basketball-live", parser: "ncaa-gql-pbp")
    #expect(flat.games.first?.away.score == 4 && flat.games.first?.home.score == 5 && flat.warnings.isEmpty)
    #expect(flat.plays.map(\.awayScore) == original.plays.map(\.awayScore))
    #expect(flat.plays.map(\.homeScore) == original.plays.map(\.homeScore))
    page.body = Data(text.replacingOccurrences(of: #""score": "(0-3)""#, with: #""score": "(0-2)""#).utf8)
    let disagreeing = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-gql-pbp"))
    #expect(disagreeing.plays.map(\.homeScore) == original.plays.map(\.homeScore))
    #expect(
      disagreeing.warnings == [
        #"1 entry prints a score "(visitor-home)" other than its visitorScore and homeScore: the numbers are kept"#
      ])
  }

  /// A period numbered other than from 1 to 99 (0, below, a billion, a word, or not at all)
  /// cannot place its plays, and the score made of the plays would leave them out: the answer is
  /// refused, naming the period. (Found by the fuzzer: a period numbered -1 stopped the process;
  /// a billion would have asked for gigabytes of period scores.)
  @Test func aPeriodNotNumberedFromOneRefusesTheAnswer() throws {
    let page = try NCAAHandWrittenTests.page("ncaa-gql-pbp/annotated-goals")
    let text = String(decoding: page.body, as: UTF8.self)
    for number in ["-1", "0", "100", "1000000000", #""OT""#, "null"] {
      var edited = page
      edited.body = Data(
        text.replacingOccurrences(of: #""periodNumber": 1"#, with: #""periodNumber": \#(number)"#).utf8)
      #expect(edited.body != page.body)
      do {
        _ = try PagePipeline.run(edited, with: try NCAARun.entry("ncaa-gql-pbp"))
        Issue.record("period number \(number): the answer must be refused")
      } catch let error as StatlineError {
        #expect(
          error.kind == .wrongPage
            && error.reason.contains(number == "null" ? "periodNumber" : "period 1 of the play-by-play is numbered"),
          "\(error.reason)")
      }
    }
  }

  /// A running score no game has (below 0, past 999,999,999) refuses the answer, naming the play:
  /// the game's score is made of the running scores, so it is never added up (where 9×10¹⁸ less
  /// its predecessor overflowed and stopped the process).
  @Test func aRunningScoreNoGameHasRefusesTheAnswer() throws {
    let page = try NCAAHandWrittenTests.page("ncaa-gql-pbp/annotated-goals")
    let text = String(decoding: page.body, as: UTF8.self)
    for score in ["-1", "1000000000", "9000000000000000000"] {
      var edited = page
      edited.body = Data(text.replacingOccurrences(of: #""homeScore": 1,"#, with: #""homeScore": \#(score),"#).utf8)
      #expect(edited.body != page.body)
      do {
        _ = try PagePipeline.run(edited, with: try NCAARun.entry("ncaa-gql-pbp"))
        Issue.record("score \(score): the answer must be refused")
      } catch let error as StatlineError {
        #expect(
          error.kind == .wrongPage && error.reason.contains("prints the running score \(score)"), "\(error.reason)")
      }
    }
  }

  /// The real answer is trimmed by its publisher (six plays of a final): its plays are read, and
  /// its game, final with no score the answer gives, is refused rather than given the score of
  /// the first minutes.
  @Test(.enabled(if: RealPages.available)) func aTrimmedBasketballAnswerGivesItsPlaysAndNoWrongScore() throws {
    let page = try RealPages.page(
      "ncaa-data/gql-pbp-mbb-6351148-ucriverside-at-hawaii-trimmed.json",
      url: PersistedQuery.contestURL(operation: PersistedQuery.playByPlay, contestId: "6351148"))
    let batch = try PagePipeline.run(page, with: try NCAARun.entry("ncaa-gql-pbp"))
    #expect(batch.games.isEmpty && batch.warnings.contains { $0.contains("the answer is trimmed") })
    #expect(
      batch.plays.count == 6
        && batch.plays.filter { $0.type == .score }.map(\.player) == ["Ryan Rapp", "Joel Armotrading"])
  }

  @Test func aPageWithoutAPeriodTableIsTheWrongPage() throws {
    var page = try NCAAHandWrittenTests.page("ncaa-stats-contest-pbp/final")
    page.body = Data(String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: ">Score<", with: ">Pts<").utf8)
    let error = try #require(throws: StatlineError.self) {
      try PagePipeline.run(page, with: try NCAARun.entry("ncaa-stats-contest-pbp"))
    }
    #expect(error.kind == .wrongPage && error.reason.contains("Time | visitor | Score | home"))
  }

  // MARK: The summary box-score tab

  /// The summary tab carries the game (issue 55): both teams with their records, the line
  /// score, date, venue and attendance, final by the header's winner; no box score, and the tab
  /// that has it named.
  @Test func theSummaryBoxScoreTabGivesItsGameAndNamesTheBoxScoresTab() throws {
    let batch = try Self.batch("ncaa-stats-contest-box/summary-tab", parser: "ncaa-stats-contest-box")
    let game = try #require(batch.games.first)
    #expect(game.id == "ncaa:6500105" && batch.boxScores.isEmpty && batch.plays.isEmpty)
    #expect(game.status == .final && game.away.winner == true && (game.away.score, game.home.score) == (7, 6))
    #expect(game.away.periodScores == [2, 1, 1, 3] && game.home.periodScores == [1, 2, 0, 3])
    #expect(game.away.record == "3-1" && game.home.record == "4-0")
    #expect(game.date == "2026-03-07" && game.venue == "Michie Stadium (West Point, NY)" && game.attendance == 1_204)
    #expect(batch.teams.map(\.id) == ["ncaa:team-600010", "ncaa:team-600011"])
    #expect(
      batch.warnings.contains {
        $0.contains("summary tab") && $0.contains("https://stats.ncaa.org/contests/6500105/individual_stats")
      })
    #expect(batch.warnings.contains("the summary tab names no sport and its target none: the game's sport is unknown"))
    #expect(batch.warnings.contains { $0.contains("the winner beside both totals: the game is read as final") })
    var page = try NCAAHandWrittenTests.page("ncaa-stats-contest-box/summary-tab")
    page.sport = .lacrosseMen
    let hinted = try NCAAHandWrittenTests.run(page, parser: "ncaa-stats-contest-box")
    #expect(hinted.games.first?.sport == .lacrosseMen && !hinted.warnings.contains { $0.contains("names no sport") })
  }

  @Test func aSummaryTabInOvertimeReadsItsOvertimeColumnAndTheSportItsLinksState() throws {
    let batch = try Self.batch("ncaa-stats-contest-box/summary-tab-overtime", parser: "ncaa-stats-contest-box")
    let game = try #require(batch.games.first)
    #expect(game.sport == .lacrosseWomen && game.status == .final && game.period == 5)
    #expect(game.away.periodScores == [3, 2, 4, 1, 0] && game.home.periodScores == [2, 3, 2, 3, 1])
    #expect((game.away.score, game.home.score) == (10, 11) && game.home.winner == true)
    #expect(
      batch.warnings.contains(
        "the page names its sport only in its links (sport_code=WLA): the sport is lacrosse-women"))
  }

  @Test func discoveryNeverAsksForCurrentLayoutBoxScoreTabs() throws {
    let batch = try Self.batch("ncaa-stats-scoreboard/mixed-day", parser: "ncaa-stats-scoreboard")
    let targets = NCAASource.contestTargets(batch).map(\.target.url)
    #expect(!targets.isEmpty)
    #expect(targets.allSatisfy { !$0.contains("/box_score") }, "\(targets)")
    #expect(
      targets.contains { $0.hasSuffix("/individual_stats") } && targets.contains { $0.hasSuffix("/play_by_play") })
  }
}

/// Through the real poller: a page with a goal the grammar cannot read is stored (the goal as
/// what its running score proves), captured as a partial page, and its poll says so.
@Suite struct NCAAUnreadGoalJobTests {
  @Test func aGoalTheGrammarCannotReadIsStoredUnreadAndThePageCapturedAsPartial() async throws {
    let url = "https://stats.ncaa.org/contests/6500103/play_by_play"
    let target = Target(url: url, source: "ncaa", parser: "ncaa-stats-contest-pbp", role: .game)
    let page = try NCAAHandWrittenTests.page("ncaa-stats-contest-pbp/unreadable-goal")
    let store = MemoryStore()
    let captures = MemoryCaptures()
    let (reports, _, _) = try await NCAABlockedPageTests.poll(
      [.ok(String(decoding: page.body, as: UTF8.self))], store: store, captures: captures, target: target)
    #expect(reports.map(\.outcome) == [.stored])
    let partial = reports.first?.partial ?? []
    #expect(partial.count == 1 && partial[0].contains("GOAL (FREE POSITION) by UVA Lane, Jack."), "\(reports)")
    let stored = try await store.changes(since: 0, limit: 100)
    let plays = stored.compactMap { change -> Play? in if case .play(let play) = change.record { play } else { nil } }
    #expect(plays.contains { $0.isUnread && $0.type == .goal && $0.player == nil }, "the unread goal is stored")
    #expect(stored.contains { $0.kind == .game }, "and the game with it")
    let saved = await captures.saved
    #expect(saved.count == 1 && saved.first?.error.kind == .partial)
    #expect(reports.first?.capture != nil)
  }
}
