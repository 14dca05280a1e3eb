import StatlineCore

/// StatCrew stat groups → the lacrosse stat keys of architecture.md#the-contract.
enum LCBox {
  /// The team's box score, each player's name normalized once ("First Last"). Players are those
  /// who appeared (`gp` not 0), as a stats.ncaa.org box score lists them; the roster's others
  /// and the `TM` "Team" row (the team's own numbers, which are in `totals`) are left out.
  static func team(_ team: LCTeam, names: [String], women: Bool) -> TeamBox {
    TeamBox(
      totals: stats(team.totals, women: women, goalieMinutes: false),
      players: zip(team.players, names).filter { appeared($0.0) }.map { player($0, name: $1, women: women) })
  }

  static func appeared(_ player: LCPlayer) -> Bool {
    let teamRow = player.number?.uppercased() == "TM" || player.name.lowercased() == "team"
    return !teamRow && player.gamesPlayed != "0"
  }

  static func player(_ player: LCPlayer, name: String, women: Bool) -> PlayerLine {
    let played = player.gamesPlayed != "0" && player.stats.groups > 0
    return PlayerLine(
      name: name,
      number: player.number.flatMap { $0.isEmpty ? nil : $0 },
      position: player.position.flatMap { $0.isEmpty ? nil : $0.uppercased() },
      starter: played ? player.gamesStarted == "1" : nil,
      stats: played ? stats(player.stats, women: women, goalieMinutes: true) : [:])
  }

  /// Only keys whose source attribute is present; men's games carry faceoffs, women's draw
  /// controls and free-position shots.
  static func stats(_ source: LCStats, women: Bool, goalieMinutes: Bool) -> [String: Int] {
    var stats: [String: Int] = Dictionary(minimumCapacity: 20)
    func put(_ key: String, _ stat: LCStat) {
      if let value = source[stat] { stats[key] = value }
    }
    put(StatKey.goals, .goals)
    put(StatKey.assists, .assists)
    if let goals = source[.goals], let assists = source[.assists] {
      stats[StatKey.points] = goals + assists
    }
    put(StatKey.shots, .shots)
    put(StatKey.shotsOnGoal, .shotsOnGoal)
    put(StatKey.groundBalls, .groundBalls)
    put(StatKey.turnovers, .turnovers)
    put(StatKey.causedTurnovers, .causedTurnovers)
    if women {
      put(StatKey.drawControls, .drawControls)
      put(StatKey.freePositionGoals, .freePositionGoals)
      put(StatKey.freePositionShots, source[.freePositionAttempts] != nil ? .freePositionAttempts : .freePositionShots)
    } else if let won = source[.faceoffsWon] {
      stats[StatKey.faceoffsWon] = won
      stats[StatKey.faceoffsTaken] = won + (source[.faceoffsLost] ?? 0)
    }
    put(StatKey.penalties, .penalties)
    put(StatKey.penaltySeconds, .penaltySeconds)
    put(StatKey.saves, .saves)
    put(StatKey.goalsAllowed, .goalsAllowed)
    put(StatKey.clearsMade, .clearsMade)
    put(StatKey.clearsAttempted, .clearsAttempted)
    if goalieMinutes, let seconds = source[.goalieSeconds] {
      stats[StatKey.secondsPlayed] = seconds
    }
    return stats
  }
}
