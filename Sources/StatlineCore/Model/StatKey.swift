/// The stat keys of the normalized model (architecture.md#the-contract). Other sports add their own keys in the
/// same lower-camel style.
public enum StatKey {
  public static let goals = "goals"
  public static let assists = "assists"
  public static let points = "points"
  public static let shots = "shots"
  public static let shotsOnGoal = "shotsOnGoal"
  public static let groundBalls = "groundBalls"
  public static let turnovers = "turnovers"
  public static let causedTurnovers = "causedTurnovers"
  public static let faceoffsWon = "faceoffsWon"
  public static let faceoffsTaken = "faceoffsTaken"
  public static let drawControls = "drawControls"
  public static let saves = "saves"
  public static let goalsAllowed = "goalsAllowed"
  public static let penalties = "penalties"
  public static let penaltySeconds = "penaltySeconds"
  public static let secondsPlayed = "secondsPlayed"
  public static let clearsMade = "clearsMade"
  public static let clearsAttempted = "clearsAttempted"
  public static let freePositionShots = "freePositionShots"
  public static let freePositionGoals = "freePositionGoals"

  /// Every lacrosse key, in the order docs/sports.md lists them.
  public static let lacrosse: [String] = [
    goals, assists, points, shots, shotsOnGoal, groundBalls, turnovers, causedTurnovers,
    faceoffsWon, faceoffsTaken, drawControls, saves, goalsAllowed, penalties, penaltySeconds,
    secondsPlayed, clearsMade, clearsAttempted, freePositionShots, freePositionGoals,
  ]
}
