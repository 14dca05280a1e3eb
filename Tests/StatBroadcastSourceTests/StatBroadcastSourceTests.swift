import Foundation
import StatlineCore
import StatlineFixtures
import StatlineHTML
import StatlineTesting
import Testing

@testable import StatBroadcastSource

@Suite struct StatBroadcastSourceTests {
  static let goldens = GoldenCases([StatBroadcastSource.plugin])

  @Test(arguments: Self.goldens.cases(plugin: "StatBroadcast"))
  func golden(_ fixture: FixtureCase) {
    Self.goldens.expectPasses(fixture)
  }
}

@Suite struct LCGameTests {
  static func entry() throws -> ParserEntry {
    try #require(try StatBroadcastSource.plugin.parsers(PluginSettings()).first { $0.id == "statbroadcast-game-xml" })
  }

  static func fixture(_ name: String) throws -> Page {
    let folder = PackageRoot.url.appendingPathComponent("Fixtures/StatBroadcast/statbroadcast-game-xml/\(name)")
    return Page(
      url: "https://archive.statbroadcast.com/640112.xml",
      body: try Data(contentsOf: folder.appendingPathComponent("page.xml")))
  }

  static func run(_ page: Page) throws -> Batch { try PagePipeline.run(page, with: try entry()) }

  @Test(.enabled(if: RealPages.available)) func theRealFinalIsIonaSevenAtNorthCarolinaTwentyThree() throws {
    var page = try RealPages.page("statcrew/lcgame-mlax-iona-at-unc-2026-02-15-final.xml", url: "")
    page.url = nil
    let batch = try Self.run(page)
    let game = try #require(batch.games.first)
    #expect(game.sport == .lacrosseMen)
    #expect(game.status == .final && game.period == 4 && game.periodLabel == "Final")
    #expect(game.away.team.name == "Iona" && game.away.score == 7)
    #expect(game.home.team.name == "North Carolina" && game.home.score == 23)
    #expect(game.away.periodScores == [2, 2, 1, 2])
    #expect(game.home.periodScores == [4, 8, 9, 2])
    #expect(game.home.winner == true && game.away.winner == false)
    #expect(game.date == "2026-02-15" && game.attendance == 543 && game.neutralSite == false)
    #expect(game.home.team.abbreviation == "NORTH CA", "the truncated team id is kept as it is")
    let box = try #require(batch.boxScores.first)
    // Those who played (gp="1"), as FACTS.json counts them: not the roster's other 19 and 12,
    // nor the "TM" Team row (its numbers are the team's totals).
    #expect(box.away.players.count == 32)
    #expect(box.home.players.count == 42)
    #expect(box.away.players.compactMap { $0.stats[StatKey.goals] }.reduce(0, +) == 7)
    #expect(box.home.players.compactMap { $0.stats[StatKey.goals] }.reduce(0, +) == 23)
    #expect(!box.away.players.contains { $0.name == "Lleyton Hall" }, "gp=\"0\": did not play")
    #expect(!(box.away.players + box.home.players).contains { $0.name == "Team" || $0.number == "TM" })
    #expect(box.home.totals[StatKey.faceoffsWon] == 25 && box.home.totals[StatKey.faceoffsTaken] == 34)
    let goals = batch.plays.filter { $0.type == .goal }
    #expect(goals.count == 30)
    #expect(goals.last.map { ($0.awayScore, $0.homeScore) } ?? (nil, nil) == (7, 23))
    #expect(batch.plays.contains { $0.clock == nil && $0.type == .turnover }, "turnovers without a clock are kept")
    let first = try #require(goals.first)
    #expect(first.player == "Luke Neary" && first.side == .away && first.details["note"] == "FIRST GOAL")
  }

  @Test func aLiveGameHasItsPeriodClockAndRunningScore() throws {
    let batch = try Self.run(try Self.fixture("live-first-quarter"))
    let game = try #require(batch.games.first)
    #expect(game.id == "statbroadcast:640112")
    #expect(game.status == .live && game.period == 1 && game.clock == "08:12" && game.periodLabel == "1st")
    #expect(game.away.score == 1 && game.home.score == 0 && game.away.winner == nil)
    #expect(game.away.rank == 14)
  }

  @Test func halftimeAndOvertimeAreLabelled() throws {
    let half = try #require(try Self.run(try Self.fixture("halftime")).games.first)
    #expect(half.status == .live && half.period == 2 && half.periodLabel == "Halftime")
    let overtime = try #require(try Self.run(try Self.fixture("overtime-in-progress")).games.first)
    #expect(overtime.period == 5 && overtime.periodLabel == "OT" && overtime.away.periodScores.count == 5)
  }

  @Test func aWomensGameHasDrawControlsAndNoFaceoffs() throws {
    let batch = try Self.run(try Self.fixture("womens-final"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .lacrosseWomen)
    let box = try #require(batch.boxScores.first)
    #expect(box.away.totals[StatKey.drawControls] == 7)
    #expect(box.away.totals[StatKey.faceoffsWon] == nil)
    #expect(box.away.players.first?.stats[StatKey.freePositionGoals] == 1)
    #expect(
      batch.plays.filter { $0.type == .drawControl }.map(\.player) == [
        "Erin Hahn", "Mckenna Davis", "Mckenna Davis", "Erin Hahn",
      ])
  }

  @Test func penaltiesAndGoalieChangesAreTyped() throws {
    let batch = try Self.run(try Self.fixture("goalie-change-and-penalties"))
    let penalties = batch.plays.filter { $0.type == .penalty }
    #expect(penalties.map { $0.details["seconds"] } == ["60", "180", "30"])
    #expect(penalties.map(\.player) == ["Riley Dunn", "Jack Haas", "Liam Carter"])
    #expect(batch.plays.filter { $0.type == .goalieChange }.map(\.player).contains("Ben Hale"))
    #expect(batch.plays.first { $0.type == .turnover }?.details["causedBy"] == "Riley Dunn")
  }

  @Test func aNeutralSiteIsFlagged() throws {
    let game = try #require(try Self.run(try Self.fixture("neutral-site")).games.first)
    #expect(game.neutralSite == true && game.venue == "Rentschler Field, East Hartford, Conn.")
  }

  @Test func brokenGamesFailLoudly() throws {
    for (name, kind) in [
      ("truncated", StatlineError.Kind.truncated), ("one-team-missing", .wrongPage), ("not-lacrosse", .unsupported),
    ] {
      var page = try Self.fixture(name)
      if name == "not-lacrosse" { page.url = "https://archive.statbroadcast.com/652101.xml" }
      let error = #expect(throws: StatlineError.self) { try Self.run(page) }
      #expect(error?.kind == kind, "\(name)")
    }
  }

  // MARK: Basketball (<bbgame>)

  /// A women's game live in overtime: four quarters from the file's gender, the box score in
  /// basketball's keys (the TEAM row and a player who did not play left out), each basket a
  /// `score` play with its points and its assist.
  @Test func aWomensBasketballGameInOvertimeIsReadWhole() throws {
    let batch = try Self.run(try Self.fixture("basketball-women-overtime-live"))
    let game = try #require(batch.games.first)
    #expect(game.sport == .basketballWomen && game.status == .live && game.period == 5 && game.periodLabel == "OT")
    #expect(game.clock == "03:12" && game.away.score == 62 && game.home.score == 60)
    #expect(game.away.periodScores == [14, 16, 12, 18, 2])
    #expect(batch.teams.first { $0.name == "Duke" }?.ncaaOrgId == "193", "<team code> is the org id")
    let box = try #require(batch.boxScores.first)
    #expect(box.away.players.map(\.name) == ["Ashlon Day-Wilson", "Delaney Fisher"])
    #expect(box.away.players[0].stats["points"] == 26 && box.away.players[0].stats["threePointersMade"] == 4)
    #expect(box.away.players[0].stats["secondsPlayed"] == 2400 && box.away.totals["rebounds"] == 34)
    let scores = batch.plays.filter { $0.type == .score }
    #expect(scores.map { $0.details["points"] } == ["3", "1", "1"])
    #expect(scores[0].player == "Ashlon Day-Wilson" && scores[0].assist == "Delaney Fisher")
    #expect(scores.last.map { ($0.awayScore, $0.homeScore) } ?? (nil, nil) == (62, 60))
    let timeout = try #require(batch.plays.first { $0.type == .timeout })
    #expect(timeout.side == nil && timeout.text == "TIMEOUT MEDIA")
  }

  /// A file that names no gender (and no <wbbgame> root) is a basketball game of unknown sport,
  /// never guessed from its period count.
  @Test func aBasketballFileWithoutAGenderIsOfUnknownSport() throws {
    var page = try Self.fixture("basketball-women-overtime-live")
    page.body = Data(
      String(decoding: page.body, as: UTF8.self).replacingOccurrences(of: #" gender="W""#, with: "").utf8)
    #expect(try Self.run(page).games.first?.sport == .unknown)
  }

  @Test(.enabled(if: RealPages.available)) func theRealBasketballFinalIsMichiganStateOverKentucky() throws {
    var page = try RealPages.page("statcrew/bbgame-mbb-msu-at-kentucky-2025-11-18-final.xml", url: "")
    page.url = nil
    let batch = try Self.run(page)
    let game = try #require(batch.games.first)
    #expect(game.id == "statbroadcast:623619" && game.sport == .basketballMen && game.status == .final)
    #expect(game.away.score == 83 && game.home.score == 66 && game.away.periodScores == [44, 39])
    #expect(game.periodLabel == "Final" && game.away.winner == true)
    #expect(batch.plays.count == 515 && batch.plays.filter { $0.type == .score }.count == 79)
    let points = batch.boxScores.first.map { $0.away.players.compactMap { $0.stats["points"] }.reduce(0, +) }
    #expect(points == 83)
  }

  @Test func annotatedGoalsAreGoalsByTheirScorer() throws {
    let batch = try Self.run(try Self.fixture("annotated-goals"))
    let goals = batch.plays.filter { $0.type == .goal }
    #expect(goals.map(\.player) == ["Evan Ortiz", "Cole Brennan", "Liam Carter", "Riley Dunn", "Cole Brennan"])
    #expect(goals[0].assist == "Cole Brennan" && goals[0].details["manUp"] == "true")
    #expect(goals[0].details["firstGoal"] == "true" && goals[0].awayScore == 1 && goals[0].homeScore == 0)
    #expect(goals[1].details.isEmpty && goals[1].assist == "Evan Ortiz")
    #expect(goals[2].assist == "Riley Dunn" && goals[2].details["manUp"] == "true", "an annotation after the assist")
    #expect(goals[3].details["shortHanded"] == "true" && goals[3].details["freePosition"] == "true")
    #expect(goals[4].details["behindTheBack"] == "true" && goals[4].details["gameWinning"] == "true")
    #expect(goals[4].awayScore == 3 && goals[4].homeScore == 2)
  }

  /// A goal is recognised by its leading form: an annotation never closed no longer refuses the
  /// page (it did: the whole final was lost), the goal is its scorer's and the rest is kept.
  @Test func aGoalWithAnUnclosedNoteIsStillItsScorersGoal() throws {
    let batch = try Self.run(try Self.fixture("goal-with-an-unclosed-note"))
    let goal = try #require(batch.plays.first { $0.text == "GOAL by NAVY Dunn, Riley (SHORT-HANDED." })
    #expect(goal.type == .goal && goal.player == "Riley Dunn" && goal.side == .home)
    #expect(goal.details == ["unreadTail": "(SHORT-HANDED."])
    #expect((goal.awayScore, goal.homeScore) == (2, 2))
    #expect(batch.games.first.map { ($0.away.score, $0.home.score) } ?? (nil, nil) == (3, 2))
  }

  @Test func driftIsCaughtByValidation() throws {
    var batch = try Self.run(try Self.fixture("halftime"))
    batch.plays[batch.plays.lastIndex { $0.type == .goal }!].homeScore = 9
    #expect(BatchValidator.problems(in: batch).contains { $0.contains("running score") })
    var missing = try Self.run(try Self.fixture("halftime"))
    missing.games[0].home.periodScores = [1]
    missing.games[0].home.score = 1
    #expect(BatchValidator.problems(in: missing).contains { $0.contains("period scores, but the game is in period 2") })
  }

  @Test func theEventNumberInAGameURLIsReadAsTheRegularExpressionReadsIt() {
    let pattern = #"(?<=[/=])\d{5,}(?=\.xml|$|&)"#
    var urls = [
      "https://stats.statbroadcast.com/xml/lcgame/611373.xml", "https://x.test/view?id=611373&live=1",
      "https://x.test/view?id=611373", "https://x.test/1234.xml", "https://x.test/12345.xm",
      "https://x.test/a12345.xml",
      "https://x.test/123/456789.xml", "https://x.test/123456/7.xml", "/12345", "=12345&", "12345.xml", "",
      "https://x.test/?a=123456b&b=7654321", "https://x.test//=/99999.xml.xml", "https://x.test/١٢٣٤٥.xml",
    ]
    // Random URLs over the bytes that matter, to show the scan finds the same first match.
    var random = SystemRandomNumberGenerator()
    let alphabet = Array("/=&.xml0123456789ab")
    for _ in 0..<2_000 {
      urls.append(
        String((0..<Int.random(in: 0...24, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
    }
    for url in urls where url.unicodeScalars.allSatisfy(\.isASCII) {
      let expected = url.range(of: pattern, options: .regularExpression).map { String(url[$0]) }
      #expect(LCGameNormalizer.eventNumber(in: url) == expected, "\(url)")
    }
    #expect(LCGameNormalizer.eventNumber(in: "https://x.test/١٢٣٤٥.xml") == nil, "ASCII digits only")
  }

  @Test func namesComeOutFirstLast() {
    #expect(PersonName.normalized("Caldwell II, David") == "David Caldwell II")
    #expect(PersonName.normalized(" Owen  Duffy ") == "Owen Duffy")
    #expect(PersonName.normalized("UNC") == "UNC")
  }

  @Test func playGrammar() {
    let teams = ["NORTH CA", "IONA"]
    let shot = LacrossePlayText.read(
      action: "SHOT", text: "Shot by IONA Kennedy, Jimmy, SAVE Josh Marcus", teams: teams)
    #expect(
      shot
        == LacrossePlayText(
          type: .shot, player: "Jimmy Kennedy", details: ["result": "saved", "goalie": "Josh Marcus"]))
    let wide = LacrossePlayText.read(action: "SHOT", text: "Shot by NORTH CA Brevin Wilson HIT POST", teams: teams)
    #expect(wide == LacrossePlayText(type: .shot, player: "Brevin Wilson", details: ["result": "post"]))
    let goal = LacrossePlayText.read(
      action: "SHOT", text: "GOAL by IONA Neary, Luke, Assist by Lawry, Cullen.", teams: teams)
    #expect(goal == LacrossePlayText(type: .goal, player: "Luke Neary", assist: "Cullen Lawry"))
    let clear = LacrossePlayText.read(action: "CLEAR", text: "Clear attempt by NORTH CA failed.", teams: teams)
    #expect(clear == LacrossePlayText(type: .clear, details: ["result": "failed"]))
    #expect(LacrossePlayText.read(action: "TOUT", text: "Media timeout.", teams: teams).type == .timeout)
    #expect(
      LacrossePlayText.read(action: "ZZZ", text: "Something new.", teams: teams) == LacrossePlayText(type: .other))
    #expect(
      LacrossePlayText.read(action: "TURN", text: "Turnover by IONA Neary, Luke (caused by", teams: teams)
        == LacrossePlayText(type: .turnover), "malformed text keeps its action's type and names no one")
  }
}

@Suite struct EventCalendarTests {
  static let url = "https://www.statbroadcast.com/events/schedule.php?gid=msu"

  static func entry(_ settings: PluginSettings = PluginSettings()) throws -> ParserEntry {
    try #require(try StatBroadcastSource.plugin.parsers(settings).first { $0.id == "statbroadcast-event-calendar" })
  }

  static func serverHTML() throws -> Page {
    let file = PackageRoot.url.appendingPathComponent(
      "Fixtures/StatBroadcast/statbroadcast-event-calendar/server-html/page.html")
    return Page(url: url, body: try Data(contentsOf: file))
  }

  @Test(.enabled(if: RealPages.available)) func theRealCalendarHasTwentyFiveEventsWithIds() throws {
    let batch = try PagePipeline.run(
      try RealPages.page("statbroadcast/events-schedule-msu.html", url: Self.url), with: try Self.entry())
    #expect(batch.games.count == 25)
    #expect(batch.games.allSatisfy { $0.status == .final })
    #expect(batch.games.first?.id == "statbroadcast:601763")
    // No lacrosse in November: every event but the 4 ice hockey games (no <hkgame> is read) has a
    // game file to read, its target carrying the row's sport (for a file that does not say it).
    let targets = try #require(try Self.entry().discover?(batch))
    #expect(targets.count == 21 && targets.allSatisfy { $0.target.parser == "statbroadcast-game-xml" })
    #expect(targets.first?.target.url == "https://archive.statbroadcast.com/601763.xml")
    let sports = Dictionary(batch.games.map { ($0.id, $0.sport) }) { first, _ in first }
    #expect(targets.allSatisfy { $0.target.sport != nil && $0.target.sport == sports[$0.gameId ?? ""] })
    #expect(!targets.contains { $0.target.sport?.rawValue.hasPrefix("ice-hockey") == true })
    #expect(Set(targets.compactMap(\.target.sport)).contains(.volleyballWomen))
  }

  @Test func lacrosseAndBasketballEventsBecomeGameTargetsAtTheConfiguredURL() throws {
    let settings = PluginSettings(options: ["statbroadcast": ["gameURL": "http://127.0.0.1:9/g/{id}.xml"]])
    let entry = try Self.entry(settings)
    let batch = try PagePipeline.run(try Self.serverHTML(), with: entry)
    let targets = try #require(entry.discover?(batch))
    #expect(
      targets.map(\.target.url)
        == (["640101", "640155", "640102", "640103", "640156", "640200"].map { "http://127.0.0.1:9/g/\($0).xml" }),
      "the men's basketball event too: its game file is read")
    #expect(targets.allSatisfy { $0.target.parser == "statbroadcast-game-xml" && $0.target.role == .game })
    #expect(batch.games.map(\.status) == [.final, .final, .postponed, .scheduled, .scheduled, .live])
    #expect(batch.games.last?.period == 2 && batch.games.last?.periodLabel == "HALFTIME")
  }

  @Test func anEventRowWithoutALinkIsNotDroppedSilently() throws {
    let html = try String(decoding: Self.serverHTML().body, as: UTF8.self)
      .replacingOccurrences(of: "http://statb.us/b/640200", with: "/no-stats")
    let batch = try PagePipeline.run(Page(url: Self.url, body: Data(html.utf8)), with: try Self.entry())
    #expect(batch.games.count == 5)
    #expect(batch.warnings.contains("1 event row(s) have no statb.us stats link, so no event id: left out"))
  }

  /// The calendar's columns come from its header row: the Location column moved first reads the
  /// same events, and a header row without Sport is a clear error naming what it has.
  @Test func theCalendarIsReadByItsHeaderWhateverItsColumnOrder() throws {
    let html = try String(decoding: Self.serverHTML().body, as: UTF8.self)
    let original = try PagePipeline.run(Page(url: Self.url, body: Data(html.utf8)), with: try Self.entry())
    let moved = try NSRegularExpression(
      pattern: #"(<tr>\n)((?:[ \t]*<t[dh]>.*</t[dh]>\n){4})([ \t]*<td>[^\n]*</td>\n)"#
    )
    .stringByReplacingMatches(in: html, range: NSRange(html.startIndex..., in: html), withTemplate: "$1$3$2")
    .replacingOccurrences(
      of: "<tr><th>Date</th><th>Event</th><th>Sport</th><th></th><th>Location</th></tr>",
      with: "<tr><th>Location</th><th>Date</th><th>Event</th><th>Sport</th><th></th></tr>")
    try #require(moved != html && moved.contains("<th>Location</th><th>Date</th>"))
    let reordered = try PagePipeline.run(Page(url: Self.url, body: Data(moved.utf8)), with: try Self.entry())
    #expect(reordered.games.count == original.games.count && reordered.games == original.games)
    let renamed = html.replacingOccurrences(of: "<th>Sport</th>", with: "<th>Type</th>")
    let error = #expect(throws: StatlineError.self) {
      try PagePipeline.run(Page(url: Self.url, body: Data(renamed.utf8)), with: try Self.entry())
    }
    #expect(
      error?.reason
        == "the event calendar has no Date, Event and Sport columns (headers 'Date', 'Event', 'Type', '', 'Location')")
  }

  @Test func aPageWithoutTheCalendarTableFails() throws {
    let html = "<html><body><table id=\"otherCalendar\"><tr><td>1</td><td>2</td><td>3</td><td>4</td></tr></table>"
    let error = #expect(throws: StatlineError.self) {
      try PagePipeline.run(Page(url: Self.url, body: Data(html.utf8)), with: try Self.entry())
    }
    #expect(error?.reason == "the page has no event calendar (table#eventCalendar)")
  }

  @Test func aGameURLWithoutThePlaceholderIsAConfigurationError() {
    let settings = PluginSettings(options: ["statbroadcast": ["gameURL": "http://x/game.xml"]])
    let error = #expect(throws: StatlineError.self) { try StatBroadcastSource.plugin.parsers(settings) }
    #expect(error?.kind == .configuration)
  }

  @Test func eventTexts() throws {
    let final = try CalendarEvent("Penn St. 28, Michigan St. 10 - FINAL (Game #2)")
    #expect(
      final.first == "Penn St." && final.firstScore == 28 && final.second == "Michigan St." && final.status == .final)
    #expect(try CalendarEvent("Army at Navy").status == .scheduled)
    #expect(try CalendarEvent("Army 3, Navy 2 - LIVE").status == .unknown, "an unexplained marker is not guessed")
    #expect(try CalendarEvent("Army 3, Navy 2 - 3rd Qtr").period == 3)
    #expect(throws: StatlineError.self) { try CalendarEvent("Senior Day") }
  }
}

@Suite struct WebServiceTests {
  @Test func requestsCarryTheDocumentedDataParameter() {
    #expect(
      WebServiceCodec.eventURL("652739")
        == "https://stats.statbroadcast.com/interface/webservice/event/652739?data=dHlwZT1zdGF0YnJvYWRjYXN0")
    let request = WebServiceCodec.StatsRequest(
      event: "652739", xml: "lbst/652739.xml", xsl: "baseball/sb.bsgame.views.broadcast.xsl",
      params: #"{"team":"H"}"#, sport: "bsgame")
    #expect(
      request.query
        == #"event=652739&xml=lbst/652739.xml&xsl=baseball/sb.bsgame.views.broadcast.xsl&params={"team":"H"}&sport=bsgame&filetime=-1&type=statbroadcast&start=true"#
    )
    let url = WebServiceCodec.statsURL(request)
    #expect(!url.contains("+") && !url.dropFirst(8).contains("/stats?data=ZXZl/"), "base64 is percent-encoded")
    #expect(WebServiceCodec.parameters(of: url)["xml"] == "lbst/652739.xml")
    #expect(WebServiceCodec.parameters(of: url)["params"] == #"{"team":"H"}"#)
  }

  @Test(.enabled(if: RealPages.available)) func theRealAnswersDecode() throws {
    let event = try WebServiceCodec.decode(try RealPages.page("statbroadcast/webservice-event-652739.raw.txt", url: ""))
    #expect(event.hasPrefix("<BCSResponse><event id=\"652739\""))
    #expect(event.contains("<xmlfile><![CDATA[lbst/652739.xml]]></xmlfile><sport>bsgame</sport>"))
    let record = try EventParser().parse(
      Page(
        url: WebServiceCodec.eventURL("652739"),
        body: try RealPages.data("statbroadcast/webservice-event-652739.raw.txt")))
    #expect(record.fields["xmlfile"] == "lbst/652739.xml" && record.fields["sport"] == "bsgame")
    #expect(record.attributes["completed"] == "0" && record.attributes["archived"] == "0")
    #expect(record.attributes["homename"] == "Washington State" && record.attributes["visitorname"] == "BYU")
    let view = try WebServiceCodec.decode(try RealPages.page("statbroadcast/webservice-stats-652739.raw.txt", url: ""))
    #expect(view.hasPrefix("<div class=\"statusbar"))
  }

  @Test(.enabled(if: RealPages.available)) func anEventUnderWayIsFollowedThroughItsBroadcastView() throws {
    let entry = try #require(
      try StatBroadcastSource.plugin.parsers(PluginSettings()).first { $0.id == "statbroadcast-event" })
    #expect(entry.discovers)
    let page = try RealPages.page(
      "statbroadcast/webservice-event-652739.raw.txt", url: WebServiceCodec.eventURL("652739"))
    let (batch, discovered) = try PagePipeline.runDiscovering(page, with: entry)
    #expect(batch.games.first?.id == "statbroadcast:652739")
    let target = try #require(discovered.first)
    #expect(target.gameId == "statbroadcast:652739" && target.target.parser == "statbroadcast-broadcast-view")
    #expect(target.target.sport == .baseball, "the view is told the event's sport: it names only bsgame")
    let parameters = WebServiceCodec.parameters(of: target.target.url)
    #expect(parameters["xml"] == "lbst/652739.xml" && parameters["sport"] == "bsgame")
    #expect(parameters["xsl"] == "baseball/sb.bsgame.views.broadcast.xsl" && parameters["filetime"] == "-1")
  }

  @Test func aFinishedLacrosseEventIsFollowedAtItsArchiveXML() {
    let event = EventRecord(attributes: ["id": "640112", "completed": "1"], fields: ["sport": "lcgame"])
    let targets = EventDiscovery.targets(for: event, gameURL: StatBroadcastSource.defaultGameURL, xsl: { _ in nil })
    #expect(targets.map(\.target.url) == ["https://archive.statbroadcast.com/640112.xml"])
    let live = EventRecord(
      attributes: ["id": "640112", "completed": "0"], fields: ["sport": "lcgame", "xmlfile": "navy/640112.xml"])
    #expect(
      EventDiscovery.targets(for: live, gameURL: StatBroadcastSource.defaultGameURL, xsl: { _ in nil }).isEmpty,
      "no lacrosse view XSL is known, so none is guessed")
    let configured = EventDiscovery.targets(
      for: live, gameURL: StatBroadcastSource.defaultGameURL, xsl: { _ in "lacrosse/sb.lcgame.views.broadcast.xsl" })
    #expect(
      WebServiceCodec.parameters(of: configured.first?.target.url ?? "")["xsl"]
        == "lacrosse/sb.lcgame.views.broadcast.xsl")
  }

  @Test func aCorruptAnswerSaysWhichStepFailed() {
    let rot13NotBase64 = Page(body: Data("@@@@".utf8))
    #expect(throws: StatlineError.self) { try WebServiceCodec.decode(rot13NotBase64) }
    // base64 of bytes that are not UTF-8, ROT13-ed.
    let notUTF8 = Self.encode(Data([0xFF, 0xFE, 0xFD]))
    let error = #expect(throws: StatlineError.self) { try WebServiceCodec.decode(Page(body: notUTF8)) }
    #expect(error?.kind == .undecodable && error?.reason.contains("not UTF-8") == true)
  }

  /// ROT13 then Foundation's base64: what the one-pass decoder must agree with.
  static func rot13ThenFoundation(_ text: String) -> Data? {
    Data(base64Encoded: rot13(text.filter { !" \t\r\n".contains($0) }))
  }

  /// ROT13: ASCII letters turned by 13, everything else as it is.
  static func rot13(_ text: String) -> String {
    String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { scalar in
          switch scalar.value {
          case 97...122: Unicode.Scalar((scalar.value - 97 + 13) % 26 + 97)!
          case 65...90: Unicode.Scalar((scalar.value - 65 + 13) % 26 + 65)!
          default: scalar
          }
        }))
  }

  @Test func theOnePassDecoderAgreesWithROT13ThenBase64() {
    var generator = SystemRandomNumberGenerator()
    for length in 0..<64 {
      for _ in 0..<8 {
        let bytes = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
        // The answer: base64, ROT13-ed, with line breaks and spaces where a server might put them.
        var plain = ""
        for (index, character) in bytes.base64EncodedString().enumerated() {
          if index > 0, index % 19 == 0 { plain += index % 38 == 0 ? "\r\n" : " " }
          plain.append(character)
        }
        let answer = Self.rot13(plain)
        #expect(WebServiceCodec.rot13Base64(Data(answer.utf8)) == bytes, "\(length) bytes: \(answer)")
        #expect(Self.rot13ThenFoundation(answer) == bytes)
      }
    }
    // Not base64 after ROT13, refused: a stray character, a group cut short, padding in the
    // middle, too much padding, padding too early, data after padding.
    for bad in ["@@@@", "DD", "DDD", "DD=D", "DDD==", "D===", "DD==DD==", "DDDD=", "DD== x"] {
      #expect(WebServiceCodec.rot13Base64(Data(bad.utf8)) == nil, "\(bad)")
    }
    // Foundation reads three of them anyway (data after padding, padding after a full group):
    // the one-pass decoder is stricter there, and refuses what no server writes.
    for lax in ["DD=D", "DDD==", "DDDD="] { #expect(Self.rot13ThenFoundation(lax) != nil) }
    for bad in ["@@@@", "DD", "DDD", "D===", "DD==DD==", "DD== x"] { #expect(Self.rot13ThenFoundation(bad) == nil) }
  }

  @Test func dataParametersArePercentEncodedBase64() {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    for text in ["type=statbroadcast", "a", "ab", "abc", "event=1&xml=a/b.xml&params={\"team\":\"H\"}", "?>>~~é"] {
      let base64 = Data(text.utf8).base64EncodedString()
      #expect(WebServiceCodec.encodeParameter(text) == base64.addingPercentEncoding(withAllowedCharacters: allowed))
    }
  }

  @Test func theEventReaderKeepsWhatTheTreeReads() throws {
    let xml = """
      <?xml version="1.0"?><BCSResponse><other><event id="0"/></other><event id="7" homename="A &amp; M" \
      visitorname="B"><title><![CDATA[B  vs.
      A & M]]></title><venue>Field <b>One</b></venue><sport>lc<!-- c -->game</sport><sport>bsgame</sport>\
      <defaultcampaign><![CDATA[{"x": "<not markup>"}]]></defaultcampaign><gender/></event>\
      <event id="8"/></BCSResponse>
      """
    var reader = EventReader()
    try XMLStream.read(Data(xml.utf8), into: &reader)
    let record = try #require(reader.record)
    #expect(record.attributes == ["id": "7", "homename": "A & M", "visitorname": "B"])
    #expect(record.fields == ["title": "B vs. A & M", "venue": "Field One", "sport": "bsgame", "gender": ""])
    // The same through libxml2's tree, as the parser read it before.
    let document = try Document.xml(Data(xml.utf8))
    let event = try #require(try document.first(xpath: "/BCSResponse/event"))
    var fields: [String: String] = [:]
    for child in event.children where child.isElement && EventReader.keptFields.contains(child.name) {
      fields[child.name] = child.text
    }
    #expect(record.fields == fields)
    #expect(record.attributes == Dictionary(event.attributes.map { ($0.name, $0.value) }) { a, _ in a })

    var wrongRoot = EventReader()
    try XMLStream.read(Data("<Response><event id='1'/></Response>".utf8), into: &wrongRoot)
    #expect(wrongRoot.record == nil)
    let error = #expect(throws: StatlineError.self) {
      try EventParser().parse(Page(url: WebServiceCodec.eventURL("1"), body: Self.encode("<Response/>")))
    }
    #expect(error?.kind == .wrongPage)
  }

  /// An answer as the web service writes it: base64, then ROT13.
  static func encode(_ bytes: Data) -> Data { Data(rot13(bytes.base64EncodedString()).utf8) }

  static func encode(_ text: String) -> Data { encode(Data(text.utf8)) }

  @Test func startTimesCarryTheVenueZoneOnThatDate() {
    #expect(WebServiceSports.startTime(date: "2026-02-26", time: "1:00 PM PT") == "2026-02-26T13:00:00-08:00")
    #expect(WebServiceSports.startTime(date: "2026-04-11", time: "7:30 PM ET") == "2026-04-11T19:30:00-04:00")
    #expect(WebServiceSports.startTime(date: "2026-04-11", time: "TBA") == nil)
  }
}
