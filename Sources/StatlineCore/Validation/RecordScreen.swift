/// Validation record by record (DESIGN.md §6): a record that breaks a rule is refused alone and
/// the rest of the page is stored, so one bad record never freezes a live score.
///
/// What each rule refuses:
/// - a game whose own facts break a rule (a score that is not the sum of its periods, a team
///   without a name, a bad clock or date, a live game without a period, an id not namespaced,
///   an id seen before on the page): that game;
/// - a team with an id not namespaced or seen before: that team;
/// - a box score whose players' goals do not add up to the score, or a second one for a game:
///   that box score (the game is still stored);
/// - a play seen before (same game and sequence): the later one;
/// - a play whose running score proves a goal (one side's score rose, the other's did not) but
///   whose text does not read as one: kept, as what the score proves — a goal for that side,
///   no player, the text as printed, `details.unread = "true"` (and `details.readAs` when the
///   text read as another play); one whose score moves any other way: refused;
/// - a lacrosse goal that names no scorer: kept, `details.unread = "true"`;
/// - a game's plays whose running score ends away from the game's score, or (on a page that
///   carries every play) a final game whose goal plays do not add up to its score: that game's
///   plays (the game and its box score are still stored).
/// Every refused record and every unread play is named in the batch's warnings (`refused: …`,
/// `unread: …`): such a poll is partial. A page that is empty, or where nothing passes, is a
/// failure as before.
extension BatchValidator {
  public static let refusedPrefix = "refused: "
  public static let unreadPrefix = "unread: "

  /// The batch without the records that break a rule, its unread plays marked, every one named
  /// in its warnings; throws when the page is empty or nothing passes.
  public static func screen(_ batch: Batch, everyPlay: Bool = false) throws(StatlineError) -> Batch {
    let all = problems(in: batch, everyPlay: everyPlay)
    guard !all.isEmpty else { return batch }
    if batch.isEmpty { throw failure(all) }
    var kept = batch
    var notes: [String] = []
    func refuse(_ problems: [String]) { notes += problems.map { refusedPrefix + $0 } }
    var seen = Set<String>()
    kept.games = batch.games.filter { game in
      var problems = self.problems(in: game)
      if !isNamespaced(game.id) { problems.append("id '\(game.id)' is not namespaced as 'source:native'") }
      if !seen.insert(game.id).inserted { problems.append("game id '\(game.id)' appears more than once") }
      refuse(problems)
      return problems.isEmpty
    }
    seen = []
    kept.teams = batch.teams.filter { team in
      var problems: [String] = []
      if !isNamespaced(team.id) { problems.append("id '\(team.id)' is not namespaced as 'source:native'") }
      if !seen.insert(team.id).inserted { problems.append("team id '\(team.id)' appears more than once") }
      refuse(problems)
      return problems.isEmpty
    }
    // The page's own word on each game, refused or not: what a box score and plays must agree with.
    let claimed = Dictionary(batch.games.map { ($0.id, $0) }) { first, _ in first }
    seen = []
    kept.boxScores = batch.boxScores.filter { box in
      var problems = self.problems(in: box, game: claimed[box.gameId])
      if !isNamespaced(box.gameId) { problems.append("id '\(box.gameId)' is not namespaced as 'source:native'") }
      if !seen.insert(box.gameId).inserted {
        problems.append("box score for game '\(box.gameId)' appears more than once")
      }
      refuse(problems)
      return problems.isEmpty
    }
    let plays = PlayScoring.screen(batch.plays, games: claimed, everyPlay: everyPlay)
    kept.plays = plays.kept
    refuse(plays.refused)
    notes += plays.unread.map { unreadPrefix + $0 }
    kept.warnings += notes
    // Nothing passes, or what is left still breaks a rule: the page fails, as it always did.
    let hadRecords = !batch.games.isEmpty || !batch.boxScores.isEmpty || !batch.plays.isEmpty
    let keptRecords = !kept.games.isEmpty || !kept.boxScores.isEmpty || !kept.plays.isEmpty
    guard hadRecords ? keptRecords : !kept.teams.isEmpty, problems(in: kept, everyPlay: everyPlay).isEmpty else {
      throw failure(all)
    }
    return kept
  }

  /// The refusals and unread plays a screened batch names.
  public static func refusals(of batch: Batch) -> [String] {
    batch.warnings.filter { $0.hasPrefix(refusedPrefix) || $0.hasPrefix(unreadPrefix) }
  }

  /// The validation error for `reasons` (the first ten, and how many more).
  static func failure(_ reasons: [String]) -> StatlineError {
    let shown = reasons.prefix(10).joined(separator: "; ")
    let more = reasons.count > 10 ? " (and \(reasons.count - 10) more)" : ""
    return StatlineError(
      .validation, shown + more,
      hint: "the page changed or the parser is wrong: replay it with `statline replay` and fix the parser")
  }
}
