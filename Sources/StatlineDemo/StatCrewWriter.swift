import Foundation

/// Renders a demo game at one moment as StatCrew XML: lacrosse as `<lcgame>`, in the shape of the
/// real PrestoSports file and the hand-written snapshots under `Fixtures/StatBroadcast/` (the
/// status, both line scores, a box score consistent with the goals, and the summary plays);
/// basketball as `<bbgame>` and baseball as `<bsgame>` (`StatCrewWriter+Basketball`, `+Baseball`).
public enum StatCrewWriter {
  public static func xml(_ game: DemoGame, at moment: DemoGame.Moment, date: String) -> String {
    switch game.sport.profile?.scoring {
    case .points: return basketball(game, at: moment, date: date)
    case .runs: return baseball(game, at: moment, date: date)
    default: return lacrosse(game, at: moment, date: date)
    }
  }

  public static func lacrosse(_ game: DemoGame, at moment: DemoGame.Moment, date: String) -> String {
    let goals = game.goals(by: moment)
    var status: String
    var periodsPlayed: Int
    switch moment {
    case .notStarted:
      status = #"<status period="1" clock="15:00"></status>"#
      periodsPlayed = 1
    case .inPeriod(let period, let remaining):
      status = #"<status period="\#(period)" clock="\#(clock(remaining))"></status>"#
      periodsPlayed = period
    case .between(let period):
      status = #"<status period="\#(period)" clock="00:00"></status>"#
      periodsPlayed = period
    case .final(let periods):
      status = #"<status period="\#(periods)" clock="00:00" complete="Y"></status>"#
      periodsPlayed = periods
    }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<lcgame source="Statline demo" version="1" generated="\#(date)">"#,
      #"  <venue sbid="\#(game.eventId)" visid="\#(game.away.id)" visname="\#(game.away.name)" homeid="\#(game.home.id)" homename="\#(game.home.name)" date="\#(date)" location="Demo City" stadium="\#(game.home.name) Stadium" attend="" neutralgame="N">"#,
      #"    <rules prds="4" minutes="15" minutesot="\#(game.women ? 6 : 4)"></rules>"#,
      #"    <show faceoffs="\#(game.women ? 0 : 1)" dcs="\#(game.women ? 1 : 0)"></show>"#,
      "  </venue>", "  \(status)",
    ]
    for home in [false, true] {
      lines += team(game, home: home, goals: goals, periods: periodsPlayed)
    }
    lines += plays(game, goals: goals, moment: moment, periods: periodsPlayed)
    lines.append("</lcgame>")
    return lines.joined(separator: "\n") + "\n"
  }

  public static func clock(_ seconds: Int) -> String { String(format: "%02d:%02d", seconds / 60, seconds % 60) }

  private static func team(_ game: DemoGame, home: Bool, goals: [DemoGame.Goal], periods: Int) -> [String] {
    let team = home ? game.home : game.away
    let own = goals.filter { $0.home == home }
    let against = goals.count - own.count
    let line = (1...periods).map { period in own.filter { $0.period == period }.count }
    let faceoffs = goals.count + periods
    let won = home ? (faceoffs + 1) / 2 : faceoffs / 2
    var lines = [
      #"  <team vh="\#(home ? "H" : "V")" id="\#(team.id)" name="\#(team.name)" record="\#(team.record)">"#,
      #"    <linescore line="\#(line.map(String.init).joined(separator: ","))" score="\#(own.count)">"#,
    ]
    lines += line.enumerated().map { #"      <lineprd prd="\#($0.offset + 1)" score="\#($0.element)"></lineprd>"# }
    lines.append("    </linescore>")
    let assists = own.filter { $0.assist != nil }.count
    let groups = statGroups(
      goals: own.count, assists: assists, women: game.women, won: won, lost: faceoffs - won, saves: nil, against: nil)
    lines +=
      ["    <totals>"] + groups.map { "      \($0)" }
      + [#"      <goalie ga="\#(against)" saves="\#(against + periods)"></goalie>"#, "    </totals>"]
    for (index, name) in team.players.enumerated() {
      let goalie = index == team.players.count - 1
      let scored = own.filter { $0.scorer == name }.count
      let assisted = own.filter { $0.assist == name }.count
      let faceoffMan = index == 0
      lines.append(
        #"    <player uni="\#(index * 7 + 1)" name="\#(name)" gp="1" gs="1" pos="\#(goalie ? "gk" : faceoffMan ? "fo" : "a")">"#
      )
      lines += statGroups(
        goals: scored, assists: assisted, women: game.women, won: faceoffMan ? won : 0,
        lost: faceoffMan ? faceoffs - won : 0, saves: goalie ? against + periods : nil, against: goalie ? against : nil
      ).map { "      \($0)" }
      lines.append("    </player>")
    }
    lines.append("  </team>")
    return lines
  }

  private static func statGroups(
    goals: Int, assists: Int, women: Bool, won: Int, lost: Int, saves: Int?, against: Int?
  ) -> [String] {
    var groups = [
      #"<shots g="\#(goals)" a="\#(assists)" sh="\#(goals * 2)" sog="\#(goals + goals / 2)"></shots>"#,
      #"<penalty count="0" seconds="0"></penalty>"#,
      women
        ? #"<misc gb="\#(goals)" dc="\#(won)" turnover="0" ct="0"></misc>"#
        : #"<misc facewon="\#(won)" facelost="\#(lost)" gb="\#(goals)" turnover="0" ct="0"></misc>"#,
    ]
    if let saves, let against { groups.append(#"<goalie ga="\#(against)" saves="\#(saves)"></goalie>"#) }
    return groups
  }

  private static func plays(
    _ game: DemoGame, goals: [DemoGame.Goal], moment: DemoGame.Moment, periods: Int
  ) -> [String] {
    var lines = [#"  <plays format="summary">"#]
    var number = 0
    var score = (away: 0, home: 0)
    func play(_ vh: String?, _ clock: String, _ action: String, _ text: String) {
      let team = vh == "V" ? game.away.id : vh == "H" ? game.home.id : nil
      let side = vh.map { #" vh="\#($0)" team="\#(team!)""# } ?? ""
      lines.append(
        #"      <play number="\#(number)"\#(side) clock="\#(clock)" action="\#(action)" text="\#(text)"></play>"#)
      number += 1
    }
    func restart(_ winnerHome: Bool, _ clock: String) {
      let winner = winnerHome ? game.home : game.away
      let vh = winnerHome ? "H" : "V"
      if game.women {
        play(vh, clock, "DC", "Draw control by \(winner.id) \(winner.players[0]).")
      } else {
        play(
          vh, clock, "FACE",
          "Faceoff \(game.away.players[0]) vs \(game.home.players[0]) won by \(winner.id), [\(clock)] Ground ball pickup by \(winner.id) \(winner.players[0])."
        )
      }
    }
    for period in 1...periods {
      lines.append(#"    <period number="\#(period)">"#)
      let start = clock(period > 4 ? game.timing.overtimeSeconds : game.timing.periodSeconds)
      if period == 1 {
        play("V", start, "GOALIE", "\(game.away.players.last!) at goalie for \(game.away.id).")
        play("H", start, "GOALIE", "\(game.home.players.last!) at goalie for \(game.home.id).")
      } else {
        play(nil, start, "PRD", "")
      }
      restart(period % 2 == 1, start)
      for goal in goals.filter({ $0.period == period }).sorted(by: { $0.remaining > $1.remaining }) {
        let team = goal.home ? game.home : game.away
        let assist = goal.assist.map { ", Assist by \($0)" } ?? ""
        play(goal.home ? "H" : "V", clock(goal.remaining), "GOAL", "GOAL by \(team.id) \(goal.scorer)\(assist).")
        if goal.home { score.home += 1 } else { score.away += 1 }
        lines.append(#"      <currentscore vscore="\#(score.away)" hscore="\#(score.home)"></currentscore>"#)
        restart(!goal.home, clock(goal.remaining))
      }
      let ended: Bool
      switch moment {
      case .between(let last): ended = period <= last
      case .final: ended = true
      case .inPeriod(let current, _): ended = period < current
      case .notStarted: ended = false
      }
      if ended { play(nil, "00:00", "END-PRD", "End-of-period.") }
      lines.append("    </period>")
    }
    lines.append("  </plays>")
    return lines
  }
}
