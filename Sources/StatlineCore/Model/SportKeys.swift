/// The box-score keys of the sports other than lacrosse (`StatKey.lacrosse`), in the lower-camel
/// style of architecture.md#the-contract: made/attempted pairs as `…Made` / `…Attempted`, times in seconds.
public enum SportKeys {
  public static let basketball = [
    "points", "fieldGoalsMade", "fieldGoalsAttempted", "threePointersMade", "threePointersAttempted",
    "freeThrowsMade", "freeThrowsAttempted", "offensiveRebounds", "defensiveRebounds", "rebounds", "assists",
    "turnovers", "steals", "blocks", "fouls", "secondsPlayed",
  ]

  /// Baseball and softball: batting, pitching (outs recorded, not innings with a decimal) and
  /// fielding.
  public static let baseball = [
    "atBats", "runs", "hits", "doubles", "triples", "homeRuns", "runsBattedIn", "walks", "strikeouts",
    "hitByPitch", "stolenBases", "caughtStealing", "sacrificeHits", "sacrificeFlies", "leftOnBase",
    "outsPitched", "hitsAllowed", "runsAllowed", "earnedRunsAllowed", "walksAllowed", "strikeoutsPitched",
    "homeRunsAllowed", "pitches", "battersFaced", "putouts", "fieldingAssists", "errors",
  ]

  public static let football = [
    "points", "passCompletions", "passAttempts", "passingYards", "passingTouchdowns", "interceptionsThrown",
    "rushes", "rushingYards", "rushingTouchdowns", "receptions", "receivingYards", "receivingTouchdowns",
    "tackles", "assistedTackles", "sacks", "interceptions", "fumblesForced", "fumblesRecovered",
    "fieldGoalsMade", "fieldGoalsAttempted", "extraPointsMade", "extraPointsAttempted", "punts", "puntYards",
  ]

  /// Soccer and field hockey.
  public static let soccer = [
    "goals", "assists", "points", "shots", "shotsOnGoal", "saves", "goalsAllowed", "fouls", "yellowCards",
    "redCards", "corners", "offsides", "secondsPlayed",
  ]

  public static let volleyball = [
    "kills", "attackErrors", "attackAttempts", "assists", "serviceAces", "serviceErrors", "receptionErrors",
    "digs", "blockSolos", "blockAssists", "blockErrors", "points",
  ]

  public static let iceHockey = [
    "goals", "assists", "points", "shots", "saves", "goalsAllowed", "penalties", "penaltySeconds", "plusMinus",
    "powerPlayGoals", "shortHandedGoals", "faceoffsWon", "faceoffsTaken", "secondsPlayed",
  ]
}
