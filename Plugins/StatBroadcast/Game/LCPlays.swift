import StatlineCore

/// StatCrew `<plays format="summary">` → typed plays with the running score after each goal
/// (the file's `<currentscore>`, or counted when it has none).
enum LCPlays {
  static func normalize(
    _ plays: [LCPlay], gameId: String, tokens: [String], rosters: [Side: Set<String>]
  ) -> [Play] {
    var away = 0
    var home = 0
    // The play's own team first: the same few lists for every play.
    var teamLists: [String: [String]] = [:]
    return plays.enumerated().map { index, raw in
      let side: Side? =
        switch raw.side {
        case "V": .away
        case "H": .home
        default: nil
        }
      let text = raw.text
      let own = raw.team ?? ""
      let teams = teamLists[own] ?? ([own] + tokens)
      if teamLists.count < 8 { teamLists[own] = teams }
      let read = LacrossePlayText.read(action: raw.action, text: text, teams: teams)
      var play = Play(
        gameId: gameId, sequence: index + 1, period: raw.period >= 1 ? raw.period : nil,
        clock: GameText.clock(raw.clock), side: side, type: read.type, text: text, player: read.player,
        assist: read.assist, details: read.details)
      if let side, let roster = rosters[side], let (winner, opponent) = read.faceoff(winnerFrom: roster) {
        play.player = winner
        if let opponent { play.details["opponent"] = opponent }
      }
      if let score = raw.score {
        // The file's score after the play, kept whatever the play reads as: a score that changes
        // on a play not read as a goal fails validation instead of losing the goal.
        (play.awayScore, play.homeScore) = (score.visitor, score.home)
      }
      if read.type == .goal {
        if let score = raw.score {
          (away, home) = (score.visitor, score.home)
        } else if side == .away {
          away += 1
        } else if side == .home {
          home += 1
        }
        play.awayScore = away
        play.homeScore = home
      }
      return play
    }
  }
}
