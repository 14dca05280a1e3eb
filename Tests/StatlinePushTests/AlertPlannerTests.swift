import Foundation
import StatlineCore
import StatlinePush
import Testing

/// The evaluator's decision for one event and one device: the teams followed, the alerts
/// wanted (and the sport's defaults), quiet hours in the device's own zone, the text in the
/// sport's words, grouping per game and a short life in a game.
@Suite struct AlertPlannerTests {
  static let duke = TeamRef(id: "team:193", name: "Duke")
  static let unc = TeamRef(id: "team:457", name: "North Carolina")
  // 2026-03-07 19:00 UTC = 14:00 in New York.
  static let afternoon = Date(timeIntervalSince1970: 1_772_910_000)

  static func device(teams: [String] = ["team:193"], alerts: [Device.Alert]? = nil, quiet: Device.QuietHours? = nil)
    -> Device
  {
    Device(
      id: "dev_1", kind: .apns, token: String(repeating: "a", count: 64), environment: .production,
      topic: "com.example.scores", teams: teams, alerts: alerts, quietHours: quiet, registeredAt: "x", updatedAt: "x")
  }

  static func event(
    _ type: ChangeEvent.Kind, sport: Sport = .lacrosseMen, away: Int = 5, home: Int = 4, period: Int = 2,
    label: String = "2nd", clock: String? = "04:06"
  ) -> ChangeEvent {
    var game = Game(
      id: "game:2026-03-07:\(sport.rawValue):193~457", sport: sport, status: .live, period: period,
      periodLabel: label, clock: clock, date: "2026-03-07", away: TeamLine(team: duke, score: away),
      home: TeamLine(team: unc, score: home))
    if type == .final { game.status = .final }
    var event = ChangeEvent(type, game: game)
    event.id = "evt_9"
    return event
  }

  @Test func aPeriodsEndIsNamedAsTheSportNamesItsPeriods() throws {
    let wants: [Device.Alert] = [.periodEnd]
    var ended = Self.event(.periodEnded, period: 3)
    ended.periodLabel = nil
    let alert = try #require(AlertPlanner.plan(ended, for: Self.device(alerts: wants), at: Self.afternoon))
    #expect(alert.body == "End of 3rd Quarter: Duke 5, North Carolina 4", "the event named no label: the sport's")
    let labelled = try #require(
      AlertPlanner.plan(Self.event(.periodEnded, label: "2nd"), for: Self.device(alerts: wants), at: Self.afternoon))
    #expect(labelled.body == "End of 2nd: Duke 5, North Carolina 4", "the page's own label first")
  }

  @Test func aGoalIsToldInTheSportsWordsGroupedByGameAndShortLived() throws {
    var goal = Self.event(.goal)
    goal.player = "Smith"
    goal.assist = "Jones"
    let alert = try #require(AlertPlanner.plan(goal, for: Self.device(), at: Self.afternoon))
    #expect(alert.body == "GOAL Duke 5, North Carolina 4 · 2nd 04:06 · Smith (Jones)")
    #expect(alert.kind == .score && !alert.silent)
    #expect(alert.collapseId == goal.gameId && alert.threadId == goal.gameId)
    #expect(alert.expiresAt == Self.afternoon.addingTimeInterval(300), "a stale score is dropped, not delivered late")
    #expect(alert.data == ["gameId": goal.gameId, "sport": "lacrosse-men", "eventId": "evt_9"])

    let final = try #require(
      AlertPlanner.plan(
        Self.event(.final, sport: .basketballMen, away: 68, home: 63), for: Self.device(), at: Self.afternoon))
    #expect(final.body == "Duke 68, North Carolina 63 · Final")
    #expect(final.expiresAt == Self.afternoon.addingTimeInterval(6 * 3600))

    let inning = Self.event(
      .scored, sport: Sport("baseball"), away: 1, home: 0, period: 5, label: "Top 5th", clock: nil)
    let run = try #require(AlertPlanner.plan(inning, for: Self.device(alerts: [.score]), at: Self.afternoon))
    #expect(run.body == "Top 5th: Duke 1, North Carolina 0")
  }

  @Test func onlyFollowersWhoWantItGetIt() {
    let goal = Self.event(.goal)
    #expect(AlertPlanner.plan(goal, for: Self.device(teams: ["team:725"]), at: Self.afternoon) == nil, "not followed")
    #expect(AlertPlanner.plan(goal, for: Self.device(teams: ["team:457"]), at: Self.afternoon) != nil, "either team")
    #expect(AlertPlanner.plan(goal, for: Self.device(alerts: [.final]), at: Self.afternoon) == nil, "not chosen")
    // Defaults: every goal in lacrosse, but not every basket in basketball.
    let basket = Self.event(.scored, sport: .basketballMen, away: 30, home: 20, period: 1, label: "1st")
    #expect(AlertPlanner.plan(basket, for: Self.device(), at: Self.afternoon) == nil)
    #expect(AlertPlanner.plan(Self.event(.started), for: Self.device(), at: Self.afternoon)?.kind == .gameStart)
    #expect(
      AlertPlanner.plan(Self.event(.corrected), for: Self.device(), at: Self.afternoon) == nil,
      "takes back, tells nothing")
    #expect(AlertPlanner.plan(Self.event(.tied), for: Self.device(), at: Self.afternoon) == nil)
  }

  @Test func aCloseGameLateIsItsOwnAlertForThoseWhoDoNotWantEveryScore() {
    let device = Self.device(alerts: [.closeGame, .final])
    let late = Self.event(.scored, sport: .basketballMen, away: 70, home: 68, period: 2, label: "2nd", clock: "00:40")
    #expect(AlertPlanner.plan(late, for: device, at: Self.afternoon)?.kind == .closeGame, "within a three, last half")
    let early = Self.event(.scored, sport: .basketballMen, away: 30, home: 28, period: 1, label: "1st")
    #expect(AlertPlanner.plan(early, for: device, at: Self.afternoon) == nil)
    let wide = Self.event(.scored, sport: .basketballMen, away: 80, home: 68, period: 2)
    #expect(AlertPlanner.plan(wide, for: device, at: Self.afternoon) == nil)
  }

  @Test func quietHoursInTheDevicesZoneLetOnlyAFinalThroughSilently() throws {
    let night = Device.QuietHours(start: "22:00", end: "07:00", timeZone: "America/New_York")
    let late = Date(timeIntervalSince1970: 1_772_938_800)  // 03:00 UTC = 22:00 in New York
    let device = Self.device(quiet: night)
    #expect(AlertPlanner.plan(Self.event(.goal), for: device, at: late) == nil)
    let final = try #require(AlertPlanner.plan(Self.event(.final), for: device, at: late))
    #expect(final.silent)
    #expect(AlertPlanner.plan(Self.event(.goal), for: device, at: Self.afternoon)?.silent == false, "14:00 there")
    let tokyo = Self.device(quiet: Device.QuietHours(start: "22:00", end: "07:00", timeZone: "Asia/Tokyo"))
    #expect(AlertPlanner.plan(Self.event(.goal), for: tokyo, at: Self.afternoon) == nil, "04:00 in Tokyo")
  }

  @Test func aRankingGoesToFollowersOfARankedTeam() {
    var week = Ranking(
      poll: "ncaa:com-lacrosse-men-d1", name: "Inside Lacrosse Poll", sport: .lacrosseMen, season: 2026,
      edition: "2026-03-02",
      rows: [RankingRow(rank: 1, team: TeamRef(name: "Duke"), canonicalTeamId: "team:193")])
    week.rows.append(RankingRow(rank: 2, team: TeamRef(name: "Army"), canonicalTeamId: "team:725"))
    let event = ChangeEvent(published: week)
    #expect(
      AlertPlanner.plan(event, for: Self.device(), at: Self.afternoon)?.body == "Inside Lacrosse Poll: No. 1 Duke")
    #expect(AlertPlanner.plan(event, for: Self.device(teams: ["team:457"]), at: Self.afternoon) == nil)
  }

  @Test func aLongGameIdIsCutToAPNsCollapseIdBytesAndKeptApart() {
    let one = AlertPlanner.plan(
      {
        var e = Self.event(.goal)
        e.gameId = String(repeating: "g", count: 90) + "1"
        return e
      }(), for: Self.device(),
      at: Self.afternoon)
    let two = AlertPlanner.plan(
      {
        var e = Self.event(.goal)
        e.gameId = String(repeating: "g", count: 90) + "2"
        return e
      }(), for: Self.device(),
      at: Self.afternoon)
    #expect((one?.collapseId.utf8.count ?? 99) <= 64 && (two?.collapseId.utf8.count ?? 99) <= 64)
    #expect(one?.collapseId != two?.collapseId)
  }
}
