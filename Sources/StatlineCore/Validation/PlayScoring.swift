/// The rules that make a goal the grammar could not read impossible to miss: a lost goal would
/// be a missed alert, while the game's score still adds up.
///
/// - A play whose running score (as the page prints it) differs from the one before it must be
///   a goal.
/// - A lacrosse goal names its scorer (every goal text does; a goal without one was not read).
/// - On a page that carries every play, a final game's goal plays per side add up to its score
///   (in a sport scored in points or runs, its `score` plays' points do; in one scored in sets,
///   each set's rallies add up to that set's points).
enum PlayScoring {
  static func problems(_ plays: [Play], games: PageGames, everyPlay: Bool) -> [String] {
    var problems: [String] = []
    /// What a game's plays add up to: its running score, its goal plays per side, per period
    /// (what a sport scored in sets checks: its plays' running score is the set's), and the
    /// goals of neither side.
    struct Tally {
      var score = (away: 0, home: 0)
      var goals = (away: 0, home: 0)
      var byPeriod: [Int: (away: Int, home: Int)] = [:]
      var sideless: [Play] = []
      var lacrosse = false
      var sets = false
    }
    var tallies: [String: Tally] = [:]
    var gamesWithPlays: [String] = []
    // A page's plays come a game at a time: the game's tally is kept here while its plays go
    // by (no table entry per play), and in `tallies` between its runs.
    var current: (gameId: String, tally: Tally)?
    // By index: `for play in plays` copied every play (each of its strings retained), a fifth
    // of validating a play-by-play; a play is copied only to describe a problem.
    for index in plays.indices {
      if plays[index].gameId != current?.gameId {
        // The game whose run ends goes to the table; one seen before comes back from it. A page
        // of one game's plays (nearly every one) makes no table.
        if let current { tallies[current.gameId] = current.tally }
        let id = plays[index].gameId
        if let earlier = tallies.isEmpty ? nil : tallies.removeValue(forKey: id) {
          current = (id, earlier)
        } else {
          var tally = Tally()
          gamesWithPlays.append(id)
          let sport = games.sport(of: id)
          tally.lacrosse = sport?.isLacrosse ?? false
          tally.sets = sport?.profile?.scoring == .sets
          current = (id, tally)
        }
      }
      if let away = plays[index].awayScore, let home = plays[index].homeScore {
        let before = current!.tally.score
        if plays[index].type != .goal && plays[index].type != .score && (away, home) != before {
          problems.append(
            "game \(plays[index].gameId): \(describe(plays[index])) changes the running score from \(before.away)-\(before.home) "
              + "to \(away)-\(home) but reads as \(plays[index].type.rawValue), not a goal")
        }
        current!.tally.score = (away, home)
      }
      guard plays[index].type == .goal || plays[index].type == .score else { continue }
      // A goal counts one; a basket, free throw or run what its play says.
      let value = plays[index].type == .goal ? 1 : Int(plays[index].details["points"] ?? "") ?? 1
      if plays[index].type == .goal, plays[index].player == nil, !plays[index].isUnread, current!.tally.lacrosse {
        problems.append("game \(plays[index].gameId): \(describe(plays[index])) is a goal that names no scorer")
      }
      // Wrapping: a corrupt page's numbers add up wrong and are refused, never stop the process.
      switch plays[index].side {
      case .away:
        current!.tally.goals.away &+= value
        if current!.tally.sets { current!.tally.byPeriod[plays[index].period ?? 0, default: (0, 0)].away &+= value }
      case .home:
        current!.tally.goals.home &+= value
        if current!.tally.sets { current!.tally.byPeriod[plays[index].period ?? 0, default: (0, 0)].home &+= value }
      case nil: current!.tally.sideless.append(plays[index])
      }
    }
    guard everyPlay else { return problems }
    // The game lent, not copied (a copy retained each of its strings).
    func check(_ id: String, _ game: borrowing Game, _ tally: Tally) {
      guard game.status == .final, let away = game.away.score, let home = game.home.score else { return }
      // In the sport's own words: goals, or scores (points, runs).
      let goals = game.sport.profile?.countsGoals ?? true
      if !tally.sideless.isEmpty {
        problems += tally.sideless.map {
          "game \(id): \(describe($0)) is a \(goals ? "goal" : "score") for neither side"
        }
        return
      }
      if game.sport.profile?.scoring == .sets {
        for (index, (awayPoints, homePoints)) in zip(game.away.periodScores, game.home.periodScores).enumerated() {
          let counted = tally.byPeriod[index + 1] ?? (0, 0)
          if counted != (awayPoints, homePoints) {
            problems.append(
              "game \(id): set \(index + 1) ended \(awayPoints)-\(homePoints), but its rallies add up to "
                + "\(counted.away)-\(counted.home) (a point whose play was not read?)")
          }
        }
        return
      }
      let counted = tally.goals
      if counted != (away, home) {
        problems.append(
          "game \(id): the final score is \(away)-\(home), but its \(goals ? "goal" : "scoring") plays add up to "
            + "\(counted.away)-\(counted.home) (a \(goals ? "goal" : "score") whose text was not read?)")
      }
    }
    for id in gamesWithPlays.count > 1 ? gamesWithPlays.sorted() : gamesWithPlays {
      guard let index = games.index(of: id), let tally = id == current?.gameId ? current?.tally : tallies[id]
      else { continue }
      check(id, games.all[index], tally)
    }
    return problems
  }

  /// "play 37 ('GOAL by TEAM …')", the text cut at 80 characters.
  static func describe(_ play: Play) -> String {
    let text = play.text.count > 80 ? play.text.prefix(80) + "…" : Substring(play.text)
    return "play \(play.sequence) ('\(text)')"
  }

  /// The plays of a page screened record by record (see `BatchValidator.screen`): what is kept,
  /// what is refused and what is kept unread, each named.
  static func screen(_ plays: [Play], games: PageGames, everyPlay: Bool) -> (
    kept: [Play], refused: [String], unread: [String]
  ) {
    // What is kept starts as the plays themselves (shared, not copied): a play is copied only
    // where it is changed, and the list only once something is refused or changed.
    var kept = plays
    var refusedAt: [Int] = []
    var refused: [String] = []
    var unread: [String] = []
    // A page's plays come a game at a time in order of sequence: then a play repeats none
    // before it, known without hashing a key per play (`seen` is filled only once they do not),
    // and the game's running score is kept here while its plays go by.
    var seen: Set<BatchValidator.PlayKey>?
    var running: [String: (away: Int, home: Int)] = [:]
    var current: (gameId: String, score: (away: Int, home: Int))?
    for index in plays.indices {
      if seen == nil {
        let inOrder =
          index == 0
          || (plays[index - 1].gameId == plays[index].gameId
            ? plays[index].sequence > plays[index - 1].sequence : running[plays[index].gameId] == nil)
        if !inOrder {
          seen = Set(plays[..<index].map { BatchValidator.PlayKey(gameId: $0.gameId, sequence: $0.sequence) })
        }
      }
      if seen != nil,
        !seen!.insert(BatchValidator.PlayKey(gameId: plays[index].gameId, sequence: plays[index].sequence)).inserted
      {
        refused.append("game \(plays[index].gameId): \(describe(plays[index])) appears more than once")
        refusedAt.append(index)
        continue
      }
      if plays[index].gameId != current?.gameId {
        if let current { running[current.gameId] = current.score }
        current = (plays[index].gameId, running.isEmpty ? (0, 0) : running[plays[index].gameId] ?? (0, 0))
      }
      let before = current!.score
      if let away = plays[index].awayScore, let home = plays[index].homeScore {
        current!.score = (away, home)
        if plays[index].type != .goal && plays[index].type != .score && (away, home) != before {
          var play = plays[index]
          let change = "changes the running score from \(before.away)-\(before.home) to \(away)-\(home)"
          let side: Side? =
            away > before.away && home == before.home ? .away : home > before.home && away == before.away ? .home : nil
          guard let side else {
            refused.append("game \(play.gameId): \(describe(play)) \(change), which no play does")
            refusedAt.append(index)
            continue
          }
          if play.type != .other { play.details["readAs"] = play.type.rawValue }
          // A goal in a goal sport; a score of what the running score rose by in the others.
          let goals = games.sport(of: play.gameId)?.profile?.countsGoals ?? true
          play.type = goals ? .goal : .score
          if !goals { play.details["points"] = String(side == .away ? away - before.away : home - before.home) }
          play.side = side
          play.player = nil
          play.assist = nil
          play.details["unread"] = "true"
          unread.append(
            "game \(play.gameId): \(describe(play)) \(change): stored as a \(goals ? "goal" : "score") for the \(side) side, its scorer unknown"
          )
          kept[index] = play
        }
      }
      if kept[index].type == .goal, kept[index].player == nil, !kept[index].isUnread,
        let sport = games.sport(of: kept[index].gameId), sport.isLacrosse
      {
        kept[index].details["unread"] = "true"
        unread.append("game \(kept[index].gameId): \(describe(kept[index])) is a goal whose scorer was not read")
      }
    }
    if !refusedAt.isEmpty {
      let out = Set(refusedAt)
      kept = kept.indices.filter { !out.contains($0) }.map { kept[$0] }
    }
    // A game's plays that still do not add up are refused together (a lost goal would be silent).
    var broken: Set<String> = []
    // One game (nearly every page): its plays as they are, not copied into groups.
    let firstGame = kept.first?.gameId
    let byGame =
      kept.allSatisfy({ $0.gameId == firstGame })
      ? kept.first.map { [($0.gameId, kept)] } ?? []
      : Dictionary(grouping: kept, by: \.gameId).sorted(by: { $0.key < $1.key }).map { ($0.key, $0.value) }
    for (gameId, ofGame) in byGame {
      let problems =
        BatchValidator.runningScores(ofGame, games: games) + self.problems(ofGame, games: games, everyPlay: everyPlay)
      guard !problems.isEmpty else { continue }
      refused += problems.map { "\($0) (the game's \(ofGame.count) plays are refused)" }
      broken.insert(gameId)
    }
    if !broken.isEmpty { kept.removeAll { broken.contains($0.gameId) } }
    return (kept, refused, unread)
  }
}

extension Play {
  /// A play stored as what its running score proves, its text not read (`details.unread`).
  public var isUnread: Bool { details["unread"] == "true" }
}
