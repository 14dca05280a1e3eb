/// Validation record by record (architecture.md#failure): a record that breaks a rule is refused alone and
/// the rest of the page is stored, so one bad record never freezes a live score.
///
/// What each rule refuses:
/// - a game whose own facts break a rule (a score that is not the sum of its periods, a team
///   without a name, a bad clock or date, a live game without a period, an id not namespaced,
///   an id seen before on the page): that game;
/// - a team with an id not namespaced or seen before: that team;
/// - a box score whose players' goals do not add up to the score, or a second one for a game:
///   that box score (the game is still stored);
/// - a poll's week whose ranks are not in order, skip a name or repeat a team: that week;
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
    try screening(batch, everyPlay: everyPlay).batch
  }

  /// `screen`, with what it refused and what it kept unread as values: the poll that stores the
  /// batch reads them here, never back from the batch's warnings.
  public static func screening(_ batch: Batch, everyPlay: Bool = false) throws(StatlineError) -> Screening {
    let all = problems(in: batch, everyPlay: everyPlay)
    guard !all.isEmpty else { return Screening(batch: batch) }
    if batch.isEmpty { throw failure(all) }
    var kept = batch
    var refused: [String] = []
    func refuse(_ problems: [String]) { refused += problems }
    // Games, teams and box scores: each refused alone for its own rules, a bad id or an id
    // seen before on the page. The page's own word on each game (refused or not) is what a box
    // score and plays must agree with.
    func screened<Record>(
      _ records: [Record], id: (Record) -> String, again: (String) -> String, rules: (Record) -> [String]
    ) -> [Record] {
      var seen = RepeatedIds()
      var index = -1
      return records.filter { record in
        index += 1
        var problems = rules(record)
        if !isNamespaced(id(record)) { problems.append("id '\(id(record))' is not namespaced as 'source:native'") }
        if seen.contains(id(record), among: records[..<index], id) { problems.append(again(id(record))) }
        refuse(problems)
        return problems.isEmpty
      }
    }
    let claimed = PageGames(batch.games)
    let sport = Self.teamsSport(batch)
    kept.games = screened(
      batch.games, id: \.id, again: { "game id '\($0)' appears more than once" }, rules: { self.problems(in: $0) })
    kept.teams = screened(
      batch.teams, id: \.id, again: { "team id '\($0)' appears more than once" }, rules: { _ in [] })
    kept.boxScores = screened(
      batch.boxScores, id: \.gameId, again: { "box score for game '\($0)' appears more than once" },
      rules: { self.problems(in: $0, game: claimed[$0.gameId], sport: sport) })
    kept.rankings = screened(
      batch.rankings, id: \.id, again: { "ranking id '\($0)' appears more than once" }, rules: { self.problems(in: $0) }
    )
    let plays = PlayScoring.screen(batch.plays, games: claimed, everyPlay: everyPlay)
    kept.plays = plays.kept
    refuse(plays.refused)
    var screening = Screening(batch: kept, refused: refused, unread: plays.unread)
    kept.warnings += screening.partial
    // Nothing passes, or what is left still breaks a rule: the page fails, as it always did.
    let hadRecords =
      !batch.games.isEmpty || !batch.boxScores.isEmpty || !batch.plays.isEmpty
      || !batch.rankings.isEmpty
    let keptRecords =
      !kept.games.isEmpty || !kept.boxScores.isEmpty || !kept.plays.isEmpty
      || !kept.rankings.isEmpty
    guard hadRecords ? keptRecords : !kept.teams.isEmpty, problems(in: kept, everyPlay: everyPlay).isEmpty else {
      throw failure(all)
    }
    screening.batch = kept
    if kept.games.count < batch.games.count {
      let stored = Set(kept.games.map(\.id))
      screening.refusedGames = batch.games.map(\.id).filter { !stored.contains($0) }
    }
    return screening
  }

  /// The refusals and unread plays a screened batch's warnings name (for a reader of a stored or
  /// replayed batch; the job takes them from its `Screening`).
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

/// What screening a batch did: the batch as it is stored, the records it refused and the plays
/// it kept unread, each named (`game ncaa:2: the away team has no name`).
public struct Screening: Sendable, Equatable {
  /// The batch without its refused records, its warnings naming them (`partial`).
  public internal(set) var batch: Batch
  public internal(set) var refused: [String]
  public internal(set) var unread: [String]
  /// The ids of the games the page showed whose records were refused: a schedule keeps its last
  /// good word on them (a live game refused for one poll still makes its page live).
  public internal(set) var refusedGames: [String] = []

  /// The batch as it passed, for a commit that need not check it again.
  public var screened: ScreenedBatch { ScreenedBatch(checked: batch) }

  init(batch: Batch, refused: [String] = [], unread: [String] = []) {
    self.batch = batch
    self.refused = refused
    self.unread = unread
  }

  /// Every refusal and unread play as the batch's warnings name them (`refused: …`,
  /// `unread: …`): empty unless the poll is partial.
  public var partial: [String] {
    refused.map { BatchValidator.refusedPrefix + $0 } + unread.map { BatchValidator.unreadPrefix + $0 }
  }
}
