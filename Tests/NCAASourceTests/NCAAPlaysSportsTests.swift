import Foundation
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineTesting
import Testing

@testable import NCAASource

/// stats.ncaa.org play-by-play of the sports read by their running score (issue 30, point 3):
/// baseball's innings and volleyball's sets without a time column, soccer's goals, football's
/// scores in kinds, and the events they give.
@Suite struct NCAAPlaysSportsTests {
  static let parser = "ncaa-stats-contest-pbp"

  static func page(_ folder: String) throws -> Page {
    try NCAAHandWrittenTests.page("ncaa-stats-contest-pbp/\(folder)")
  }

  static func run(_ page: Page) throws -> Batch { try NCAAHandWrittenTests.run(page, parser: parser) }

  static func scoring(_ batch: Batch) -> [Play] { batch.plays.filter { $0.type == .score || $0.type == .goal } }

  @Test func baseballRunsAreReadByTheRunningScoreInningByInning() throws {
    let batch = try Self.run(try Self.page("baseball-innings"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .baseball && game.status == .final && game.away.score == 3 && game.home.score == 5)
    let runs = Self.scoring(batch)
    #expect(runs.count == 6)
    #expect(runs.filter { $0.side == .away }.compactMap { Int($0.details["points"] ?? "") }.reduce(0, +) == 3)
    #expect(runs.filter { $0.side == .home }.compactMap { Int($0.details["points"] ?? "") }.reduce(0, +) == 5)
    let homer = try #require(runs.first)
    #expect(homer.period == 1 && homer.periodLabel == "1st Inning" && homer.clock == nil)
    #expect(homer.details["kind"] == "homeRun" && homer.details["points"] == "2" && homer.player == "Mateo Diaz")
    #expect(batch.plays.filter { $0.type == .periodEnd }.count == 9, "the innings' end rows span the table")
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
  }

  @Test func baseballPlaysWithoutTheirSportAreRefusedSayingHowToNameIt() throws {
    var page = try Self.page("baseball-innings")
    page.sport = nil
    let error = try #require(throws: StatlineError.self) { try Self.run(page) }
    #expect(error.kind == .unsupported && error.reason.contains("does not say which"))
    page.sport = .softball
    #expect(try Self.run(page).games.first?.sport == .softball)
  }

  @Test func aRunningScoreThatEndsShortOfTheHeadersScoreRefusesThePlays() throws {
    // The header says 6 for the home team; the rows reach 5: the plays are refused, named.
    var page = try Self.page("baseball-innings")
    page.body = Data(
      String(decoding: page.body, as: UTF8.self).replacingOccurrences(
        of: #"<td class="grey_text" align="right">X</td>"#, with: #"<td class="grey_text" align="right">1</td>"#
      ).replacingOccurrences(of: "\n                    5\n", with: "\n                    6\n").utf8)
    let batch = try Self.run(page)
    #expect(batch.games.first?.home.score == 6)
    #expect(batch.plays.isEmpty)
    #expect(batch.warnings.contains { $0.hasPrefix(BatchValidator.refusedPrefix) && $0.contains("5") })
  }

  @Test func volleyballRalliesStartAgainEachSetAndAnErrorNamesNoScorer() throws {
    let batch = try Self.run(try Self.page("volleyball-sets"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .volleyball && game.away.score == 3 && game.home.score == 2)
    let points = Self.scoring(batch)
    for (set, score) in zip(1...5, [(25, 20), (22, 25), (25, 23), (20, 25), (15, 12)]) {
      let rallies = points.filter { $0.period == set }
      #expect(
        rallies.filter { $0.side == .away }.count == score.0 && rallies.filter { $0.side == .home }.count == score.1)
      #expect(rallies.first.map { ($0.awayScore ?? 0) + ($0.homeScore ?? 0) } == 1, "set \(set) starts at 1-0 or 0-1")
    }
    let error = try #require(points.first { $0.text.hasPrefix("Attack error by") })
    #expect(error.player == nil && error.side == .home, "Stanford's error is Penn St.'s point, no scorer of theirs")
  }

  @Test func soccerGoalsNameScorerAndAssistAndTheTargetSaysMens() throws {
    var page = try Self.page("soccer-men-overtime")
    let batch = try Self.run(page)
    #expect(batch.games.first?.sport == .soccerMen)
    let goals = Self.scoring(batch)
    #expect(goals.map(\.type) == [.goal, .goal, .goal] && goals.map(\.period) == [1, 2, 3])
    #expect(goals.first?.player == "Leo Grant" && goals.first?.assist == "Omar Hayes" && goals.first?.clock == "31:05")
    page.sport = nil
    #expect(try Self.run(page).games.first?.sport == .soccer)
    // The same plays in quarters are field hockey's.
    page.body = Data(
      String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: "1st Half</div>", with: "1st Quarter</div>")
        .utf8)
    #expect(try Self.run(page).games.first?.sport == .fieldHockey)
  }

  /// Football's page is drives (`FootballDrives`): the score after each drive is the running
  /// score, the words say which play scored it and its kind; a touchdown returned by the
  /// defense is the defense's; a drive that runs into the 2nd quarter scores in the 2nd.
  @Test func footballDrivesScoreInKindsAndAPassingTouchdownIsTheReceivers() throws {
    let batch = try Self.run(try Self.page("football-drives"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .football && game.away.score == 17 && game.home.score == 24)
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    let scores = Self.scoring(batch)
    #expect(scores.filter { $0.details["kind"] == "touchdown" }.count == 5)
    #expect(scores.filter { $0.details["kind"] == "fieldGoal" }.map(\.player) == ["Quinn Wade", "Finn Drake"])
    #expect(scores.filter { $0.details["kind"] == "extraPoint" }.allSatisfy { $0.details["points"] == "1" })
    let passing = try #require(scores.first { $0.text.contains("pass complete short right to Abel,Eli") })
    #expect(passing.player == "Eli Abel" && passing.side == .home && passing.period == 2, "\(passing)")
    #expect(passing.periodLabel == "2nd Quarter" && passing.clock == "14:20")
    let returned = try #require(scores.first { $0.text.contains("intercepted by Cruz,Dan") })
    #expect(returned.side == .home && returned.player == "Dan Cruz" && returned.homeScore == 13)
    // Each quarter's points are the line score's.
    for (side, line) in [(Side.away, [7, 3, 0, 7]), (Side.home, [0, 14, 7, 3])] {
      let byQuarter = (1...4).map { quarter in
        scores.filter { $0.side == side && $0.period == quarter }.compactMap { Int($0.details["points"] ?? "") }
          .reduce(0, +)
      }
      #expect(byQuarter == line, "\(side)")
    }
  }

  /// Points a drive's words do not explain go on its last play, named, so the running score is
  /// still the page's; a page with neither period tables nor drives is refused.
  @Test func aDrivesPointsItsWordsDoNotExplainGoOnItsLastPlay() throws {
    let page = NCAABoxSportsTests.edited(try Self.page("football-drives")) { html in
      html.replacingOccurrences(of: "to the ARMY00 TOUCHDOWN, clock 10:30.", with: "to the ARMY00, clock 10:30.")
    }
    let batch = try Self.run(page)
    #expect(batch.warnings.count == 1 && batch.warnings[0].contains("6 of its points"), "\(batch.warnings)")
    let last = try #require(Self.scoring(batch).first { $0.period == 3 && $0.awayScore == 10 && $0.homeScore == 21 })
    #expect(last.text.hasPrefix("Drake,Finn kick attempt good") && last.details["points"] == "7")
    #expect(
      Self.scoring(batch).filter { $0.side == .home }.compactMap { Int($0.details["points"] ?? "") }.reduce(0, +) == 24)

    // A scoring drive whose plays the page leaves out: its points go with the next drive, said.
    let bare = NCAABoxSportsTests.edited(try Self.page("football-drives")) { html in
      let drive = try! NSRegularExpression(
        pattern: #"(>10 - 7</div>\s*</div>\s*</h5>\s*<div class="scoring_play">).*?(\n     </div>)"#,
        options: [.dotMatchesLineSeparators])
      return drive.stringByReplacingMatches(
        in: html, range: NSRange(html.startIndex..., in: html), withTemplate: "$1$2")
    }
    let carried = try Self.run(bare)
    #expect(carried.warnings.contains { $0.contains("FG") && $0.contains("lists no plays") }, "\(carried.warnings)")
    #expect(
      Self.scoring(carried).filter { $0.side == .away }.compactMap { Int($0.details["points"] ?? "") }.reduce(0, +)
        == 17)

    let empty = NCAABoxSportsTests.edited(try Self.page("football-drives")) { html in
      html.replacingOccurrences(of: "class=\"drives\"", with: "class=\"legend\"")
    }
    let error = try #require(throws: StatlineError.self) { try Self.run(empty) }
    #expect(error.kind == .wrongPage && error.reason.contains("no drives"), "\(error)")
  }

  /// A real 2025 page of a game decided in overtime prints "1st OT" over an empty `div.drives`:
  /// its points are in the line score only. They are one score per side with no play read,
  /// named, so the game's plays are kept (every one was refused: the running score stopped at
  /// the end of regulation).
  @Test func anOvertimeThatListsNoDrivesIsTheLineScoresPointsNamed() throws {
    let batch = try Self.run(try Self.page("football-overtime-unlisted"))
    let game = try #require(batch.games.first)
    #expect(game.status == .final && game.away.score == 24 && game.home.score == 27)
    #expect(game.home.periodScores == [0, 14, 7, 3, 3])
    #expect(
      batch.warnings == [
        "1st OT lists no drives, but the line score gives it 0-3: stored as a score with no play read for each "
          + "side that scored (details.fromLineScore)"
      ])
    #expect(batch.plays.count == 83 && BatchValidator.refusals(of: batch).isEmpty)
    let overtime = try #require(batch.plays.last)
    #expect(overtime.period == 5 && overtime.periodLabel == "1st OT" && overtime.type == .score)
    #expect(overtime.side == .home && overtime.details["points"] == "3" && overtime.player == nil)
    #expect(overtime.details["fromLineScore"] == "true" && overtime.details["unread"] == "true")
    #expect((overtime.awayScore, overtime.homeScore) == (24, 27) && overtime.text.isEmpty)
    // Regulation is read as before: the tying touchdown and its try.
    let tying = try #require(Self.scoring(batch).first { $0.text.contains("TOUCHDOWN, clock 02:10") })
    #expect(tying.player == "Casey Sims" && tying.awayScore == 23 && tying.period == 4)

    // A period that lists no drives and whose line gives it no points adds nothing.
    let live = NCAABoxSportsTests.edited(try Self.page("football-overtime-unlisted")) { html in
      html.replacingOccurrences(
        of: #"<td class="grey_text" align="right">3</td><td class="grey_text" align="right">3</td>"#,
        with: #"<td class="grey_text" align="right">3</td><td class="grey_text" align="right">0</td>"#
      ).replacingOccurrences(of: "                    27", with: "                    24")
        .replacingOccurrences(of: #"style="font-weight:bold">27<"#, with: #"style="font-weight:bold">24<"#)
    }
    let tied = try Self.run(live)
    #expect(tied.plays.count == 82 && tied.plays.allSatisfy { $0.details["fromLineScore"] == nil })
  }

  @Test func aFootballPlayersNameIsReadTheSitesWay() {
    #expect(
      FootballDrives.scorer("Shotgun Hatcher Jr.,Cornell rush middle for 4 yards gain TOUCHDOWN")
        == "Cornell Hatcher Jr.")
    #expect(FootballDrives.scorer("Ojeda,Caleb kick attempt good (H: Winsor,AJ, LS: Haverland,Will).") == "Caleb Ojeda")
    #expect(
      FootballDrives.scorer("Murphy,Maalik pass complete short left to Wells Jr.,David caught at HOU05")
        == "David Wells Jr.")
    #expect(FootballDrives.scorer("Mews,Mekhi return 20 yards") == "Mekhi Mews")
    #expect(FootballDrives.scorer("Timeout Oregon St., clock 08:16.") == nil)
    #expect(
      FootballDrives.points("Reichle,Jake rush middle for 1 yard gain to the HOU00 TOUCHDOWN, clock 08:12.").map(
        \.points) == [6])
    #expect(FootballDrives.points("Smith,Al rush for 9 yards to the HOU00 TOUCHDOWN nullified by penalty").isEmpty)
    #expect(FootballDrives.points("Lee,Bo field goal attempt from 52 yards NO GOOD").isEmpty)
    #expect(FootballDrives.points("Team safety, SAFETY").map { $0.defense } == [true])
  }

  /// ncaa.com's football play-by-play (its own query, the generic shape with a score on each
  /// play): read by the running score, the game's score and line from its scoring plays; an
  /// interception returned is the defense's score.
  @Test func aGraphQLFootballPlayByPlayIsReadByItsRunningScore() throws {
    let batch = try NCAAHandWrittenTests.batch("ncaa-gql-pbp/football-final", parser: "ncaa-gql-pbp")
    let game = try #require(batch.games.first)
    #expect(game.sport == .football && game.status == .final && game.away.score == 17 && game.home.score == 24)
    #expect(game.away.periodScores == [7, 3, 0, 7] && game.home.periodScores == [0, 14, 7, 3])
    #expect(game.home.winner == true && game.away.team.name == "Army")
    let scores = Self.scoring(batch)
    #expect(scores.count == 12 && scores.filter { $0.details["kind"] == "touchdown" }.count == 5)
    let returned = try #require(scores.first { $0.text.contains("intercepted by Cruz,Dan") })
    #expect(returned.side == .home && returned.player == "Dan Cruz" && returned.details["points"] == "6")
    #expect(scores.first { $0.text.contains("to Abel,Eli") }?.player == "Eli Abel")
    #expect(scores.filter { $0.details["kind"] == "fieldGoal" }.map(\.player) == ["Quinn Wade", "Finn Drake"])

    // Discovery asks football's query for a football game, the generic one for lacrosse's.
    let board = Batch(games: [
      Game(
        id: "ncaa:com-6600601", sport: .football, status: .live, period: 1,
        away: TeamLine(team: TeamRef(name: "Army"), score: 0), home: TeamLine(team: TeamRef(name: "Navy"), score: 0)),
      Game(
        id: "ncaa:com-6600101", sport: .lacrosseMen, status: .live, period: 1,
        away: TeamLine(team: TeamRef(name: "Army"), score: 0), home: TeamLine(team: TeamRef(name: "Navy"), score: 0)),
    ])
    let pbp = NCAASource.comTargets(board).filter { $0.target.parser == "ncaa-gql-pbp" }
    #expect(pbp.map { $0.target.url.contains("NCAA_GetGamecenterPbpFootballById_web") } == [true, false])
    #expect(try NCAARun.entry("ncaa-gql-pbp").urlPatterns.contains { $0.matches(pbp[0].target.url) })
    // Asked with football's own hash (configurable like the others).
    let request = PersistedQuery.request(pbp[0].target.url, hashes: [:], now: Date(timeIntervalSince1970: 0))
    #expect(request.contains(PersistedQuery.defaultHashes[PersistedQuery.playByPlayFootball]!), "\(request)")
    let configured = PersistedQuery.request(
      pbp[0].target.url, hashes: [PersistedQuery.playByPlayFootball: "fresh"], now: Date(timeIntervalSince1970: 0))
    #expect(configured.contains("%22fresh%22") || configured.contains("\"fresh\""), "\(configured)")
  }

  /// A volleyball answer (a set's running score, shape unknown) is refused, naming what is read.
  @Test func aGraphQLVolleyballPlayByPlayIsRefusedNamingWhatIsRead() throws {
    let page = NCAABoxSportsTests.edited(try NCAAHandWrittenTests.page("ncaa-gql-pbp/football-final")) {
      $0.replacingOccurrences(of: "MFB PLAY-BY-PLAY", with: "WVB PLAY-BY-PLAY")
    }
    let error = try #require(throws: StatlineError.self) { try NCAAHandWrittenTests.run(page, parser: "ncaa-gql-pbp") }
    #expect(error.kind == .unsupported && error.reason.contains("'WVB'") && error.hint?.contains("MFB") == true)
  }

  @Test func theDifferSpeaksEachSportFromThesePlays() throws {
    let batch = try Self.run(try Self.page("baseball-innings"))
    let final = try #require(batch.games.first)
    var live = final
    (live.status, live.period, live.away.score, live.home.score) = (.live, 1, 0, 0)
    (live.away.periodScores, live.home.periodScores, live.away.winner, live.home.winner) = ([], [], nil, nil)
    let events = ScoreDiffer.events(previous: live, current: final, plays: batch.plays)
    let scored = events.filter { $0.type == .scored }
    #expect(scored.count == 6 && scored.allSatisfy { $0.sport == .baseball })
    #expect(scored.first?.details["kind"] == "homeRun" && scored.first?.player == "Mateo Diaz")
    #expect(scored.first?.points == 2 && events.contains { $0.type == .final })
    #expect(!events.contains { $0.type == .goal }, "runs are not goals")

    let soccer = try Self.run(try Self.page("soccer-men-overtime"))
    var start = try #require(soccer.games.first)
    let end = start
    (start.status, start.period, start.away.score, start.home.score) = (.live, 1, 0, 0)
    (start.away.periodScores, start.home.periodScores, start.away.winner, start.home.winner) = ([], [], nil, nil)
    let goals = ScoreDiffer.events(previous: start, current: end, plays: soccer.plays).filter { $0.type == .goal }
    #expect(goals.map(\.player) == ["Leo Grant", "Eli Jones", "Leo Grant"])
  }

  @Test func eachSportsWordsAndCardsSayTheSport() throws {
    #expect(PlayRows.otherSport(of: ["Quinn, Bryson rush for 12 yards, TOUCHDOWN."]) == "football")
    #expect(PlayRows.otherSport(of: ["Penalty corner for UNC.", "Green card on Moore, Erin."]) == "field hockey")
    #expect(
      try ScoredPlayRows.sport(words: "soccer", periodLabels: ["1st Quarter"], hint: .soccerWomen) == .fieldHockey)
    #expect(try ScoredPlayRows.sport(words: "volleyball", periodLabels: [], hint: .volleyballMen) == .volleyballMen)
    #expect(try ScoredPlayRows.sport(words: "ice hockey", periodLabels: [], hint: nil) == .unknown)
    #expect(try ScoredPlayRows.sport(words: nil, periodLabels: [], hint: .football) == .football)
    #expect(
      try ScoredPlayRows.sport(words: nil, periodLabels: [], hint: .lacrosseMen) == nil, "lacrosse has its grammar")
    #expect(try ScoredPlayRows.sport(words: nil, periodLabels: [], hint: nil) == nil)
  }

  /// A scorer is named only where the text names one the site's way; any other `by` names
  /// someone else, and an error names the player who erred, so neither is a scorer.
  @Test func aScorerIsNamedOnlyWhereTheTextSaysSo() {
    let cases: [(String, String?)] = [
      ("Goal by Grant, Leo (Assist by Hayes, Omar).", "Leo Grant"),
      ("Service ace by Ames, Kira.", "Kira Ames"),
      ("York, Blake pass complete to Abel, Eli for 41 yards, TOUCHDOWN.", "Eli Abel"),
      ("Diaz, Mateo homered to left field, 2 RBI.", "Mateo Diaz"),
      ("Gray, Will scored on a wild pitch by Reed, Owen.", "Will Gray"),
      ("Attack error by Cole, Ruby.", nil),
      ("Block by Frost, Maya.", nil),
    ]
    for (text, scorer) in cases {
      #expect(ScoredPlayRows.scorer(text, lowered: text.lowercased()) == scorer, "\(text)")
    }
  }

  @Test func aPrintedScoreThatFallsIsACorrectionNotAScore() {
    let rows = [
      PlayRow(period: 1, clock: nil, side: .away, text: "Goal by Grant, Leo.", away: 2, home: 0),
      PlayRow(period: 1, clock: nil, side: .home, text: "Scoring change.", away: 1, home: 0),
      PlayRow(period: 1, clock: nil, side: .away, text: "Goal by Grant, Leo.", away: 2, home: 0),
    ]
    let plays = ScoredPlayRows.plays(rows, gameId: "g", sport: .soccerMen)
    #expect(plays.map(\.type) == [.goal, .other, .goal])
    #expect(plays[1].awayScore == nil && plays[2].awayScore == 2)
  }
}
