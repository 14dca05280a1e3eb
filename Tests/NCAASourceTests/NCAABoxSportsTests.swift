import Foundation
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineTesting
import Testing

@testable import NCAASource

/// stats.ncaa.org box scores of every sport (issue 30, point 3): the hand-written pages' key
/// facts beyond their goldens, and what each sport's words, line score and target decide.
@Suite struct NCAABoxSportsTests {
  static let parser = "ncaa-stats-contest-box"

  static func page(_ folder: String) throws -> Page {
    try NCAAHandWrittenTests.page("ncaa-stats-contest-box/\(folder)")
  }

  static func run(_ page: Page) throws -> Batch { try NCAAHandWrittenTests.run(page, parser: parser) }

  static func edited(_ page: Page, _ edit: (String) -> String) -> Page {
    var page = page
    page.body = Data(edit(String(decoding: page.body, as: UTF8.self)).utf8)
    return page
  }

  /// The page with no winner marked and the header's two big score cells set to `scores`.
  static func unfinished(_ html: String, scores: (Int, Int)) -> String {
    var parts = html.replacingOccurrences(
      of: #"<td valign="center" class="winner">"#, with: #"<td valign="center" class="">"#
    ).components(separatedBy: "font-size:36px")
    for (index, score) in [scores.0, scores.1].enumerated() where index + 1 < parts.count {
      let cell = parts[index + 1]
      let close = cell.firstIndex(of: ">")!
      let end = cell[close...].firstIndex(of: "<")!
      parts[index + 1] = String(cell[...close]) + "\(score)" + String(cell[end...])
    }
    return parts.joined(separator: "font-size:36px")
  }

  @Test func aBaseballBoxMergesEachPlayersBattingPitchingAndFieldingAndItsRunsAddUp() throws {
    let batch = try Self.run(try Self.page("baseball-final"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .baseball && game.status == .final && game.period == 9 && game.home.winner == true)
    #expect(game.away.periodScores == [0, 1, 0, 0, 2, 0, 0, 0, 0] && game.away.score == 3)
    #expect(game.home.periodScores.count == 8, "the home ninth that was not needed (X) is left out, not 0")
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.compactMap { $0.stats["runs"] }.reduce(0, +) == 3)
    #expect(box.home.players.compactMap { $0.stats["runs"] }.reduce(0, +) == 5)
    // The starter's pitching and fielding lines are one player; 7.1 innings are 22 outs.
    let moss = try #require(box.home.players.first { $0.name == "Carter Moss" })
    #expect(moss.stats["outsPitched"] == 22 && moss.stats["putouts"] == 1 && moss.stats["hitsAllowed"] == 6)
    #expect(box.home.players.filter { $0.name == "Carter Moss" }.count == 1)
    // A pitcher's H and R are hits and runs allowed, a batter's his own.
    let brooks = try #require(box.home.players.first { $0.name == "Eli Brooks" })
    #expect(brooks.stats["hits"] == 3 && brooks.stats["hitsAllowed"] == nil && brooks.stats["putouts"] == 4)
    #expect(box.away.totals["outsPitched"] == 24 && box.away.totals["errors"] == 1 && box.away.totals["runs"] == 3)
  }

  @Test func aBaseballBoxWhoseRunsDoNotAddUpIsRefusedAlone() throws {
    // Carter's run becomes two: Indiana's batters add up to 4 against a score of 3.
    let page = Self.edited(try Self.page("baseball-final")) {
      $0.replacingOccurrences(
        of: #"<a href="/players/3003">Carter, Jace</a></td><td>1B</td><td data-order="1">1</td>"#,
        with: #"<a href="/players/3003">Carter, Jace</a></td><td>1B</td><td data-order="2">2</td>"#)
    }
    let refused = try Self.run(page)
    #expect(refused.games.count == 1 && refused.boxScores.isEmpty)
    #expect(refused.warnings.contains { $0.hasPrefix(BatchValidator.refusedPrefix) && $0.contains("runs add up to 4") })
  }

  @Test func baseballOrSoftballIsTheTargetsToSayAndUnknownWhenNobodySays() throws {
    var page = try Self.page("baseball-final")
    page.sport = .softball
    #expect(try Self.run(page).games.first?.sport == .softball)
    // Without the sport the innings cannot be checked (a home ninth left out is no error in
    // baseball only): the page is refused, saying how to name it.
    page.sport = nil
    let silent = try #require(throws: StatlineError.self) { try Self.run(page) }
    #expect(silent.kind == .unsupported && silent.reason.contains("does not say baseball or softball"))
    #expect(silent.hint?.contains("--sport") == true)
    page.sport = .lacrosseMen
    #expect(throws: StatlineError.self, "a target's sport of another family is not taken") { try Self.run(page) }
  }

  @Test func aBaseballGameWithoutAWinnerIsLiveInTheHalfInningItsLineScoreSays() throws {
    let final = try Self.page("baseball-final")
    func live(visitor: [Int], home: [Int]) throws -> Game {
      // The line score's 18 inning cells (nine a team) hold the innings played, then blanks.
      let page = Self.edited(final) { html in
        let cell = #"<td class="grey_text" align="right">"#
        let parts = Self.unfinished(html, scores: (visitor.reduce(0, +), home.reduce(0, +)))
          .components(separatedBy: cell)
        return parts.dropFirst().enumerated().reduce(parts[0]) { html, part in
          let team = part.offset < 9 ? visitor : home
          let inning = part.offset % 9
          return html + cell + (inning < team.count ? String(team[inning]) : "") + part.element.drop { $0 != "<" }
        }
      }
      return try #require(try Self.run(page).games.first)
    }
    let top = try live(visitor: [0, 1, 0, 0, 2], home: [2, 0, 0, 1])
    #expect(top.status == .live && top.period == 5 && top.periodLabel == "Top 5th")
    let bottom = try live(visitor: [0, 1, 0, 0, 2], home: [2, 0, 0, 1, 0])
    #expect(bottom.status == .live && bottom.period == 5 && bottom.periodLabel == "Bottom 5th")
  }

  @Test func aVolleyballMatchIsScoredInSetsWonAndSaysNoGenderItDoesNotKnow() throws {
    var page = try Self.page("volleyball-five-sets")
    let batch = try Self.run(page)
    let game = try #require(batch.games.first)
    #expect(game.sport == .volleyball, "neither the page nor the target says men's or women's")
    #expect(game.status == .final && game.period == 5 && game.away.score == 3 && game.home.score == 2)
    #expect(game.away.periodScores == [25, 22, 25, 20, 15])
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.first?.stats["kills"] == 21 && box.away.players.first?.stats["points"] == 24)
    // 20.5 points (a block assist counts half) cannot be a whole number: left out and named.
    #expect(box.home.players.first?.stats["points"] == nil)
    #expect(batch.warnings.contains { $0.contains("Dunn, Ava's points with a half") && $0.hasSuffix("20.5") })
    page.sport = .volleyballWomen
    #expect(try Self.run(page).games.first?.sport == .volleyballWomen)
    // Live in the fourth set: no winner, two sets to one.
    let live = Self.edited(page) {
      Self.unfinished($0, scores: (2, 1))
        .replacingOccurrences(
          of: #"<td class="grey_text" align="right">15</td>"#, with: #"<td class="grey_text" align="right"></td>"#
        )
        .replacingOccurrences(
          of: #"<td class="grey_text" align="right">12</td>"#, with: #"<td class="grey_text" align="right"></td>"#)
    }
    let match = try #require(try Self.run(live).games.first)
    #expect(match.status == .live && match.period == 4 && match.periodLabel == "Set 4", "\(match)")
  }

  @Test func soccerIsMensOrWomensByItsTargetAndFourQuartersAreFieldHockey() throws {
    var soccer = try Self.page("soccer-men-overtime")
    let overtime = try #require(try Self.run(soccer).games.first)
    #expect(overtime.sport == .soccerMen && overtime.status == .final && overtime.period == 3)
    #expect(overtime.away.periodScores == [1, 0, 1] && overtime.away.winner == true)
    soccer.sport = nil
    #expect(try Self.run(soccer).games.first?.sport == .soccer, "soccer, neither men's nor women's guessed")

    var hockey = try Self.page("field-hockey-live")
    hockey.sport = .soccerWomen
    let live = try #require(try Self.run(hockey).games.first)
    #expect(live.sport == .fieldHockey, "four quarters and soccer's columns: field hockey, whatever the target says")
    #expect(live.status == .live && live.period == 3 && live.away.score == 2 && live.home.score == 1)
  }

  /// The passing, rushing and receiving cards in a real tab's words (`Rush Attempts`, rushing
  /// yards as gained and lost, `Interceptions` thrown in a passing card); the defense card's
  /// bare `Int` is made, not thrown.
  @Test func aFootballTablesColumnsReadAsItsCategory() throws {
    let batch = try Self.run(try Self.page("football-final"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .football && game.home.score == 24 && game.home.winner == true)
    let box = try #require(batch.boxScores.first)
    let quarterback = try #require(box.away.players.first { $0.name == "Bryson Quinn" })
    #expect(quarterback.stats["passAttempts"] == 11 && quarterback.stats["rushes"] == 22)
    #expect(quarterback.stats["passingYards"] == 98 && quarterback.stats["rushingYards"] == 104, "112 gained, 8 lost")
    #expect(quarterback.stats["passCompletions"] == 6 && quarterback.stats["passingTouchdowns"] == 1)
    #expect(box.away.totals["rushingYards"] == 163 && box.away.totals["rushes"] == 38)
    #expect(box.away.players.first { $0.name == "Casey Sims" }?.stats["receivingYards"] == 61)
    #expect(quarterback.stats["interceptionsThrown"] == 1 && quarterback.stats["interceptions"] == nil)
    let safety = try #require(box.away.players.first { $0.name == "Ty Vance" })
    #expect(safety.stats["interceptions"] == 1 && safety.stats["interceptionsThrown"] == nil)
    #expect(box.home.players.first { $0.name == "Finn Drake" }?.stats["fieldGoalsMade"] == 1)
    #expect(batch.warnings.isEmpty, "\(batch.warnings)")
  }

  /// A sport without a scoring column (football, volleyball) still needs a stat the plugin
  /// reads: tables whose every number is unknown are refused, not stored as names alone.
  @Test func aBoxOfOnlyUnknownNumbersIsRefusedNotStoredHalfFilled() throws {
    // Football told by `Solo Tackles` (a column the plugin keeps no number of); every other
    // number's header is one it does not know.
    let unknown = [
      "Pass<br/><br/>Attempts", "Completions", "Pass<br/><br/>Yards", "Interceptions", "Pass<br/>TDs",
      "Rush<br/><br/>Attempts", "Rush<br/>Yds<br/>Gained", "Rush<br/>Yds<br/>Lost", "Rush<br/>TDs", "Rec",
      "Receiving<br/>Yards", "Rec<br/>TD", "Int", "Ast", "Tot", "Sacks", "FF", "FR", "FGM", "FGA", "XPM", "XPA",
    ]
    let page = Self.edited(try Self.page("football-final")) { html in
      unknown.enumerated().reduce(html.replacingOccurrences(of: ">Solo</th>", with: ">Solo Tackles</th>")) {
        $0.replacingOccurrences(of: ">\($1.element)</th>", with: ">Q\($1.offset)</th>")
      }
    }
    let error = try #require(throws: StatlineError.self) { try Self.run(page) }
    #expect(error.kind == .wrongPage && error.reason.contains("has a name and a stat column"), "\(error)")
    #expect(!BoxColumns.readsPlayers([.name, .ignored], family: .volleyball))
    #expect(BoxColumns.readsPlayers([.name, .stat("kills")], family: .volleyball))
    #expect(!BoxColumns.readsPlayers([.name, .stat("assists")], family: .lacrosse), "lacrosse needs its goals")
  }

  /// The header rows real pages of the site print (a 2025 basketball tab, a 2025 baseball
  /// hitting card, a 2024 football tab's rushing, passing and receiving cards, published with a
  /// public scraper's tests) are read whole: every column known, none a warning.
  @Test func theHeadersRealPagesPrintAreReadWhole() throws {
    let real: [(BoxFamily, [String])] = [
      (
        .basketball,
        [
          "#", "Name", "P", "MP", "FGM", "FGA", "FG%", "3FG", "3FGA", "FT", "FTA", "PTS", "ORebs", "DRebs", "Tot Reb",
          "AST", "TO", "STL", "BLK", "Fouls", "DQ", "Tech Fouls", "Bench",
        ]
      ),
      (
        .baseball,
        [
          "#", "Name", "P", "R", "AB", "H", "2B", "3B", "TB", "HR", "RBI", "BB", "HBP", "SF", "SH", "K", "OPP DP", "CS",
          "Picked", "SB", "IBB", "KL",
        ]
      ),
      (
        .football,
        ["#", "Name", "P", "Rush Attempts", "Rush Yds Gained", "Rush Yds Lost", "Yds/Rush", "Rush TDs", "Rush Long"]
      ),
      (
        .football,
        [
          "#", "Name", "P", "Pass Attempts", "Completions", "Pass Yards", "Interceptions", "Pass TDs", "Pass Eff",
          "Yds Per Completion", "Pct", "Long Pass",
        ]
      ),
      (.football, ["#", "Name", "P", "Rec", "Receiving Yards", "Yards Per Reception", "Rec TD", "Long Rec"]),
    ]
    for (family, headers) in real {
      #expect(BoxFamily.of(Set(headers.map { $0.lowercased() })) == family, "\(headers)")
      var warnings: [String] = []
      let columns = BoxColumns.columns(headers, family: family, table: "real", warnings: &warnings)
      #expect(warnings.isEmpty, "\(warnings)")
      #expect(BoxColumns.readsPlayers(columns, family: family))
    }
  }

  @Test func eachSportIsToldByTheWordsOnlyItPrints() throws {
    let cases: [([String], BoxFamily?)] = [
      (["Name", "Goals", "Assists", "GB", "CT", "FO Won"], .lacrosse),
      (["Name", "Goals", "DC"], .lacrosse),
      (["Name", "FGM", "FGA", "PTS"], .basketball),
      (["Name", "AB", "R", "H", "RBI"], .baseball),
      (["Name", "IP", "H", "R", "ER"], .baseball),
      (["Name", "FGM", "FGA", "XPM"], .basketball),
      (["Name", "Cmp", "Att", "Yds"], .football),
      (["Name", "Pass Att", "Rush Yds"], .football),
      (["Name", "FGM", "FGA", "XPM", "Sacks"], .football),
      (["Name", "Kills", "Digs"], .volleyball),
      (["Name", "Goals", "Assists", "PIM", "+/-", "FOW"], .iceHockey),
      (["Name", "Goals", "ShAtt", "SOG"], .soccer),
      (["Name", "Time", "Place"], nil),
    ]
    for (headers, family) in cases {
      #expect(BoxFamily.of(Set(headers.map { $0.lowercased() })) == family, "\(headers)")
    }
    var warnings: [String] = []
    let hockey = Set(["goals", "pim"])
    #expect(
      try BoxFamily.iceHockey.sport(headers: hockey, periods: 3, hint: .iceHockeyWomen, warnings: &warnings)
        == .iceHockeyWomen)
    #expect(try BoxFamily.iceHockey.sport(headers: hockey, periods: 3, hint: nil, warnings: &warnings) == .unknown)
    #expect(
      warnings == [
        "the page does not say men's or women's ice hockey and the target names no sport: the sport is unknown"
      ])
    #expect(
      try BoxFamily.basketball.sport(headers: [], periods: nil, hint: .basketballWomen, warnings: &warnings)
        == .basketballWomen)
    var read: [String] = []
    let columns = BoxColumns.columns(["Name", "PIM", "+/-"], family: .iceHockey, table: "t", warnings: &read)
    #expect(columns == [.name, .penaltyMinutes, .stat("plusMinus")] && read.isEmpty)
  }

  /// The current layout's box score and play-by-play read every sport; the legacy layout's
  /// header is known for lacrosse and basketball only, so only those get legacy targets.
  @Test func discoveryMakesABoxScoreTargetForEverySport() {
    for sport in NCAASports.byCode.values {
      #expect(NCAASports.reads("ncaa-stats-contest-box", sport), "\(sport)")
      #expect(NCAASports.reads("ncaa-stats-contest-pbp", sport), "\(sport)")
    }
    #expect(!NCAASports.reads("ncaa-legacy-box", .baseball) && NCAASports.reads("ncaa-legacy-box", .basketballMen))
  }
}
