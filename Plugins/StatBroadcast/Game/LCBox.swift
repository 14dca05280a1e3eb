import StatlineCore

/// StatCrew stat groups → the lacrosse stat keys of DESIGN.md §4.
enum LCBox {
  static func team(_ team: LCTeam, women: Bool) -> TeamBox {
    TeamBox(
      totals: stats(team.totals, women: women, goalieMinutes: false),
      players: team.players.map { player(attributes: $0.attributes, stats: $0.stats, women: women) })
  }

  static func player(attributes: [String: String], stats: [String: [String: String]], women: Bool) -> PlayerLine {
    let played = attributes["gp"] != "0" && !stats.isEmpty
    return PlayerLine(
      name: PersonName.normalized(attributes["name"] ?? ""),
      number: attributes["uni"].flatMap { $0.isEmpty ? nil : $0 },
      position: attributes["pos"].flatMap { $0.isEmpty ? nil : $0.uppercased() },
      starter: played ? attributes["gs"] == "1" : nil,
      stats: played ? self.stats(stats, women: women, goalieMinutes: true) : [:])
  }

  /// Only keys whose source attribute is present; men's games carry faceoffs, women's draw
  /// controls and free-position shots.
  static func stats(_ groups: [String: [String: String]], women: Bool, goalieMinutes: Bool) -> [String: Int] {
    var stats: [String: Int] = [:]
    func put(_ key: String, _ group: String, _ attribute: String) {
      if let value = GameText.int(groups[group]?[attribute]) { stats[key] = value }
    }
    put(StatKey.goals, "shots", "g")
    put(StatKey.assists, "shots", "a")
    if let goals = stats[StatKey.goals], let assists = stats[StatKey.assists] {
      stats[StatKey.points] = goals + assists
    }
    put(StatKey.shots, "shots", "sh")
    put(StatKey.shotsOnGoal, "shots", "sog")
    put(StatKey.groundBalls, "misc", "gb")
    put(StatKey.turnovers, "misc", "turnover")
    put(StatKey.causedTurnovers, "misc", "ct")
    if women {
      put(StatKey.drawControls, "misc", "dc")
      put(StatKey.freePositionGoals, "goaltype", "freepos")
      put(StatKey.freePositionShots, "shots", groups["shots"]?["fpa"] != nil ? "fpa" : "freepos")
    } else if let won = GameText.int(groups["misc"]?["facewon"]) {
      stats[StatKey.faceoffsWon] = won
      stats[StatKey.faceoffsTaken] = won + (GameText.int(groups["misc"]?["facelost"]) ?? 0)
    }
    put(StatKey.penalties, "penalty", "count")
    put(StatKey.penaltySeconds, "penalty", "seconds")
    put(StatKey.saves, "goalie", "saves")
    put(StatKey.goalsAllowed, "goalie", "ga")
    put(StatKey.clearsMade, "clear", "clearm")
    put(StatKey.clearsAttempted, "clear", "cleara")
    if goalieMinutes, let seconds = GameText.seconds(groups["goalie"]?["minutes"]) {
      stats[StatKey.secondsPlayed] = seconds
    }
    return stats
  }
}
