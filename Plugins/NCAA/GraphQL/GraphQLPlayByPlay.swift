import Foundation
import StatlineCore

/// `data.playbyplay` of `NCAA_GetGamecenterPbpGenericById_web` (STRUCTURE.md §3b).
struct GraphQLPlayByPlay: Sendable {
  struct Team: Sendable {
    var isHome: Bool
    var teamId: Flexible
    var seoname: String?
    var name6Char: String?
    var nameShort: String?
    var nameFull: String?
  }

  struct Period: Sendable {
    var periodNumber: Flexible
    var periodDisplay: String?
    var playbyplayStats: [Entry]
  }

  /// A lacrosse entry holds its plays (`plays`); a basketball one is itself the play
  /// (`PlayByPlayBasketball`: `visitorText` / `homeText`, the score on every entry).
  struct Entry: Sendable {
    var clock: String?
    var teamId: Flexible?
    var plays: [Item]?
    var visitorText: String?
    var homeText: String?
    var eventDescription: String?
    var homeScore: Int?
    var visitorScore: Int?
    /// Basketball's flat score, "(visitor-home)", printed beside the two numbers.
    var score: String?
  }

  struct Item: Sendable {
    var playText: String?
    var homeScore: Int?
    var visitorScore: Int?
    var clock: String?
  }

  var contestId: Flexible
  var title: String?
  var status: String?
  var period: Flexible?
  var minutes: String?
  var seconds: String?
  var teams: [Team]
  var periods: [Period]
}

/// Reads the play-by-play answer.
struct GraphQLPlayByPlayParser: PageParser {
  func parse(_ page: Page) throws -> GraphQLPlayByPlay {
    try GraphQLAnswer.decode(GraphQLPlayByPlay.self, field: "playbyplay", from: page)
  }
}

/// The play-by-play → the game and its typed plays. The answer has no score of its own: the
/// score is the running score after the last goal, and each period's goals make its line.
struct GraphQLPlayByPlayNormalizer: Normalizer {
  /// The highest period number read (a lacrosse game's seventh overtime is its 11th period).
  static let maxPeriod = 99

  func normalize(_ answer: GraphQLPlayByPlay, page: Page) throws -> Batch {
    guard let home = answer.teams.first(where: \.isHome), let away = answer.teams.first(where: { !$0.isHome }) else {
      throw StatlineError(
        .wrongPage, "the play-by-play names \(answer.teams.count) teams without one home and one visitor")
    }
    // Periods are numbered from 1 (99 at most: a game's line has a score per period): a play in a
    // period numbered otherwise (or not at all) cannot be placed in the game, and the score made
    // of the plays would leave it out unsaid.
    if let bad = answer.periods.firstIndex(where: { !(1...Self.maxPeriod).contains($0.periodNumber.int ?? 0) }) {
      throw StatlineError(
        .wrongPage,
        "period \(bad + 1) of the play-by-play is numbered '\(answer.periods[bad].periodNumber.text)', not a number "
          + "from 1 to \(Self.maxPeriod): its \(answer.periods[bad].playbyplayStats.count) entries cannot be placed in the game",
        hint: "the answer's shape changed: replay it with `statline replay` and look at its periods")
    }
    try Self.checkScores(answer)
    let gameId = NCAAIds.comContest(answer.contestId.text)
    if let basketball = NCAAGraphQLGame.basketball(title: answer.title) {
      return try Self.basketball(answer, sport: basketball, gameId: gameId, away: away, home: home)
    }
    let sport = try NCAAGraphQLGame.sport(title: answer.title, page: page)
    if !NCAASports.isLacrosse(sport) {
      return Self.byRunningScore(answer, sport: sport, gameId: gameId, away: away, home: home)
    }
    let rows = Self.rows(answer, away: away, home: home, openingClocks: false)
    return Self.game(
      answer, sport: sport, gameId: gameId, away: away, home: home, plays: PlayRows.plays(consume rows, gameId: gameId))
  }

  /// Every running score the answer prints is a game's (0 to `GameText.largest`): the game's score
  /// is made of them, so one beyond is refused with the answer, named, rather than added up.
  static func checkScores(_ answer: GraphQLPlayByPlay) throws {
    func check(_ scores: (Int?, Int?), _ where: @autoclosure () -> String) throws {
      // Each of the two in turn (an array of them was made for every play).
      func check(_ score: Int?) throws {
        guard let score, score < 0 || score > GameText.largest else { return }
        throw StatlineError(
          .wrongPage, "\(`where`()) prints the running score \(score), which is no game's",
          hint: "the answer is corrupt or its shape changed: replay it with `statline replay`")
      }
      try check(scores.0)
      try check(scores.1)
    }
    // By index: no entry or play is copied to read its two numbers.
    for p in answer.periods.indices {
      for e in answer.periods[p].playbyplayStats.indices {
        try check(
          (answer.periods[p].playbyplayStats[e].visitorScore, answer.periods[p].playbyplayStats[e].homeScore),
          "entry \(e + 1) of period \(p + 1)")
        guard let items = answer.periods[p].playbyplayStats[e].plays else { continue }
        for i in items.indices {
          try check((items[i].visitorScore, items[i].homeScore), "play \(i + 1) of entry \(e + 1) of period \(p + 1)")
        }
      }
    }
  }

  /// The generic shape's plays (`playbyplayStats[].plays[]`) as rows, each entry's side by its
  /// team id; with `openingClocks`, a text that opens with its clock ("(08:16) …", football's)
  /// gives it up.
  static func rows(
    _ answer: GraphQLPlayByPlay, away: GraphQLPlayByPlay.Team, home: GraphQLPlayByPlay.Team, openingClocks: Bool
  ) -> [PlayRow] {
    var rows: [PlayRow] = []
    rows.reserveCapacity(
      answer.periods.reduce(0) { $0 + $1.playbyplayStats.reduce(0) { $0 + ($1.plays?.count ?? 0) } })
    let (homeId, awayId) = (home.teamId.text, away.teamId.text)
    // By index: `for entry in` and `for item in` copied every entry and play (each of their
    // strings retained) to read them once.
    for p in answer.periods.indices {
      guard let number = answer.periods[p].periodNumber.int else { continue }
      let label = answer.periods[p].periodDisplay
      for e in answer.periods[p].playbyplayStats.indices {
        let team = answer.periods[p].playbyplayStats[e].teamId?.text
        let side: Side? = team == homeId ? .home : team == awayId ? .away : nil
        let entryClock = answer.periods[p].playbyplayStats[e].clock
        guard let items = answer.periods[p].playbyplayStats[e].plays else { continue }
        for i in items.indices {
          var text = items[i].playText ?? ""
          var clock = items[i].clock ?? entryClock
          if openingClocks, let opening = PlayRow.openingClock(text) {
            clock = clock ?? opening.clock
            text = opening.rest
          }
          rows.append(
            PlayRow(
              period: number, periodLabel: label, clock: clock, side: side, text: text,
              away: items[i].visitorScore, home: items[i].homeScore, listed: true))
        }
      }
    }
    return rows
  }

  /// The game of an answer with no score of its own: the running score after the last scoring
  /// play (a goal, or a score of points or runs), each period's scoring plays making its line.
  static func game(
    _ answer: GraphQLPlayByPlay, sport: Sport, gameId: String, away: GraphQLPlayByPlay.Team,
    home: GraphQLPlayByPlay.Team, plays: [Play]
  ) -> Batch {
    let periods = answer.periods.compactMap(\.periodNumber.int).max() ?? 0
    var lines: [Side: [Int]] = [.away: Array(repeating: 0, count: periods), .home: Array(repeating: 0, count: periods)]
    var previous = (away: 0, home: 0)
    // By index: a `for play in plays` copies every play (each of its strings retained) to read
    // the goals' three numbers.
    for index in plays.indices where plays[index].type == .goal || plays[index].type == .score {
      guard let period = plays[index].period, period >= 1, period <= periods, let a = plays[index].awayScore,
        let h = plays[index].homeScore
      else { continue }
      lines[.away]![period - 1] += a - previous.away
      lines[.home]![period - 1] += h - previous.home
      previous = (a, h)
    }
    let status = NCAAGraphQLGame.status(answer.status)
    let current = answer.period?.int ?? (periods > 0 ? periods : nil)
    let label: String? =
      status == .final
      ? "Final" : current.flatMap { number in answer.periods.first { $0.periodNumber.int == number }?.periodDisplay }
    let game = Game(
      id: gameId, sport: sport, status: status, period: status == .scheduled ? nil : current, periodLabel: label,
      clock: status == .live ? NCAAGraphQLGame.clock(minutes: answer.minutes, seconds: answer.seconds) : nil,
      away: NCAAGraphQLGame.line(
        away, score: previous.away, periods: lines[.away]!, status: status, other: previous.home),
      home: NCAAGraphQLGame.line(
        home, score: previous.home, periods: lines[.home]!, status: status, other: previous.away))
    return Batch(
      games: [game], teams: [away, home].map { NCAAGraphQLGame.team($0, sport: sport) }, plays: plays)
  }
}

extension GraphQLPlayByPlayNormalizer {
  /// A play-by-play of a sport read by its running score (football, soccer, field hockey, ice
  /// hockey, baseball, softball: `NCAASports.byRunningScore`), in the generic shape lacrosse's
  /// answer has (`playbyplayStats[].plays[]`, each play's `homeScore` / `visitorScore`): a play
  /// whose printed score rises is that side's score (`ScoredPlayRows`), its kind and scorer where
  /// the words say. (The football query, `NCAA_GetGamecenterPbpFootballById_web`, answers in this
  /// shape with a `driveText` per play, as a public script that reads it shows; no answer of it
  /// or of the other sports is saved here.)
  static func byRunningScore(
    _ answer: GraphQLPlayByPlay, sport: Sport, gameId: String, away: GraphQLPlayByPlay.Team,
    home: GraphQLPlayByPlay.Team
  ) -> Batch {
    // Football's texts open with their clock, as the site's pages print them.
    let rows = Self.rows(answer, away: away, home: home, openingClocks: true)
    return game(
      answer, sport: sport, gameId: gameId, away: away, home: home,
      plays: ScoredPlayRows.plays(rows, gameId: gameId, sport: sport))
  }

  /// "(2-3)" → (visitor 2, home 3); nil for anything else.
  static func flatScore(_ text: String) -> (away: Int, home: Int)? {
    if let plain = plainFlatScore(text) { return plain }
    let inner = text.utf8.first == UInt8(ascii: "(") && text.utf8.last == UInt8(ascii: ")")
    return inner ? PlayRow.score(String(text.dropFirst().dropLast())) : nil
  }

  /// `flatScore` of the answer's own form, "(12-9)" (digits, one dash, no spaces), read on its
  /// bytes: splitting it made four strings an entry. Anything else is nil, and read the long way.
  static func plainFlatScore(_ text: String) -> (away: Int, home: Int)? {
    var text = text
    return text.withUTF8 { bytes -> (away: Int, home: Int)? in
      guard bytes.count >= 5, bytes.count <= 21, bytes[0] == UInt8(ascii: "("),
        bytes[bytes.count - 1] == UInt8(ascii: ")")
      else { return nil }
      var numbers = (0, 0)
      var digits = (0, 0)
      var second = false
      for byte in bytes[1..<(bytes.count - 1)] {
        if byte == UInt8(ascii: "-") {
          guard !second else { return nil }
          second = true
        } else if byte &- UInt8(ascii: "0") < 10 {
          // Nine digits a side at most (no overflow); a longer number is read the long way.
          let digit = Int(byte &- UInt8(ascii: "0"))
          if second {
            guard digits.1 < 9 else { return nil }
            numbers.1 = numbers.1 * 10 + digit
            digits.1 += 1
          } else {
            guard digits.0 < 9 else { return nil }
            numbers.0 = numbers.0 * 10 + digit
            digits.0 += 1
          }
        } else {
          return nil
        }
      }
      guard second, digits.0 > 0, digits.1 > 0 else { return nil }
      return numbers
    }
  }

  /// A basketball play-by-play (`MBB PLAY-BY-PLAY`, flat entries): each entry a play, read by
  /// `BasketballPlayRows` ("Ryan Rapp makes three point jump shot"). The score is the running
  /// score of the last score play only when the plays reach the game's last period: a trimmed
  /// answer (plays of the first minutes of a final) gives no score rather than a wrong one, and
  /// says so.
  static func basketball(
    _ answer: GraphQLPlayByPlay, sport: Sport, gameId: String, away: GraphQLPlayByPlay.Team,
    home: GraphQLPlayByPlay.Team
  ) throws -> Batch {
    var rows: [PlayRow] = []
    rows.reserveCapacity(answer.periods.reduce(0) { $0 + $1.playbyplayStats.count })
    // Entries whose flat score disagrees with their two numbers (the numbers are kept).
    var disagreeing = 0
    var reached: Int?
    for p in answer.periods.indices {
      guard let number = answer.periods[p].periodNumber.int else { continue }
      let label = answer.periods[p].periodDisplay
      // Each entry's fields read where they lie: the entry itself, taken out of its list (even
      // lent to a function from the list's buffer), was copied, each of its strings retained and
      // released, to read it once.
      let entries = answer.periods[p].playbyplayStats
      for e in entries.indices {
        var row = PlayRow(
          period: number, periodLabel: label, clock: entries[e].clock, awayText: entries[e].visitorText ?? "",
          homeText: entries[e].homeText ?? "")
        if row.text.isEmpty { row.text = entries[e].eventDescription ?? "" }
        row.away = entries[e].visitorScore
        row.home = entries[e].homeScore
        // The flat "(visitor-home)" score where the numbers are missing.
        if let printed = entries[e].score.flatMap(Self.flatScore) {
          if row.away == nil && row.home == nil {
            (row.away, row.home) = (printed.away, printed.home)
          } else if row.away != printed.away || row.home != printed.home {
            disagreeing += 1
          }
        }
        row.listed = true
        rows.append(row)
        reached = max(reached ?? number, number)
      }
    }
    let lastPeriod = answer.period?.int ?? reached
    // The rows handed over (not read again): their texts move into the plays.
    let plays = BasketballPlayRows.plays(consume rows, gameId: gameId)
    let status = NCAAGraphQLGame.status(answer.status)
    // The last score play, read in place (not copied out).
    let last = plays.lastIndex { $0.type == .score }
    var warnings: [String] = []
    if disagreeing > 0 {
      warnings.append(
        (disagreeing == 1 ? "1 entry prints" : "\(disagreeing) entries print")
          + " a score \"(visitor-home)\" other than its visitorScore and homeScore: the numbers are kept")
    }
    var score: (away: Int, home: Int)?
    if let last, let a = plays[last].awayScore, let h = plays[last].homeScore {
      if status == .final && reached != lastPeriod {
        warnings.append(
          "the plays end in period \(reached ?? 0) of a final that reached period \(lastPeriod ?? 0): "
            + "the score is not derived from them (the answer is trimmed)")
      } else {
        score = (a, h)
      }
    }
    func line(_ team: GraphQLPlayByPlay.Team, _ value: Int?, other: Int?) -> TeamLine {
      var line = NCAAGraphQLGame.line(team, score: value ?? 0, periods: [], status: status, other: other ?? 0)
      line.score = value
      if value == nil { line.winner = nil }
      return line
    }
    let game = Game(
      id: gameId, sport: sport, status: status, period: status == .scheduled ? nil : lastPeriod,
      periodLabel: status == .final
        ? "Final" : answer.periods.first { $0.periodNumber.int == lastPeriod }?.periodDisplay,
      clock: status == .live ? NCAAGraphQLGame.clock(minutes: answer.minutes, seconds: answer.seconds) : nil,
      away: line(away, score?.away, other: score?.home), home: line(home, score?.home, other: score?.away))
    return Batch(
      games: [game], teams: [away, home].map { NCAAGraphQLGame.team($0, sport: sport) }, plays: plays,
      warnings: warnings)
  }
}

/// What the GraphQL answers share: status words, sports, team lines.
enum NCAAGraphQLGame {
  /// `final`/`F`, `live`/`I`/`in progress`, `pre`/`P`; anything else is unknown, never scheduled.
  static func status(_ text: String?) -> GameStatus {
    switch text?.lowercased() {
    case "final", "f": .final
    case "live", "i", "in progress", "inprogress": .live
    case "pre", "p", "scheduled": .scheduled
    case "postponed": .postponed
    case "cancelled", "canceled": .cancelled
    case "suspended": .suspended
    default: .unknown
    }
  }

  /// "MLA PLAY-BY-PLAY" → men's lacrosse; the `sportCode` variable of the query otherwise, or
  /// football when the query is football's. Lacrosse, and the sports read by their running score
  /// but volleyball (whose answer is not known: its running score is a set's), are read.
  static func sport(title: String?, page: Page) throws -> Sport {
    let code =
      title?.split(separator: " ").first.map(String.init)
      ?? page.url.flatMap(sportCode(of:))
      ?? (page.url.map { $0.contains(PersistedQuery.playByPlayFootball) } == true ? "MFB" : nil)
    if let sport = NCAASports.sport(code: code),
      NCAASports.isLacrosse(sport) || (NCAASports.byRunningScore.contains(sport) && sport.profile?.scoring != .sets)
    {
      return sport
    }
    throw StatlineError(
      .unsupported, "the answer is for sport '\(code ?? "unknown")', which the play-by-play reader does not read",
      hint: "the NCAA plugin reads lacrosse (MLA, WLA), basketball (MBB, WBB), football (MFB), soccer (MSO, WSO), "
        + "field hockey (WFH), ice hockey (MIH, WIH), baseball (MBA) and softball (WSB) play-by-play")
  }

  /// `MBB …` / `WBB …` → men's or women's basketball, read by the play-by-play only.
  static func basketball(title: String?) -> Sport? {
    // The title's first word by its bytes: splitting and upper-casing it was 4 % of a small page.
    guard let utf8 = title?.utf8 else { return nil }
    let word = utf8.drop { $0 == UInt8(ascii: " ") }.prefix { $0 != UInt8(ascii: " ") }
    guard word.count == 3 else { return nil }
    let upper = word.map { $0 &- UInt8(ascii: "a") < 26 ? $0 - 0x20 : $0 }
    if upper.elementsEqual("MBB".utf8) { return .basketballMen }
    if upper.elementsEqual("WBB".utf8) { return .basketballWomen }
    return nil
  }

  /// The query's `sportCode` variable (a string): read off the URL's bytes where the variables
  /// print it plainly (`PersistedQuery.plainVariable`), else with the URL's parameters and the
  /// JSON tape. (Parsing both was an eighth of reading a scoreboard.)
  static func sportCode(of url: String) -> String? {
    PersistedQuery.plainVariable("sportCode", in: url) ?? parsedSportCode(of: url)
  }

  /// `sportCode` read the long way: what the plain reading must agree with.
  static func parsedSportCode(of url: String) -> String? {
    guard let json = PersistedQuery.parameters(of: url)["variables"],
      let variables = try? JSONDocument(bytes: Array(json.utf8)).root
    else { return nil }
    return variables["sportCode"]?.string
  }

  static func clock(minutes: String?, seconds: String?) -> String? {
    guard let minutes = GameText.int(minutes), let seconds = GameText.int(seconds) else { return nil }
    return GameText.clock("\(minutes):\(FastText.twoDigits(seconds))")
  }

  static func line(
    _ team: GraphQLPlayByPlay.Team, score: Int, periods: [Int], status: GameStatus, other: Int
  ) -> TeamLine {
    TeamLine(
      team: TeamRef(
        id: teamId(team.seoname, team.teamId.text), name: team.nameShort ?? team.nameFull ?? "",
        abbreviation: team.name6Char),
      score: status == .scheduled ? nil : score, periodScores: status == .scheduled ? [] : periods,
      winner: status == .final ? score > other : nil)
  }

  static func team(_ team: GraphQLPlayByPlay.Team, sport: Sport) -> Team {
    Team(
      id: teamId(team.seoname, team.teamId.text), name: team.nameFull ?? team.nameShort ?? "",
      abbreviation: team.name6Char, sport: sport)
  }

  /// ncaa.com teams by slug (`cornell`), which casablanca and GraphQL both give.
  static func teamId(_ seo: String?, _ number: String?) -> String {
    NCAAIds.comTeam(seo.flatMap { $0.isEmpty ? nil : $0 } ?? number ?? "unknown")
  }
}
