import Foundation

/// A demo baseball game as StatCrew `<bsgame>` XML, in the shape of the real StatInput file:
/// runs per inning (the home half not yet played, or not needed, left out), each player's runs
/// and runs batted in consistent with the scoring plays, the scoring plays with their runs, and
/// `<status>` last, as the real file writes it.
extension StatCrewWriter {
  public static func baseball(_ game: DemoGame, at moment: DemoGame.Moment, date: String) -> String {
    let goals = game.goals(by: moment)
    let half = game.timing.periodSeconds / 2
    var status: String
    var innings: (away: Int, home: Int)
    switch moment {
    case .notStarted:
      status = #"<status complete="N" inning="1" vh="V" outs="0"/>"#
      innings = (1, 0)
    case .inPeriod(let inning, let remaining):
      let top = remaining > half
      status = #"<status complete="N" inning="\#(inning)" vh="\#(top ? "V" : "H")" outs="\#(remaining % 3)"/>"#
      innings = (inning, top ? inning - 1 : inning)
    case .between(let inning):
      status = #"<status complete="N" inning="\#(inning)" vh="H" outs="3"/>"#
      innings = (inning, inning)
    case .final(let last):
      let homeHalf = !game.homeLeadsAfterTop(last)
      status = #"<status complete="Y" inning="\#(last)" vh="\#(homeHalf ? "H" : "V")" outs="3"/>"#
      innings = (last, homeHalf ? last : last - 1)
    }
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<bsgame source="Statline demo" version="1.0" generated="\#(date)">"#,
      #"  <venue gameid="" sbid="\#(game.eventId)" visid="\#(game.away.id)" homeid="\#(game.home.id)" visname="\#(game.away.name)" homename="\#(game.home.name)" date="\#(date)" location="Demo City" stadium="\#(game.home.name) Field" attend="" neutralgame="N" gender="\#(game.sport == .softball ? "W" : "M")" schedinn="\#(game.regulation)">"#,
      #"    <rules batters="9,9" usedh="N"/>"#, "  </venue>",
    ]
    for home in [false, true] {
      let team = home ? game.home : game.away
      let own = goals.filter { $0.home == home }
      let line = (0..<(home ? innings.home : innings.away)).map { points(own, in: $0 + 1) }
      lines += [
        #"  <team vh="\#(home ? "H" : "V")" id="\#(team.id)" name="\#(team.name)" record="\#(team.record)">"#,
        #"    <linescore line="\#(line.map(String.init).joined(separator: ","))" runs="\#(line.reduce(0, +))" hits="\#(own.count * 2)" errs="0" lob="\#(line.count / 2)">"#,
      ]
      lines += line.enumerated().map { #"      <lineinn inn="\#($0.offset + 1)" score="\#($0.element)"/>"# }
      lines += ["    </linescore>", #"    <totals gp="1">"#, "      \(hitting(own, name: nil))", "    </totals>"]
      for (index, name) in team.players.enumerated() {
        lines.append(
          #"    <player name="\#(name)" id="\#(index + 1)" uni="\#(index * 4 + 3)" gp="1" gs="1" pos="\#(positions[index % positions.count])">"#
        )
        lines += ["      \(hitting(own, name: name))", "    </player>"]
      }
      lines.append("  </team>")
    }
    lines.append(#"  <plays format="summary">"#)
    var sequence = 1
    for inning in 1...max(innings.away, 1) {
      let scored = goals.filter { $0.period == inning }.sorted { $0.remaining > $1.remaining }
      guard !scored.isEmpty else { continue }
      lines.append(#"    <inning number="\#(inning)">"#)
      for home in [false, true] {
        let plays = scored.filter { $0.home == home }
        guard !plays.isEmpty else { continue }
        lines.append(#"      <batting vh="\#(home ? "H" : "V")" id="\#((home ? game.home : game.away).id)">"#)
        for play in plays {
          let homer = play.kind?.contains("homered") == true
          lines += [
            #"        <play seq="\#(sequence)" outs="1" batter="\#(play.scorer)" scoring="Y" runs="\#(play.points)" rbis="\#(play.points)"\#(homer ? #" qualifiers="HR""# : "")>"#,
            #"          <narrative text="\#(play.kind ?? "\(play.scorer) scored.")"/>"#, "        </play>",
          ]
          sequence += 1
        }
        lines.append("      </batting>")
      }
      lines.append("    </inning>")
    }
    lines += ["  </plays>", "  \(status)", "</bsgame>"]
    return lines.joined(separator: "\n") + "\n"
  }

  public static let positions = ["ss", "cf", "1b", "c", "p"]

  /// `<hitting>` for one player (`name`) or the team (nil): the batter of a scoring play scores
  /// and drives in its runs; its second runner (`assist`) scores too.
  public static func hitting(_ goals: [DemoGame.Goal], name: String?) -> String {
    let batted = goals.filter { name == nil || $0.scorer == name }
    let runs =
      name == nil
      ? goals.map(\.points).reduce(0, +)
      : batted.count + goals.filter { $0.assist == name && $0.points > 1 }.count
    let rbi = batted.map(\.points).reduce(0, +)
    let homers = batted.filter { $0.kind?.contains("homered") == true }.count
    return
      #"<hitting ab="\#(batted.count * 3 + 3)" r="\#(runs)" h="\#(batted.count * 2)" rbi="\#(rbi)" bb="0" so="1" double="0" triple="0" hr="\#(homers)"/>"#
  }
}
