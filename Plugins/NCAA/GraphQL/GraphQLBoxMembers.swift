import StatlineCore

/// What each sport's ncaa.com box-score members mean: a member's name → the stat key it fills,
/// per sport, read from the line's members by name. Lacrosse's names are those of the saved
/// answers (STRUCTURE.md §5b); basketball's and soccer's are those public scripts that read
/// their queries name (secondhand: no answer of either is saved here).
///
/// A member that holds a number no sport's table knows is named in the page's warnings (never
/// stored under a guessed key); members known to hold no stat of the model (a soccer player's
/// `saves`, always "0": a keeper's saves are the team's `goalie.saves`) are passed over.
enum GraphQLBoxMembers {
  /// How a member is read.
  enum Reading: Sendable {
    /// A count, stored under the key.
    case count(String)
    /// A time, `MM:SS` or whole minutes, stored under the key in seconds.
    case time(String)
    /// Time played (`secondsPlayed`), as `time`; none when it is zero (a lacrosse line's
    /// `goalie.minutesPlayed` "0:00" is a player who did not keep goal).
    case playingTime
    /// Known, and not a stat of the model.
    case passedOver
  }

  static func readings(for sport: Sport) -> [String: Reading] {
    switch sport {
    case .basketballMen, .basketballWomen: basketball
    case .soccerMen, .soccerWomen: soccer
    default: lacrosse
    }
  }

  static let lacrosse: [String: Reading] = [
    "goals": .count(StatKey.goals), "assists": .count(StatKey.assists), "shots": .count(StatKey.shots),
    "shotsOnGoal": .count(StatKey.shotsOnGoal), "groundBalls": .count(StatKey.groundBalls),
    "turnovers": .count(StatKey.turnovers), "causedTurnovers": .count(StatKey.causedTurnovers),
    "freePositionShots": .count(StatKey.freePositionShots), "drawControls": .count(StatKey.drawControls),
    "penalties.count": .count(StatKey.penalties), "penalties.minutes": .time(StatKey.penaltySeconds),
    "goalie.saves": .count(StatKey.saves), "goalie.goalsAllowed": .count(StatKey.goalsAllowed),
    "goalie.minutesPlayed": .playingTime,
    // The team line's man-up record (STRUCTURE.md §5b), in whatever shape: no key of the model.
    "powerPlay": .passedOver,
  ]

  /// `NCAA_GetGamecenterBoxscoreBasketballById_web`: `threePointsMade`, `totalRebounds`,
  /// `personalFouls`, `blockedShots`, `minutesPlayed` "32:14"; `year` and `elig` are the
  /// player's class.
  static let basketball: [String: Reading] = [
    "points": .count("points"), "fieldGoalsMade": .count("fieldGoalsMade"),
    "fieldGoalsAttempted": .count("fieldGoalsAttempted"), "threePointsMade": .count("threePointersMade"),
    "threePointsAttempted": .count("threePointersAttempted"), "freeThrowsMade": .count("freeThrowsMade"),
    "freeThrowsAttempted": .count("freeThrowsAttempted"), "offensiveRebounds": .count("offensiveRebounds"),
    "totalRebounds": .count("rebounds"), "assists": .count("assists"), "turnovers": .count("turnovers"),
    "steals": .count("steals"), "blockedShots": .count("blocks"), "personalFouls": .count("fouls"),
    "minutesPlayed": .playingTime, "year": .passedOver, "elig": .passedOver,
  ]

  /// `NCAA_GetGamecenterBoxscoreSoccerById_web`: cards and fouls under `penalties`, a keeper's
  /// line under `goalie` (the team's: a player's `saves` is always "0").
  static let soccer: [String: Reading] = [
    "goals": .count("goals"), "assists": .count("assists"), "shots": .count("shots"),
    "shotsOnGoal": .count("shotsOnGoal"), "fouls": .count("fouls"), "corners": .count("corners"),
    "offsides": .count("offsides"), "minutesPlayed": .playingTime,
    "penalties.fouls": .count("fouls"), "penalties.yellowCards": .count("yellowCards"),
    "penalties.redCards": .count("redCards"), "goalie.saves": .count("saves"),
    "goalie.goalsAllowed": .count("goalsAllowed"), "goalie.minutesPlayed": .playingTime,
    // Kept by no soccer key of the model (architecture.md#the-contract): penalty kicks, green cards (field
    // hockey's), the cards' sum, a keeper's season record.
    "saves": .passedOver, "penaltyShotGoals": .passedOver, "penaltyShotAttempts": .passedOver,
    "penalties.count": .passedOver, "penalties.greenCards": .passedOver, "goalie.shutouts": .passedOver,
    "goalie.wins": .passedOver, "goalie.losses": .passedOver, "goalie.ties": .passedOver,
  ]

  /// A line's stats: each member its sport's table knows, the first member to fill a key
  /// winning (top-level members first: `fouls` before `penalties.fouls`); lacrosse's points as
  /// goals plus assists, basketball's defensive rebounds as total less offensive. A member
  /// holding a number the table does not know goes into `unread`.
  static func stats(_ line: GraphQLBoxScore.Line, sport: Sport, unread: inout Set<String>) -> [String: Int] {
    let readings = readings(for: sport)
    var result: [String: Int] = [:]
    // In a fixed order, so a key two members fill is the same on every read.
    for name in line.values.keys.sorted(by: { (depth($0), $0) < (depth($1), $1) }) {
      let text = line.values[name] ?? ""
      switch readings[name] ?? passedOverParent(name, readings) {
      case .count(let key):
        if result[key] == nil, let value = GameText.int(text) { result[key] = value }
      case .time(let key):
        if result[key] == nil, let seconds = BoxColumns.seconds(text) { result[key] = seconds }
      case .playingTime:
        if result[StatKey.secondsPlayed] == nil, let seconds = BoxColumns.seconds(text), seconds > 0 {
          result[StatKey.secondsPlayed] = seconds
        }
      case .passedOver:
        break
      case nil:
        if let number = Double(text), number != 0 { unread.insert(name) }
      }
    }
    if NCAASports.isLacrosse(sport), let goals = result[StatKey.goals], let assists = result[StatKey.assists] {
      result[StatKey.points] = goals + assists
    }
    if let total = result["rebounds"], let offensive = result["offensiveRebounds"], readings["totalRebounds"] != nil {
      result["defensiveRebounds"] = total - offensive
    }
    return result
  }

  /// `.passedOver` for a nested member (`powerPlay.goals`) whose object is passed over whole.
  private static func passedOverParent(_ name: String, _ readings: [String: Reading]) -> Reading? {
    guard let dot = name.firstIndex(of: "."), case .passedOver = readings[String(name[..<dot])] else { return nil }
    return .passedOver
  }

  /// 0 for a top-level member, 1 for a nested object's.
  private static func depth(_ name: String) -> Int { name.contains(".") ? 1 : 0 }
}
