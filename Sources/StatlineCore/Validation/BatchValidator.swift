/// The checks every normalized batch must pass before it is stored (architecture.md#failure).
///
/// A page's batch is screened record by record (`screen`, in RecordScreen.swift): what breaks a
/// rule is refused alone and named. A store validates what it is given whole (`validate`): a
/// screened batch passes.
public enum BatchValidator {
  /// Throws one `.validation` error listing every broken rule.
  ///
  /// - Parameter everyPlay: the page carries every play of its games (a play-by-play page or a
  ///   StatCrew file), so a final game's goal plays must add up to its score.
  public static func validate(_ batch: Batch, everyPlay: Bool = false) throws(StatlineError) {
    let problems = problems(in: batch, everyPlay: everyPlay)
    guard !problems.isEmpty else { return }
    throw failure(problems)
  }

  /// Every broken rule, as readable sentences.
  public static func problems(in batch: Batch, everyPlay: Bool = false) -> [String] {
    var problems: [String] = []
    if batch.isEmpty {
      problems.append("the page yielded no games, teams, box scores, plays or rankings")
    }
    problems += duplicates(batch.games, \.id, what: "game id")
    problems += duplicates(batch.teams, \.id, what: "team id")
    problems += duplicates(batch.boxScores, \.gameId, what: "box score for game")
    problems += duplicatePlays(batch.plays)
    problems += duplicates(batch.rankings, \.id, what: "ranking id")
    for index in batch.rankings.indices { problems += self.problems(in: batch.rankings[index]) }
    // Each kind's ids in turn (no array of them all is built for a check that nearly always passes),
    // by index: `for game in` copied every record (each of its strings retained) to read one id.
    func namespaced(_ id: String) {
      if !isNamespaced(id) { problems.append("id '\(id)' is not namespaced as 'source:native'") }
    }
    // The games through their buffer: an array's element handed to a function was copied (each
    // of a game's strings retained) even by index.
    batch.games.withUnsafeBufferPointer { games in
      for index in games.indices { namespaced(games[index].id) }
    }
    for index in batch.teams.indices { namespaced(batch.teams[index].id) }
    for index in batch.boxScores.indices { namespaced(batch.boxScores[index].gameId) }
    batch.games.withUnsafeBufferPointer { games in
      for index in games.indices where games[index].isCanonical {
        problems.append("game id '\(games[index].id)' is a canonical game's: a source's ids never start with 'game:'")
      }
      for index in games.indices { problems += self.problems(in: games[index]) }
    }
    // Box scores and plays are checked against their games (a scoreboard has neither: no copy then).
    guard !batch.boxScores.isEmpty || !batch.plays.isEmpty else { return problems }
    let gamesById = PageGames(batch.games)
    let sport = teamsSport(batch)
    for box in batch.boxScores {
      problems += self.problems(in: box, game: gamesById[box.gameId], sport: sport)
    }
    problems += runningScores(batch.plays, games: gamesById)
    problems += PlayScoring.problems(batch.plays, games: gamesById, everyPlay: everyPlay)
    return problems
  }

  static func problems(in game: Game) -> [String] {
    var problems: [String] = []
    var name: String { "game \(game.id)" }  // made only for a problem's sentence
    if let period = game.period, period < 1 {
      problems.append("\(name): period \(period) is not 1-based")
    }
    if let period = game.period, period > game.sport.maxPeriods {
      problems.append("\(name): period \(period) is beyond the \(game.sport.maxPeriods) a \(game.sport) game can reach")
    }
    if game.status == .live && game.period == nil {
      problems.append("\(name): a live game has no period")
    }
    if let clock = game.clock, !isClock(clock) {
      problems.append("\(name): clock '\(clock)' is not MM:SS")
    }
    if let date = game.date, !isDate(date) {
      problems.append("\(name): date '\(date)' is not YYYY-MM-DD")
    }
    for side in Side.allCases {
      let line = game[side]
      if let id = line.team.id, !isNamespaced(id) {
        problems.append("\(name): \(side) team id '\(id)' is not namespaced")
      }
      if line.team.name.isEmpty { problems.append("\(name): the \(side) team has no name") }
      if let score = line.score {
        if score < 0 { problems.append("\(name): \(side) score \(score) is negative") }
        if score > game.sport.maxScore {
          problems.append(
            "\(name): \(side) score \(score) is beyond the \(game.sport.maxScore) a \(game.sport) side can score")
        }
        if game.sport.profile?.scoring == .sets {
          if let won = setsWon(game, side), won != score {
            problems.append(
              "\(name): \(side) score \(score) is not the sets it won (\(won)) by its set scores \(line.periodScores) "
                + "against \(game[side.other].periodScores)")
          }
        } else if !line.periodScores.isEmpty && checkedSum(line.periodScores) != score {
          problems.append(
            "\(name): \(side) score \(score) is not the sum of its period scores \(line.periodScores)"
          )
        }
      }
      if game.status == .final && line.score == nil {
        problems.append("\(name): a final game has no \(side) score")
      }
    }
    // In innings the home team bats second: in the top of an inning, and in a final whose home
    // half was not needed, its line is one inning shorter than the visitor's (left out, not 0).
    let innings = game.sport.profile?.period == .inning
    if let period = game.period, game.status == .final || game.status == .live {
      for side in Side.allCases where !game[side].periodScores.isEmpty {
        let needed = innings && side == .home ? period - 1 : period
        if game[side].periodScores.count < needed {
          problems.append(
            "\(name): the \(side) team has \(game[side].periodScores.count) period scores, but the game is in period \(period)"
          )
        }
      }
    }
    let counts = (away: game.away.periodScores.count, home: game.home.periodScores.count)
    if counts.home > 0 && counts.away > 0 && counts.home != counts.away
      && !(innings && counts.home == counts.away - 1)
    {
      problems.append("\(name): the teams have different numbers of period scores")
    }
    return problems
  }

  /// The running score of a game's last scoring play must be the game's score.
  static func runningScores(_ plays: [Play], games: PageGames) -> [String] {
    // Each game's last scored play, by index: a page's plays come a game at a time, so the
    // table is written when the game changes, not hashed (and a play copied) for every play;
    // a page of one game's plays (nearly every one) makes no table.
    var last: [String: Int] = [:]
    var run: (gameId: String, index: Int)?
    for index in plays.indices where plays[index].awayScore != nil || plays[index].homeScore != nil {
      if let current = run, current.gameId != plays[index].gameId { last[current.gameId] = current.index }
      run = (plays[index].gameId, index)
    }
    func problem(_ id: String, _ index: Int) -> String? {
      // In a sport scored in sets, the plays' running score is the set's points, not sets won.
      guard let at = games.index(of: id), games.all[at].sport.profile?.scoring != .sets,
        let away = games.all[at].away.score, let home = games.all[at].home.score,
        plays[index].awayScore != away || plays[index].homeScore != home
      else { return nil }
      return
        "game \(id): the plays' running score ends at \(plays[index].awayScore ?? 0)-\(plays[index].homeScore ?? 0), "
        + "but the score is \(away)-\(home)"
    }
    guard let run else { return [] }
    guard !last.isEmpty else { return problem(run.gameId, run.index).map { [$0] } ?? [] }
    last[run.gameId] = run.index
    return last.keys.sorted().compactMap { problem($0, last[$0]!) }
  }

  /// The sport a page's teams share, if they share one: a box score without its game (ncaa.com's
  /// box-score answer) is of that sport.
  static func teamsSport(_ batch: Batch) -> Sport? {
    guard let sport = batch.teams.first?.sport, batch.teams.allSatisfy({ $0.sport == sport }) else { return nil }
    return sport
  }

  /// - Parameter sport: the sport when `game` is not on the page (goals when neither says).
  static func problems(in box: BoxScore, game: Game?, sport: Sport? = nil) -> [String] {
    var problems: [String] = []
    // The column that adds up to the score: goals, points or runs (none for sets won).
    let profile = (game?.sport ?? sport)?.profile
    guard let key = profile == nil ? StatKey.goals : profile?.scoringKey else { return problems }
    for side in Side.allCases {
      let teamBox = box[side]
      let playerGoals = teamBox.players.compactMap { $0.stats[key] }
      guard !playerGoals.isEmpty else { continue }
      // A sum past any number (a corrupt page) is a sum that does not add up, never a trap.
      let sum = checkedSum(playerGoals) ?? -1
      let expected = game?[side].score ?? teamBox.totals[key]
      if let expected, expected != sum {
        problems.append(
          "box score \(box.gameId): \(side) players' \(key) add up to \(sum), but the score is \(expected)")
      }
    }
    return problems
  }

  /// A play's identity, compared without building a string per play.
  struct PlayKey: Hashable, CustomStringConvertible {
    var gameId: String
    var sequence: Int
    var description: String { "\(gameId)#\(sequence)" }
  }

  /// Plays that share a game and a sequence. A page's plays come a game at a time in order of
  /// sequence: then there are none, known without hashing a key per play.
  static func duplicatePlays(_ plays: [Play]) -> [String] {
    // The games whose run of plays has ended: a page of one game's plays makes no set.
    var ended: Set<String> = []
    for index in plays.indices.dropFirst() {
      if plays[index - 1].gameId == plays[index].gameId {
        if plays[index].sequence > plays[index - 1].sequence { continue }
      } else {
        ended.insert(plays[index - 1].gameId)
        if !ended.contains(plays[index].gameId) { continue }
      }
      return duplicates(plays.map { PlayKey(gameId: $0.gameId, sequence: $0.sequence) }, what: "play")
    }
    return []
  }

  /// The records' ids seen more than once. A page's few records (a game and its two teams; a
  /// scoreboard's dozen games) are compared pairwise: no array of ids and no set is made for a
  /// check that nearly always passes. Up to 32, pairs cost less than hashing every id (a
  /// scoreboard of 8 games and 16 teams: 3 % of its reading, best of six).
  static func duplicates<Record>(_ records: [Record], _ id: (Record) -> String, what: String) -> [String] {
    guard records.count > 1 else { return [] }
    guard records.count <= 32 else { return duplicates(records.map(id), what: what) }
    let repeated = records.withUnsafeBufferPointer { records in
      for later in 1..<records.count {
        let value = id(records[later])
        for earlier in 0..<later where id(records[earlier]) == value { return true }
      }
      return false
    }
    return repeated ? duplicates(records.map(id), what: what) : []
  }

  static func duplicates<Value: Hashable & CustomStringConvertible>(_ values: [Value], what: String) -> [String] {
    var seen = Set<Value>(minimumCapacity: values.count)
    var reported: Set<Value> = []
    var problems: [String] = []
    for value in values where !seen.insert(value).inserted && reported.insert(value).inserted {
      problems.append("\(what) '\(value)' appears more than once")
    }
    return problems
  }

  /// The sum of `values`, or nil where it overflows: validation adds up what a page says, and a
  /// corrupt page must be refused, never stop the process.
  static func checkedSum(_ values: [Int]) -> Int? {
    var sum = 0
    for value in values {
      let (next, overflow) = sum.addingReportingOverflow(value)
      if overflow { return nil }
      sum = next
    }
    return sum
  }

  static func isNamespaced(_ id: String) -> Bool {
    let utf8 = id.utf8
    guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return false }
    return colon != utf8.startIndex && utf8.index(after: colon) != utf8.endIndex
  }

  /// The sets `side` won by the set scores (nil when either side has none): each set it ended
  /// ahead in, leaving out the set a live match is playing.
  static func setsWon(_ game: Game, _ side: Side) -> Int? {
    let own = game[side].periodScores
    let other = game[side.other].periodScores
    guard !own.isEmpty, !other.isEmpty else { return nil }
    var sets = Array(zip(own, other))
    if game.status == .live, let period = game.period, period <= sets.count { sets.removeLast(sets.count - period + 1) }
    return sets.filter { $0.0 > $0.1 }.count
  }

  static func isClock(_ text: String) -> Bool {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2, let minutes = Int(parts[0]), let seconds = Int(parts[1]) else { return false }
    return parts[1].count == 2 && parts[0].count >= 1 && minutes >= 0 && (0..<60).contains(seconds)
  }

  /// `YYYY-MM-DD`, a day the calendar has (`2026-02-30` is none; `2028-02-29` is one).
  public static func isDate(_ text: String) -> Bool {
    // On its bytes: an array of them was made for every game of a scoreboard.
    var text = text
    return text.withUTF8 { isDate(bytes: UnsafeRawBufferPointer($0)) }
  }

  private static func isDate(bytes: UnsafeRawBufferPointer) -> Bool {
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes.indices.allSatisfy({ $0 == 4 || $0 == 7 || bytes[$0] &- UInt8(ascii: "0") < 10 })
    else { return false }
    let number = { (range: Range<Int>) in range.reduce(0) { $0 * 10 + Int(bytes[$1] - UInt8(ascii: "0")) } }
    let (year, month, day) = (number(0..<4), number(5..<7), number(8..<10))
    guard (1...12).contains(month) else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days =
      switch month {
      case 2: leap ? 29 : 28
      case 4, 6, 9, 11: 30
      default: 31
      }
    return (1...days).contains(day)
  }
}
