import Foundation

/// The demo's games as ncaa.com's GraphQL scoreboard (`GetContests_web`) answers them: its own
/// contest ids, names and slugs, and no plays.
public enum DemoContests {
  /// - Parameter contestId: each game's contest id, by its index.
  public static func json(
    _ games: [DemoGame], at moment: (DemoGame) -> DemoGame.Moment, contestId: (Int) -> Int = { 6_600_101 + $0 }
  ) -> String {
    let contests = games.enumerated().map { index, game -> [String: Any] in
      let now = moment(game)
      let (away, home) = game.score(by: now)
      var state = "P"
      var period = ""
      var clock = ""
      var message = ""
      switch now {
      case .notStarted: break
      case .inPeriod(let number, let remaining):
        (state, period) = ("I", Self.period(number))
        clock = String(format: "%d:%02d", remaining / 60, remaining % 60)
      case .between(let number):
        (state, period, clock) = ("I", number == 2 ? "HALF" : Self.period(number), "0:00")
      case .final(let periods):
        (state, period, message) = ("F", "FINAL", periods > 4 ? "FINAL (OT)" : "FINAL")
      }
      let started = state != "P"
      func team(_ team: DemoGame.Team, isHome: Bool, score: Int) -> [String: Any] {
        [
          "isHome": isHome, "isWinner": state == "F" && (isHome ? home > away : away > home),
          "score": started ? score as Any : NSNull(), "teamId": team.comTeamId ?? "\(team.seoname.count * 7)",
          "seoname": team.seoname, "nameShort": team.ncaaName, "name6Char": String(team.id.prefix(6)),
          "teamRank": NSNull(),
        ]
      }
      // 17:00 UTC on the game day, plus the game's start.
      let start = 1_772_902_800 + game.startMinute * 60
      return [
        "contestId": contestId(index), "sportCode": game.women ? "WLA" : "MLA", "gameState": state,
        "currentPeriod": period, "contestClock": clock, "finalMessage": message, "startDate": "03/07/2026",
        "startTimeEpoch": "\(start)", "url": "/game/\(contestId(index))",
        "teams": [team(game.away, isHome: false, score: away), team(game.home, isHome: true, score: home)],
      ]
    }
    let data = try? JSONSerialization.data(withJSONObject: ["data": ["contests": contests]], options: [.sortedKeys])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  public static func period(_ number: Int) -> String {
    switch number {
    case 1: "1st"
    case 2: "2nd"
    case 3: "3rd"
    case 4: "4th"
    case 5: "OT"
    default: "\(number - 4)OT"
    }
  }
}
