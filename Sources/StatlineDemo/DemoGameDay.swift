import Foundation
import StatlineCore
import StatlineLoopback

/// The demo's scripted game day: three lacrosse games (two men's, one women's, one going to
/// overtime), a men's basketball game and a baseball game (whose home team leads after the top
/// of the ninth, so the bottom half is not played) at staggered starts, served by a loopback
/// server from two sources that name the
/// teams differently (architecture.md#canonical-games): a StatBroadcast-style school calendar with StatCrew XML
/// (`Army`, `UNC`), and an ncaa.com GraphQL scoreboard (`Army West Point`, `North Carolina`)
/// that lags the StatCrew files by `ncaaLag` and never shows more than the job has stored from them
/// (the lacrosse games only: the other sports come from their StatCrew files alone). Time is the
/// accelerated clock's: minute 0 is the demo's start.
public struct DemoGameDay: Sendable {
  public static let date = "3/7/2026"
  public static let calendarPath = "/events/schedule.php?gid=demo"
  /// The ncaa.com scoreboard of the day, as its GraphQL query asks it (both sports in one).
  public static let contestsPath = "/?meta=GetContests_web&variables=%7B%22contestDate%22%3A%2203%2F07%2F2026%22%7D"
  /// How far the ncaa.com scoreboard lags the StatCrew files: more than a poll.
  public static let ncaaLag = 45.0

  /// When each game's StatCrew file was served: the ncaa.com scoreboard never shows more than the
  /// store surely has from the file, so it always lags the feed.
  public let served = ServedTimes()

  /// When each game's file was served, the last two times: a file is polled again only after
  /// its previous poll was stored, so what the earlier of the two held is in the store.
  public final class ServedTimes: Sendable {
    public let times = Locked<[String: (last: Double, stored: Double?)]>([:])

    public func served(_ eventId: String, at seconds: Double) {
      times.withLock { $0[eventId] = (seconds, $0[eventId]?.last) }
    }

    /// The latest moment of each game surely stored from its file.
    public var stored: [String: Double] { times.withLock { $0.compactMapValues(\.stored) } }
  }

  /// The clock's reading when the job started: the game day's minute 0 (before it, no game
  /// has started).
  public final class Origin: Sendable {
    private let start = Locked<Double?>(nil)

    public init() {}

    public func start(at seconds: Double) { start.withLock { $0 = seconds } }

    /// Seconds of the game day at the clock's reading `seconds`.
    public func seconds(since seconds: Double) -> Double {
      start.withLock { start in start.map { seconds - $0 } ?? -1_000_000 }
    }
  }

  public init() {}

  public let games: [DemoGame] = [
    DemoGame(
      eventId: "640301", sport: .lacrosseMen,
      away: .init(
        id: "ARMY", name: "Army", ncaaName: "Army West Point", seoname: "army", record: "3-1",
        players: ["Jack Haas", "Evan Ortiz", "Cole Brennan", "Tomas Reyes"]),
      home: .init(
        id: "NAVY", name: "Navy", ncaaName: "Navy", seoname: "navy", record: "2-2",
        players: ["Sam Okafor", "Liam Carter", "Riley Dunn", "Max Pryor"]),
      startMinute: 3,
      goals: [
        .init(period: 1, remaining: 700, home: false, scorer: "Evan Ortiz", assist: "Cole Brennan"),
        .init(period: 1, remaining: 270, home: true, scorer: "Liam Carter", assist: nil),
        .init(period: 2, remaining: 610, home: true, scorer: "Riley Dunn", assist: "Liam Carter"),
        .init(period: 3, remaining: 500, home: false, scorer: "Cole Brennan", assist: nil),
        .init(period: 3, remaining: 95, home: false, scorer: "Evan Ortiz", assist: "Jack Haas"),
        .init(period: 4, remaining: 420, home: true, scorer: "Liam Carter", assist: "Riley Dunn"),
        .init(period: 4, remaining: 41, home: true, scorer: "Riley Dunn", assist: nil),
      ]),
    DemoGame(
      eventId: "640302", sport: .lacrosseWomen,
      away: .init(
        id: "NORTHWES", name: "Northwestern", ncaaName: "Northwestern", seoname: "northwestern", record: "5-0",
        players: ["Erin Hahn", "Izzy Scane", "Ava Pace", "Molly Laliberty"]),
      home: .init(
        id: "BOSTON C", name: "Boston College", ncaaName: "Boston College", seoname: "boston-college",
        record: "4-1",
        players: ["Mckenna Davis", "Cassidy Kelly", "Rachel Clark", "Rachel Hall"]),
      startMinute: 12,
      goals: [
        .init(period: 1, remaining: 800, home: false, scorer: "Izzy Scane", assist: "Erin Hahn"),
        .init(period: 1, remaining: 300, home: false, scorer: "Izzy Scane", assist: nil),
        .init(period: 2, remaining: 650, home: true, scorer: "Cassidy Kelly", assist: "Mckenna Davis"),
        .init(period: 3, remaining: 420, home: false, scorer: "Erin Hahn", assist: nil),
        .init(period: 4, remaining: 200, home: true, scorer: "Mckenna Davis", assist: nil),
      ]),
    DemoGame(
      eventId: "640303", sport: .lacrosseMen,
      away: .init(
        id: "DUKE", name: "Duke", ncaaName: "Duke", seoname: "duke", record: "4-0",
        players: ["Luke Rhoa", "Brennan O'Neill", "Andrew McAdorey", "Patrick Jameison"]),
      home: .init(
        id: "NORTH CA", name: "UNC", ncaaName: "North Carolina", seoname: "north-carolina", record: "3-0",
        players: ["Brady Wambach", "Owen Duffy", "Dominic Pietramala", "Josh Marcus"]),
      startMinute: 20,
      goals: [
        .init(period: 1, remaining: 540, home: true, scorer: "Owen Duffy", assist: "Dominic Pietramala"),
        .init(period: 2, remaining: 820, home: false, scorer: "Brennan O'Neill", assist: nil),
        .init(period: 2, remaining: 120, home: false, scorer: "Andrew McAdorey", assist: "Brennan O'Neill"),
        .init(period: 3, remaining: 330, home: true, scorer: "Dominic Pietramala", assist: nil),
        .init(period: 4, remaining: 610, home: true, scorer: "Owen Duffy", assist: nil),
        .init(period: 4, remaining: 15, home: false, scorer: "Brennan O'Neill", assist: "Luke Rhoa"),
        .init(period: 5, remaining: 130, home: true, scorer: "Owen Duffy", assist: "Brady Wambach"),
      ]),
    DemoGame(
      eventId: "640304", sport: .basketballMen,
      away: .init(
        id: "MSU", name: "Michigan St.", ncaaName: "Michigan St.", seoname: "michigan-st", record: "6-1",
        players: ["Jeremy Fears", "Jaden Akins", "Coen Carr", "Jaxon Kohler", "Xavier Booker"]),
      home: .init(
        id: "UK", name: "Kentucky", ncaaName: "Kentucky", seoname: "kentucky", record: "7-0",
        players: ["Otega Oweh", "Lamont Butler", "Koby Brea", "Andrew Carr", "Amari Williams"]),
      startMinute: 6, goals: basketballScores()),
    DemoGame(
      eventId: "640305", sport: .baseball,
      away: .init(
        id: "IND", name: "Indiana", ncaaName: "Indiana", seoname: "indiana", record: "5-3",
        players: ["Devin Taylor", "Brock Tibbitts", "Tyler Cerny", "Jasen Oliver", "Ty Rybarczyk"]),
      home: .init(
        id: "UNC", name: "North Carolina", ncaaName: "North Carolina", seoname: "north-carolina", record: "7-1",
        players: ["Vance Honeycutt", "Gavin Gallaher", "Luke Stevenson", "Casey Cook", "Jake Knapp"]),
      startMinute: 9,
      goals: [
        .init(
          period: 2, remaining: 300, home: false, scorer: "Brock Tibbitts", points: 1,
          kind: "Brock Tibbitts singled to center field, RBI."),
        .init(
          period: 4, remaining: 120, home: true, scorer: "Vance Honeycutt", assist: "Gavin Gallaher", points: 2,
          kind: "Vance Honeycutt homered to left field, 2 RBI; Gavin Gallaher scored."),
        .init(
          period: 6, remaining: 250, home: false, scorer: "Tyler Cerny", points: 1,
          kind: "Tyler Cerny doubled down the lf line, RBI."),
        .init(
          period: 7, remaining: 90, home: true, scorer: "Luke Stevenson", points: 1,
          kind: "Luke Stevenson homered to right field, RBI."),
      ]),
  ]

  /// A men's basketball game's baskets, made up by rule (every 37 seconds, the sides taking
  /// turns, the points following a fixed pattern): 31 a half.
  public static func basketballScores() -> [DemoGame.Goal] {
    let away = ["Jeremy Fears", "Jaden Akins", "Coen Carr", "Jaxon Kohler", "Xavier Booker"]
    let home = ["Otega Oweh", "Lamont Butler", "Koby Brea", "Andrew Carr", "Amari Williams"]
    let pattern = [2, 3, 2, 2, 1, 2, 3, 2]
    return (1...2).flatMap { half in
      (0..<31).map { index -> DemoGame.Goal in
        let isHome = index % 2 == 0
        let points = pattern[(index * 3 + half) % pattern.count]
        let players = isHome ? home : away
        return DemoGame.Goal(
          period: half, remaining: 1_175 - index * 37, home: isHome,
          scorer: players[(index / 2 + half) % players.count], points: points,
          kind: points == 3 ? "3PTR" : points == 1 ? "FT" : index % 3 == 0 ? "LAYUP" : "JUMPER")
      }
    }
  }

  /// The moment of `game` at `seconds` of demo time.
  public func moment(_ game: DemoGame, at seconds: Double) -> DemoGame.Moment {
    game.moment(at: Int(seconds) - game.startMinute * 60)
  }

  /// True once every game is final.
  public func isOver(at seconds: Double) -> Bool {
    games.allSatisfy { if case .final = moment($0, at: seconds) { true } else { false } }
  }

  /// The school calendar in the server-HTML form the StatBroadcast calendar parser reads.
  public func calendar(at seconds: Double) -> String {
    let rows = games.map { game -> String in
      let (away, home) = game.score(by: moment(game, at: seconds))
      let text: String
      switch moment(game, at: seconds) {
      case .notStarted: text = "\(game.away.name) at \(game.home.name)"
      case .inPeriod(let period, _):
        text = "\(game.away.name) \(away), \(game.home.name) \(home) - \(Self.periodName(period, of: game))"
      case .between(let period):
        let halftime = period == game.timing.halftimeAfter
        text =
          "\(game.away.name) \(away), \(game.home.name) \(home) - \(halftime ? "HALFTIME" : "END \(Self.periodName(period, of: game))")"
      case .final:
        // The real calendar lists the winner first.
        text =
          away > home
          ? "\(game.away.name) \(away), \(game.home.name) \(home) - FINAL"
          : "\(game.home.name) \(home), \(game.away.name) \(away) - FINAL"
      }
      let code = Self.calendarCodes[game.sport] ?? "MLAX"
      return """
          <tr>
            <td>03-07-26</td>
            <td>\(text)</td>
            <td><i class="sbicon sbicon-\(code)"></i> \(code)</td>
            <td><a class="btn btn-primary" href="http://statb.us/b/\(game.eventId)" target="_stats">Stats</a></td>
            <td>\(game.home.name) Stadium</td>
          </tr>
        """
    }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head><meta charset="utf-8"><title>StatBroadcast&reg; Systems - Demo Event Calendar</title></head>
      <body>
      <table id="eventCalendar" class="datatable table table-striped table-sm">
        <thead><tr><th>Date</th><th>Event</th><th>Sport</th><th></th><th>Location</th></tr></thead>
      \(rows.joined(separator: "\n"))
      </table>
      </body>
      </html>

      """
  }

  /// The game's XML, or nil before it starts (the archive answers 404 then).
  public func xml(eventId: String, at seconds: Double) -> String? {
    guard let game = games.first(where: { $0.eventId == eventId }) else { return nil }
    let moment = moment(game, at: seconds)
    if moment == .notStarted { return nil }
    return StatCrewWriter.xml(game, at: moment, date: Self.date)
  }

  /// The calendar's sport codes of the demo's sports.
  public static let calendarCodes: [Sport: String] = [
    .lacrosseMen: "MLAX", .lacrosseWomen: "WLAX", .basketballMen: "MBB", .baseball: "BSB",
  ]

  /// "1ST", "2ND", "OT", "2OT" as the calendar prints a period; innings as "5TH", "10TH".
  public static func periodName(_ period: Int, of game: DemoGame) -> String {
    if period > game.regulation && !game.innings {
      return period == game.regulation + 1 ? "OT" : "\(period - game.regulation)OT"
    }
    return SportProfile.ordinal(period).uppercased()
  }

  /// The loopback server's answers: robots.txt, the calendar, the game XML, the ncaa.com
  /// scoreboard and the weekly poll, with ETags so
  /// that an unchanged page is a 304.
  public func route(_ request: LoopbackServer.Request, seconds: Double) -> LoopbackServer.Behavior {
    let body: String?
    let type: String
    if request.uri == "/robots.txt" {
      return .ok("User-agent: *\nAllow: /\n", headers: ["Content-Type": "text/plain"])
    } else if request.uri == Self.calendarPath {
      body = calendar(at: seconds)
      type = "text/html; charset=utf-8"
    } else if request.uri.hasPrefix("/?meta=GetContests_web&") {
      let served = served.stored
      body = DemoContests.json(
        games.filter(\.isLacrosse),
        at: { moment($0, at: min(seconds - Self.ncaaLag, served[$0.eventId] ?? -1_000_000)) })
      type = "application/json"
    } else if request.uri == DemoRankings.path {
      body = DemoRankings.html
      type = "text/html; charset=utf-8"
    } else if request.uri.hasPrefix("/archive/"), request.uri.hasSuffix(".xml") {
      let eventId = String(request.uri.dropFirst("/archive/".count).dropLast(".xml".count))
      body = xml(eventId: eventId, at: seconds)
      if body != nil { served.served(eventId, at: seconds) }
      type = "text/xml"
    } else {
      body = nil
      type = "text/plain"
    }
    guard let body else { return .respond(status: 404, body: "not found") }
    let etag = LoopbackServer.etag(body)
    if request.headers["if-none-match"] == etag { return .respond(status: 304, headers: ["ETag": etag]) }
    return .ok(body, headers: ["Content-Type": type, "ETag": etag])
  }
}
