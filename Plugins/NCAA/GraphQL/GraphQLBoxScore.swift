import Foundation
import StatlineCore

/// `data.boxscore` of ncaa.com's box-score queries (`NCAA_GetGamecenterBoxscoreLacrosseById_web`,
/// STRUCTURE.md §5b; basketball's and soccer's in the same shape). Numbers may come as numbers
/// or strings; `teamId` is an int in `teamBoxscore` and a string in `teams`. A line's stats are
/// kept by their member names (`GraphQLBoxMembers` reads them per sport), so a member no reader
/// knows is named in a warning, not lost without a word.
struct GraphQLBoxScore: Sendable {
  struct Team: Sendable {
    var teamId: Flexible
    var isHome: Bool
    var seoname: String?
    var nameShort: String?
    var name6Char: String?
  }

  /// A player's or a team's line: who, and every other member that holds a number or a text,
  /// by name (a nested object's as `penalties.count`, `goalie.saves`).
  struct Line: Sendable {
    var firstName: String?
    var lastName: String?
    var number: Flexible?
    var position: String?
    var starter: Bool?
    var participated: Bool?
    var values: [String: String] = [:]
  }

  struct TeamBoxscore: Sendable {
    var teamId: Flexible
    var playerStats: [Line]
    var teamStats: Line?
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
/// who did not take part listed without stats) and the teams. The answer has no game score. The
/// sport is the answer's `sportCode`, else the query's variables', else the target's; a
/// lacrosse answer that names none is women's when its players have draw controls.
struct GraphQLBoxScoreNormalizer: Normalizer {
  func normalize(_ answer: GraphQLBoxScore, page: Page) throws -> Batch {
    let sport = try Self.sport(answer, page: page)
    guard let home = answer.teams.first(where: \.isHome), let away = answer.teams.first(where: { !$0.isHome }) else {
      throw StatlineError(
        .wrongPage, "the box score names \(answer.teams.count) teams without one home and one visitor")
    }
    var unread: Set<String> = []
    func box(_ team: GraphQLBoxScore.Team) throws -> TeamBox {
      guard let entry = answer.teamBoxscore.first(where: { $0.teamId.text == team.teamId.text }) else {
        throw StatlineError(
          .wrongPage, "the box score has no teamBoxscore for team \(team.teamId.text) (\(team.nameShort ?? "?"))")
      }
      return TeamBox(
        totals: (entry.teamStats.map { GraphQLBoxMembers.stats($0, sport: sport, unread: &unread) } ?? [:]).filter {
          $0.key != StatKey.secondsPlayed
        },
        players: entry.playerStats.map { player in
          let name = [player.firstName, player.lastName].compactMap { $0.map(Self.capitalised) }.joined(separator: " ")
          let played = player.participated ?? true
          return PlayerLine(
            name: name, number: player.number?.text, position: player.position?.uppercased(), starter: player.starter,
            stats: played ? GraphQLBoxMembers.stats(player, sport: sport, unread: &unread) : [:])
        })
    }
    let gameId = NCAAIds.comContest(answer.contestId.text)
    let teams = [away, home].map { team in
      Team(
        id: NCAAGraphQLGame.teamId(team.seoname, team.teamId.text), name: team.nameShort ?? "",
        abbreviation: team.name6Char, sport: sport)
    }
    let boxScore = BoxScore(gameId: gameId, away: try box(away), home: try box(home))
    // Numbers, and not one of them a stat of the sport: the answer's names changed. An empty
    // box score would replace the last good one without a word.
    let lines = [boxScore.away, boxScore.home].flatMap { [$0.totals] + $0.players.map(\.stats) }
    if !unread.isEmpty, lines.allSatisfy(\.isEmpty) {
      throw StatlineError(
        .wrongPage,
        "none of the box score's members is a \(sport.rawValue) stat: \(unread.sorted().prefix(12).joined(separator: ", "))",
        hint: "ncaa.com may have renamed the members: GraphQLBoxMembers names what each sport's lines are read by")
    }
    return Batch(
      teams: teams, boxScores: [boxScore],
      warnings: unread.isEmpty
        ? []
        : ["members not read (no \(sport.rawValue) stat key): \(unread.sorted().joined(separator: ", "))"])
  }

  /// The answer's sport: its `sportCode`, the query's, or the target's; a lacrosse query that
  /// names none is men's, or women's where players have draw controls. Anything else is
  /// refused, naming what is read: a sport is never guessed from the members.
  static func sport(_ answer: GraphQLBoxScore, page: Page) throws -> Sport {
    let code = answer.sportCode ?? page.url.flatMap(NCAAGraphQLGame.sportCode(of:))
    let named = NCAASports.sport(code: code) ?? page.sport
    let query = page.url.flatMap { url in PersistedQuery.boxScores.first { url.contains($0) } }
    let sport: Sport? =
      named
      ?? (query == PersistedQuery.boxScore || query == nil
        ? (answer.teamBoxscore.contains { $0.playerStats.contains { $0.values["drawControls"] != nil } }
          ? .lacrosseWomen : .lacrosseMen)
        : nil)
    guard let sport, PersistedQuery.boxScore(for: sport) != nil else {
      throw StatlineError(
        .unsupported,
        sport == nil
          ? "the box score names no sport (no sportCode), and \(query ?? "its query") is both men's and women's"
          : "the box score is for sport '\(code ?? sport?.rawValue ?? "?")', which the box-score reader does not read",
        hint: "the NCAA plugin reads ncaa.com box scores of lacrosse, basketball and soccer; "
          + "set `sport:` on the target (or `statline replay --sport`) when the answer names none")
    }
    return sport
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
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    contestId = try json.required("contestId")
    sportCode = try json.optional("sportCode")
    teams = try json.required("teams")
    teamBoxscore = try json.required("teamBoxscore")
  }
}

extension GraphQLBoxScore.Team: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    teamId = try json.required("teamId")
    isHome = try json.required("isHome")
    seoname = try json.optional("seoname")
    nameShort = try json.optional("nameShort")
    name6Char = try json.optional("name6Char")
  }
}

extension GraphQLBoxScore.Line: JSONReadable {
  /// Who, by the members every sport's lines share; every other member that holds a number or a
  /// text by its name, a nested object's one level down (`penalties.count`). Booleans other than
  /// `starter` and `participated`, lists and nulls hold no stat.
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    firstName = try json.optional("firstName")
    lastName = try json.optional("lastName")
    number = try json.optional("number")
    position = try json.optional("position")
    starter = try json.optional("starter")
    participated = try json.optional("participated")
    func keep(_ name: String, _ node: JSONNode) throws(JSONShapeError) {
      guard values[name] == nil else { return }
      switch node.kind {
      case .number, .string: values[name] = try JSONScalar(json: node).text
      case .object:
        for (key, member) in node.members where key != "__typename" && member.kind != .object {
          try keep("\(name).\(key)", member)
        }
      case .bool, .null, .array: break
      }
    }
    for (key, member) in json.members where !GraphQLBoxScore.Line.named.contains(key) {
      try keep(key, member)
    }
  }

  /// The members read as the line's who, and the type name.
  static let named: Set<String> = [
    "__typename", "firstName", "lastName", "number", "position", "starter", "participated",
  ]
}

extension GraphQLBoxScore.TeamBoxscore: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    teamId = try json.required("teamId")
    playerStats = try json.required("playerStats")
    teamStats = try json.optional("teamStats")
  }
}
