import Foundation

/// A demo basketball game as StatCrew `<bbgame>` XML, in the shape of the real StatBroadcast
/// Listener file: the status, both line scores, each player's points and shots consistent with
/// the baskets, and every basket as a token play with the running score.
extension StatCrewWriter {
  public static func basketball(_ game: DemoGame, at moment: DemoGame.Moment, date: String) -> String {
    let goals = game.goals(by: moment)
    let (status, periods) = clockedStatus(game, at: moment)
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<bbgame source="Statline demo" version="1" generated="\#(date)">"#,
      #"  <venue gameid="" sbid="\#(game.eventId)" date="\#(date)" location="Demo City" stadium="\#(game.home.name) Arena" attend="" neutralgame="N" gender="\#(game.sport == .basketballWomen ? "W" : "M")" visid="\#(game.away.id)" visname="\#(game.away.name)" homeid="\#(game.home.id)" homename="\#(game.home.name)">"#,
      #"    <rules prds="\#(game.regulation)" minutes="\#(game.timing.periodSeconds / 60)" minutesot="\#(game.timing.overtimeSeconds / 60)" fouls="5" qh="\#(game.regulation == 2 ? "H" : "Q")"></rules>"#,
      "  </venue>", "  \(status)",
    ]
    for home in [false, true] {
      let team = home ? game.home : game.away
      let own = goals.filter { $0.home == home }
      lines += teamHeader(team, home: home, line: (1...periods).map { period in points(own, in: period) })
      lines += ["    <totals>", "      \(shots(own))", "    </totals>"]
      for (index, name) in team.players.enumerated() {
        lines.append(
          #"    <player uni="\#(index * 11 + 2)" code="\#(index + 1)" name="\#(name)" checkname="\#(name.uppercased())" gp="1" gs="\#(index < 5 ? 1 : 0)" pos="\#(index < 2 ? "G" : "F")">"#
        )
        lines += ["      \(shots(own.filter { $0.scorer == name }))", "    </player>"]
      }
      lines.append("  </team>")
    }
    lines.append(#"  <plays format="tokens">"#)
    var score = (away: 0, home: 0)
    var sequence = 1
    for period in 1...periods {
      let length = period > game.regulation ? game.timing.overtimeSeconds : game.timing.periodSeconds
      lines.append(
        #"    <period number="\#(period)" time="\#(clock(length))" periodtype="\#(period > game.regulation ? "OVERTIME" : "REGULAR")">"#
      )
      for goal in goals.filter({ $0.period == period }).sorted(by: { $0.remaining > $1.remaining }) {
        let team = goal.home ? game.home : game.away
        if goal.home { score.home += goal.points } else { score.away += goal.points }
        let uni = (team.players.firstIndex(of: goal.scorer) ?? 0) * 11 + 2
        lines.append(
          #"      <play vh="\#(goal.home ? "H" : "V")" team="\#(team.id)" time="\#(clock(goal.remaining))" uni="\#(uni)" sequence="\#(sequence)" checkname="\#(goal.scorer.uppercased())" vscore="\#(score.away)" hscore="\#(score.home)" action="GOOD" type="\#(goal.kind ?? "JUMPER")"></play>"#
        )
        sequence += 1
      }
      lines.append("    </period>")
    }
    lines += ["  </plays>", "</bbgame>"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// `<status>` of a game played on a clock, and the periods its line scores show.
  public static func clockedStatus(_ game: DemoGame, at moment: DemoGame.Moment) -> (String, Int) {
    switch moment {
    case .notStarted:
      return (#"<status complete="N" period="1" clock="\#(clock(game.timing.periodSeconds))"></status>"#, 1)
    case .inPeriod(let period, let remaining):
      return (
        #"<status complete="N" period="\#(period)" clock="\#(clock(remaining))" running="T" gamestatus="INPROGRESS"></status>"#,
        period
      )
    case .between(let period):
      return (#"<status complete="N" period="\#(period)" clock="00:00" running="F"></status>"#, period)
    case .final(let periods):
      return (
        #"<status complete="Y" period="\#(periods)" clock="00:00" running="F" gamestatus="COMPLETE"></status>"#,
        periods
      )
    }
  }

  /// `<team>` and its `<linescore>`, the per-period scores given.
  public static func teamHeader(_ team: DemoGame.Team, home: Bool, line: [Int], total: String = "score") -> [String] {
    [
      #"  <team vh="\#(home ? "H" : "V")" id="\#(team.id)" name="\#(team.name)" record="\#(team.record)">"#,
      #"    <linescore line="\#(line.map(String.init).joined(separator: ","))" \#(total)="\#(line.reduce(0, +))">"#,
    ] + line.enumerated().map { #"      <lineprd prd="\#($0.offset + 1)" score="\#($0.element)"></lineprd>"# }
      + ["    </linescore>"]
  }

  public static func points(_ goals: [DemoGame.Goal], in period: Int) -> Int {
    goals.filter { $0.period == period }.map(\.points).reduce(0, +)
  }

  /// A `<stats>` line for these baskets: each made shot, and one miss for every two made.
  public static func shots(_ goals: [DemoGame.Goal]) -> String {
    let threes = goals.filter { $0.points == 3 }.count
    let twos = goals.filter { $0.points == 2 }.count
    let free = goals.filter { $0.points == 1 }.count
    let made = threes + twos
    let tp = goals.map(\.points).reduce(0, +)
    return
      #"<stats fgm="\#(made)" fga="\#(made + made / 2)" fgm3="\#(threes)" fga3="\#(threes * 2)" ftm="\#(free)" fta="\#(free + free / 3)" tp="\#(tp)"></stats>"#
  }
}
