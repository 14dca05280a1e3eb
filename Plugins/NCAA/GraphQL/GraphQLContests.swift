import Foundation
import StatlineCore

/// One contest as `GetContests_web` (`data.contests[]`) and `GetGamecenterGameById_web`
/// (`data.contests[0]`) give it (STRUCTURE.md §5b). Fields beyond the documented ones
/// (`linescores`, `location`) are read when present.
struct GraphQLContest: Sendable {
  struct Team: Sendable {
    var isHome: Bool
    var isWinner: Bool?
    var score: Flexible?
    var teamId: Flexible?
    var seoname: String?
    var nameShort: String?
    var name6Char: String?
    var teamRank: Flexible?
  }

  struct Linescore: Sendable {
    var period: String
    var home: Flexible?
    var visit: Flexible?
  }

  struct Location: Sendable {
    var venue: String?
    var city: String?
    var stateUsps: String?
  }

  var contestId: Flexible
  var sportCode: String?
  /// ncaa.com's sport slug (`basketball-men`), which the scoreboard gives when the query's
  /// variables are not recorded.
  var sportUrl: String?
  var teams: [Team]
  var startDate: String?
  var startTimeEpoch: Flexible?
  var gameState: String?
  var currentPeriod: String?
  var contestClock: String?
  var clock: String?
  var finalMessage: String?
  var url: String?
  var linescores: [Linescore]?
  var location: Location?
}

struct GraphQLContestsParser: PageParser {
  func parse(_ page: Page) throws -> [GraphQLContest] {
    try GraphQLAnswer.decode([GraphQLContest].self, field: "contests", from: page)
  }
}

/// Contests → games. `gameState` `P` is scheduled (postponed or cancelled when the final
/// message says so), `I` live, `F` final; any other state is unknown, never scheduled.
struct GraphQLContestsNormalizer: Normalizer {
  func normalize(_ contests: [GraphQLContest], page: Page) throws -> Batch {
    let queried = page.url.flatMap(NCAAGraphQLGame.sportCode(of:))
    var games: [Game] = []
    var teams: [Team] = []
    var seen = RepeatedIds()
    var warnings: [String] = []
    // By index: `for contest in` copied every contest (each of its strings retained).
    for index in contests.indices {
      let contest = contests[index]
      let code = contest.sportCode ?? queried
      guard let sport = NCAASports.sport(code: code) ?? NCAASports.sport(slug: contest.sportUrl) else {
        warnings.append(
          "contest \(contest.contestId.text) is of sport '\(code ?? contest.sportUrl ?? "unknown")', which Statline does not know: skipped"
        )
        continue
      }
      guard let home = contest.teams.first(where: \.isHome), let away = contest.teams.first(where: { !$0.isHome })
      else {
        warnings.append("contest \(contest.contestId.text) lists no home and visiting team: skipped")
        continue
      }
      games.append(try Self.game(contest, sport: sport, away: away, home: home))
      func addTeam(_ team: GraphQLContest.Team) {
        let id = NCAAGraphQLGame.teamId(team.seoname, team.teamId?.text)
        if !seen.contains(id, among: teams, \.id) {
          teams.append(Team(id: id, name: team.nameShort ?? "", abbreviation: team.name6Char, sport: sport))
        }
      }
      addTeam(away)
      addTeam(home)
    }
    if games.isEmpty && !contests.isEmpty {
      throw StatlineError(
        .unsupported, "none of the \(contests.count) contests is of a sport Statline knows",
        hint:
          "query the scoreboard with one of the sport codes \(NCAASports.byCode.keys.sorted().joined(separator: ", "))")
    }
    return Batch(games: games, teams: teams, warnings: warnings)
  }

  static func status(_ contest: GraphQLContest) -> GameStatus {
    let message = (contest.finalMessage ?? "").lowercased()
    if message.hasPrefix("ppd") || FastText.contains(message, "postponed") { return .postponed }
    if message.hasPrefix("canc") { return .cancelled }
    if FastText.contains(message, "suspended") { return .suspended }
    return NCAAGraphQLGame.status(contest.gameState)
  }

  static func game(_ contest: GraphQLContest, sport: Sport, away: GraphQLContest.Team, home: GraphQLContest.Team)
    throws -> Game
  {
    let status = status(contest)
    let started = status == .live || status == .final || status == .suspended
    var lines = (away: [Int](), home: [Int]())
    for line in contest.linescores ?? [] where Int(line.period) != nil || line.period.uppercased().hasSuffix("OT") {
      guard let a = line.visit?.int, let h = line.home?.int else { break }
      lines.away.append(a)
      lines.home.append(h)
    }
    let regulation = sport.profile?.regulationPeriods ?? 4
    let period = started ? period(contest.currentPeriod, linescores: lines.away.count, regulation: regulation) : nil
    func line(_ team: GraphQLContest.Team, periods: [Int]) -> TeamLine {
      TeamLine(
        team: TeamRef(
          id: NCAAGraphQLGame.teamId(team.seoname, team.teamId?.text), name: team.nameShort ?? "",
          abbreviation: team.name6Char),
        score: started ? team.score?.int : nil, periodScores: periods,
        rank: team.teamRank?.int.flatMap { $0 > 0 ? $0 : nil },
        winner: status == .final ? (team.isWinner ?? false) : nil)
    }
    let venue = contest.location.map { location in
      [location.venue, [location.city, location.stateUsps].compactMap { $0 }.joined(separator: ", ")]
        .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    }
    return Game(
      id: NCAAIds.comContest(contest.contestId.text), sport: sport, status: status, period: period,
      periodLabel: status == .final ? "Final" : started ? contest.currentPeriod : nil,
      clock: status == .live ? GameText.clock(contest.contestClock ?? contest.clock) : nil,
      date: NCAADate.iso(contest.startDate), startTime: NCAADate.iso(epoch: contest.startTimeEpoch?.text),
      venue: venue.flatMap { $0.isEmpty ? nil : $0 }, away: line(away, periods: lines.away),
      home: line(home, periods: lines.home))
  }

  /// The period `currentPeriod` names, in a sport of `regulation` periods: "1st" … "4th" → 1 …
  /// 4, "Top 5th" → 5, "Set 3" → 3; "OT" → the first period past regulation, "2OT" → the
  /// second ("FINAL - OT" too); "HALF"/"Halftime" → the period that ends the first half; "FINAL"
  /// → the linescore's periods, or regulation's when the contest has no linescore.
  static func period(_ text: String?, linescores: Int, regulation: Int) -> Int? {
    let upper = FastText.upperTrimmed(text ?? "")
    if upper.hasSuffix("OT") {
      let count = upper.dropLast(2).reversed().prefix { $0.isNumber }.reversed()
      return regulation + (Int(String(count)) ?? 1)
    }
    if upper.hasPrefix("HALF") { return max(1, regulation / 2) }
    let digits = upper.drop { !$0.isNumber }.prefix { $0.isNumber }
    if let number = Int(digits), number > 0 { return number }
    if linescores > 0 { return linescores }
    return upper.hasPrefix("FINAL") ? regulation : nil
  }
}

// MARK: - Reading the answer

extension GraphQLContest: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    // Read into locals, then made whole (as `GraphQLPlayByPlay.Entry`: no contest copied out).
    let contestId: Flexible = try json.required("contestId")
    let sportCode: String? = try json.optional("sportCode")
    let sportUrl: String? = try json.optional("sportUrl")
    let teams: [Team] = try json.required("teams")
    let startDate: String? = try json.optional("startDate")
    let startTimeEpoch: Flexible? = try json.optional("startTimeEpoch")
    let gameState: String? = try json.optional("gameState")
    let currentPeriod: String? = try json.optional("currentPeriod")
    let contestClock: String? = try json.optional("contestClock")
    let clock: String? = try json.optional("clock")
    let finalMessage: String? = try json.optional("finalMessage")
    let url: String? = try json.optional("url")
    let linescores: [Linescore]? = try json.optional("linescores")
    let location: Location? = try json.optional("location")
    self.init(
      contestId: contestId, sportCode: sportCode, sportUrl: sportUrl, teams: teams, startDate: startDate,
      startTimeEpoch: startTimeEpoch, gameState: gameState, currentPeriod: currentPeriod, contestClock: contestClock,
      clock: clock, finalMessage: finalMessage, url: url, linescores: linescores, location: location)
  }
}

extension GraphQLContest.Team: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    let isHome: Bool = try json.required("isHome")
    let isWinner: Bool? = try json.optional("isWinner")
    let score: Flexible? = try json.optional("score")
    let teamId: Flexible? = try json.optional("teamId")
    let seoname: String? = try json.optional("seoname")
    let nameShort: String? = try json.optional("nameShort")
    let name6Char: String? = try json.optional("name6Char")
    let teamRank: Flexible? = try json.optional("teamRank")
    self.init(
      isHome: isHome, isWinner: isWinner, score: score, teamId: teamId, seoname: seoname, nameShort: nameShort,
      name6Char: name6Char, teamRank: teamRank)
  }
}

extension GraphQLContest.Linescore: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    period = try json.required("period")
    home = try json.optional("home")
    visit = try json.optional("visit")
  }
}

extension GraphQLContest.Location: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    venue = try json.optional("venue")
    city = try json.optional("city")
    stateUsps = try json.optional("stateUsps")
  }
}
