import Foundation
import StatlineCore

/// `data.boxscore` of `NCAA_GetGamecenterBoxscoreLacrosseById_web` (STRUCTURE.md §5b). Numbers
/// may come as numbers or strings; `teamId` is an int in `teamBoxscore` and a string in `teams`.
struct GraphQLBoxScore: Sendable {
  struct Team: Sendable {
    var teamId: Flexible
    var isHome: Bool
    var seoname: String?
    var nameShort: String?
    var name6Char: String?
  }

  struct Penalties: Sendable {
    var count: Flexible?
    var minutes: Flexible?
  }

  struct Goalie: Sendable {
    var minutesPlayed: Flexible?
    var saves: Flexible?
    var goalsAllowed: Flexible?
  }

  struct Stats: Sendable {
    var firstName: String?
    var lastName: String?
    var number: Flexible?
    var position: String?
    var starter: Bool?
    var participated: Bool?
    var goals: Flexible?
    var assists: Flexible?
    var shots: Flexible?
    var shotsOnGoal: Flexible?
    var freePositionShots: Flexible?
    var groundBalls: Flexible?
    var drawControls: Flexible?
    var turnovers: Flexible?
    var causedTurnovers: Flexible?
    var penalties: Penalties?
    var goalie: Goalie?
  }

  struct TeamBoxscore: Sendable {
    var teamId: Flexible
    var playerStats: [Stats]
    var teamStats: Stats?
  }

  var contestId: Flexible
  var sportCode: String?
  var teams: [Team]
  var teamBoxscore: [TeamBoxscore]
}

struct GraphQLBoxScoreParser: PageParser {
  func parse(_ page: Page) throws -> GraphQLBoxScore {
    try GraphQLAnswer.decode(GraphQLBoxScore.self, field: "boxscore", from: page)
  }
}

/// The box score → both teams' lines (names "First Last" from the capitalised parts; players
/// who did not take part listed without stats) and the teams. The answer has no game score.
struct GraphQLBoxScoreNormalizer: Normalizer {
  func normalize(_ answer: GraphQLBoxScore, page: Page) throws -> Batch {
    let code = answer.sportCode ?? page.url.flatMap(NCAAGraphQLGame.sportCode(of:))
    let sport =
      NCAASports.sport(code: code)
      ?? (answer.teamBoxscore.contains { $0.playerStats.contains { $0.drawControls != nil } }
        ? .lacrosseWomen : .lacrosseMen)
    guard NCAASports.isLacrosse(sport) else {
      throw StatlineError(.unsupported, "the box score is for sport '\(code ?? "?")', not lacrosse")
    }
    guard let home = answer.teams.first(where: \.isHome), let away = answer.teams.first(where: { !$0.isHome }) else {
      throw StatlineError(
        .wrongPage, "the box score names \(answer.teams.count) teams without one home and one visitor")
    }
    func box(_ team: GraphQLBoxScore.Team) throws -> TeamBox {
      guard let entry = answer.teamBoxscore.first(where: { $0.teamId.text == team.teamId.text }) else {
        throw StatlineError(
          .wrongPage, "the box score has no teamBoxscore for team \(team.teamId.text) (\(team.nameShort ?? "?"))")
      }
      return TeamBox(
        totals: (entry.teamStats.map { Self.stats($0, sport: sport) } ?? [:]).filter {
          $0.key != StatKey.secondsPlayed
        },
        players: entry.playerStats.map { player in
          let name = [player.firstName, player.lastName].compactMap { $0.map(Self.capitalised) }.joined(separator: " ")
          let played = player.participated ?? true
          return PlayerLine(
            name: name, number: player.number?.text, position: player.position?.uppercased(), starter: player.starter,
            stats: played ? Self.stats(player, sport: sport) : [:])
        })
    }
    let gameId = NCAAIds.comContest(answer.contestId.text)
    let teams = [away, home].map { team in
      Team(
        id: NCAAGraphQLGame.teamId(team.seoname, team.teamId.text), name: team.nameShort ?? "",
        abbreviation: team.name6Char, sport: sport)
    }
    return Batch(teams: teams, boxScores: [BoxScore(gameId: gameId, away: try box(away), home: try box(home))])
  }

  static func stats(_ stats: GraphQLBoxScore.Stats, sport: Sport) -> [String: Int] {
    var result: [String: Int] = [:]
    let pairs: [(String, Flexible?)] = [
      (StatKey.goals, stats.goals), (StatKey.assists, stats.assists), (StatKey.shots, stats.shots),
      (StatKey.shotsOnGoal, stats.shotsOnGoal), (StatKey.groundBalls, stats.groundBalls),
      (StatKey.turnovers, stats.turnovers), (StatKey.causedTurnovers, stats.causedTurnovers),
      (StatKey.freePositionShots, stats.freePositionShots), (StatKey.drawControls, stats.drawControls),
      (StatKey.penalties, stats.penalties?.count), (StatKey.saves, stats.goalie?.saves),
      (StatKey.goalsAllowed, stats.goalie?.goalsAllowed),
    ]
    for (key, value) in pairs { if let number = value?.int { result[key] = number } }
    if let goals = result[StatKey.goals], let assists = result[StatKey.assists] {
      result[StatKey.points] = goals + assists
    }
    if let minutes = stats.penalties?.minutes?.text, let seconds = BoxColumns.seconds(minutes) {
      result[StatKey.penaltySeconds] = seconds
    }
    if let played = stats.goalie?.minutesPlayed?.text, let seconds = BoxColumns.seconds(played), seconds > 0 {
      result[StatKey.secondsPlayed] = seconds
    }
    return result
  }

  /// "JOHN" → "John", "MCDONALD" → "Mcdonald"; initials ("AJ", "TJ") and names in mixed case
  /// stay as they are.
  static func capitalised(_ part: String) -> String {
    guard part == part.uppercased() else { return part }
    return part.split(separator: " ").map { word in
      word.count <= 2 ? String(word) : word.prefix(1) + word.dropFirst().lowercased()
    }.joined(separator: " ")
  }
}

// MARK: - Reading the answer

extension GraphQLBoxScore: JSONReadable {
  init(json: JSONNode) throws(JSONShapeError) {
    contestId = try json.required("contestId")
    sportCode = try json.optional("sportCode")
    teams = try json.required("teams")
    teamBoxscore = try json.required("teamBoxscore")
  }
}

extension GraphQLBoxScore.Team: JSONReadable {
  init(json: JSONNode) throws(JSONShapeError) {
    teamId = try json.required("teamId")
    isHome = try json.required("isHome")
    seoname = try json.optional("seoname")
    nameShort = try json.optional("nameShort")
    name6Char = try json.optional("name6Char")
  }
}

extension GraphQLBoxScore.Penalties: JSONReadable {
  init(json: JSONNode) throws(JSONShapeError) {
    count = try json.optional("count")
    minutes = try json.optional("minutes")
  }
}

extension GraphQLBoxScore.Goalie: JSONReadable {
  init(json: JSONNode) throws(JSONShapeError) {
    minutesPlayed = try json.optional("minutesPlayed")
    saves = try json.optional("saves")
    goalsAllowed = try json.optional("goalsAllowed")
  }
}

extension GraphQLBoxScore.Stats: JSONReadable {
  init(json: JSONNode) throws(JSONShapeError) {
    firstName = try json.optional("firstName")
    lastName = try json.optional("lastName")
    number = try json.optional("number")
    position = try json.optional("position")
    starter = try json.optional("starter")
    participated = try json.optional("participated")
    goals = try json.optional("goals")
    assists = try json.optional("assists")
    shots = try json.optional("shots")
    shotsOnGoal = try json.optional("shotsOnGoal")
    freePositionShots = try json.optional("freePositionShots")
    groundBalls = try json.optional("groundBalls")
    drawControls = try json.optional("drawControls")
    turnovers = try json.optional("turnovers")
    causedTurnovers = try json.optional("causedTurnovers")
    penalties = try json.optional("penalties")
    goalie = try json.optional("goalie")
  }
}

extension GraphQLBoxScore.TeamBoxscore: JSONReadable {
  init(json: JSONNode) throws(JSONShapeError) {
    teamId = try json.required("teamId")
    playerStats = try json.required("playerStats")
    teamStats = try json.optional("teamStats")
  }
}
