import Foundation
import StatlineCore

/// data.ncaa.com's casablanca scoreboard (STRUCTURE.md §3a): scores and epochs are strings,
/// and `gameID` is not the contest id — the number in `url` is.
struct CasablancaScoreboard: Sendable {
  struct Entry: Sendable { var game: Game }

  struct Game: Sendable {
    var gameID: String?
    var away: Side
    var home: Side
    var gameState: String?
    var currentPeriod: String?
    var contestClock: String?
    var startDate: String?
    var startTimeEpoch: String?
    var url: String?
  }

  struct Side: Sendable {
    struct Names: Sendable {
      var char6: String?
      var short: String?
      var seo: String?
      var full: String?
    }

    struct Conference: Sendable { var conferenceName: String? }

    var score: String?
    var names: Names
    var winner: Bool?
    var description: String?
    var rank: String?
    var conferences: [Conference]?
  }

  var games: [Entry]
}

struct CasablancaScoreboardParser: PageParser {
  func parse(_ page: Page) throws -> CasablancaScoreboard {
    let root = try JSONPage.read(page)
    do {
      return try CasablancaScoreboard(json: root)
    } catch {
      throw StatlineError(
        .wrongPage, "the answer is not a casablanca scoreboard: \(error)", location: page.location,
        hint: "casablanca answers NoSuchKey for dates after 2025-08-29; use the GraphQL scoreboard for those")
    }
  }
}

/// `pre` → scheduled, `live` → live, `final` → final, anything else → unknown (never scheduled).
struct CasablancaScoreboardNormalizer: Normalizer {
  func normalize(_ board: CasablancaScoreboard, page: Page) throws -> Batch {
    let sport = Self.sport(page.url)
    var games: [Game] = []
    var teams: [Team] = []
    var seen = RepeatedIds()
    var warnings: [String] = []
    // A board's games share a date or a few: each one read once per page (the last one asked is
    // compared first, before any table is hashed).
    var dates: [String: String?] = [:]
    var lastDate: (text: String, read: String?)?
    func date(_ text: String?) -> String? {
      guard let text else { return nil }
      if let lastDate, lastDate.text == text { return lastDate.read }
      if let known = dates[text] { return known }
      let read = NCAADate.iso(text)
      dates[text] = read
      lastDate = (text, read)
      return read
    }
    // By index: `for entry in` copied every game of the board (each of its strings retained).
    for index in board.games.indices {
      let game = board.games[index].game
      guard let contest = NCAAIds.number(after: "/game/", in: game.url) else {
        warnings.append("game \(game.gameID ?? "?") has no /game/{id} url: skipped")
        continue
      }
      let status: GameStatus =
        switch game.gameState?.lowercased() {
        case "pre": .scheduled
        case "live": .live
        case "final": .final
        default: .unknown
        }
      let started = status == .live || status == .final
      func line(_ side: CasablancaScoreboard.Side) -> TeamLine {
        let record = side.description.map { FastText.trimmed($0, of: "() ") }
        return TeamLine(
          team: TeamRef(
            id: side.names.seo.map(NCAAIds.comTeam), name: side.names.short ?? side.names.full ?? "",
            abbreviation: side.names.char6),
          score: started ? GameText.int(side.score) : nil, record: record.flatMap { $0.isEmpty ? nil : $0 },
          rank: GameText.int(side.rank), winner: status == .final ? side.winner : nil)
      }
      let label = game.currentPeriod.flatMap { $0.isEmpty ? nil : $0 }
      games.append(
        Game(
          id: NCAAIds.comContest(contest), sport: sport, status: status,
          period: status == .live
            ? GraphQLContestsNormalizer.period(
              label, linescores: 0, regulation: sport.profile?.regulationPeriods ?? 4) : nil,
          periodLabel: started ? (status == .final ? "Final" : label) : nil,
          clock: status == .live ? GameText.clock(game.contestClock) : nil, date: date(game.startDate),
          startTime: NCAADate.iso(epoch: game.startTimeEpoch), away: line(game.away), home: line(game.home)))
      func addTeam(_ side: CasablancaScoreboard.Side) {
        guard let seo = side.names.seo else { return }
        let id = NCAAIds.comTeam(seo)
        guard !seen.contains(id, among: teams, \.id) else { return }
        teams.append(
          Team(
            id: id, name: side.names.full ?? side.names.short ?? seo, abbreviation: side.names.char6,
            conference: side.conferences?.first?.conferenceName, sport: sport))
      }
      addTeam(game.away)
      addTeam(game.home)
    }
    guard !games.isEmpty else {
      throw StatlineError(
        .wrongPage, "the scoreboard lists no games",
        hint: "an empty day is answered with NoSuchKey, not an empty list; check the date in the URL")
    }
    return Batch(games: games, teams: teams, warnings: warnings)
  }

  /// The sport slug of `…/casablanca/scoreboard/{sport}/{division}/…` (`lacrosse-men`).
  static func sport(_ url: String?) -> Sport {
    guard let url, let range = url.range(of: "/scoreboard/") else { return .unknown }
    let slug = url[range.upperBound...].prefix { $0 != "/" }
    return slug.isEmpty ? .unknown : Sport(String(slug))
  }
}

// MARK: - Reading the answer

extension CasablancaScoreboard: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    games = try json.required("games")
  }
}

extension CasablancaScoreboard.Entry: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    game = try json.required("game")
  }
}

extension CasablancaScoreboard.Game: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    // Read into locals, then made whole: fields assigned one by one between throwing reads
    // had the compiler build the value aside and copy it out (as `GraphQLPlayByPlay.Entry`).
    let gameID: String? = try json.optional("gameID")
    let away: CasablancaScoreboard.Side = try json.required("away")
    let home: CasablancaScoreboard.Side = try json.required("home")
    let gameState: String? = try json.optional("gameState")
    let currentPeriod: String? = try json.optional("currentPeriod")
    let contestClock: String? = try json.optional("contestClock")
    let startDate: String? = try json.optional("startDate")
    let startTimeEpoch: String? = try json.optional("startTimeEpoch")
    let url: String? = try json.optional("url")
    self.init(
      gameID: gameID, away: away, home: home, gameState: gameState, currentPeriod: currentPeriod,
      contestClock: contestClock, startDate: startDate, startTimeEpoch: startTimeEpoch, url: url)
  }
}

extension CasablancaScoreboard.Side: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    let score: String? = try json.optional("score")
    let names: Names = try json.required("names")
    let winner: Bool? = try json.optional("winner")
    let description: String? = try json.optional("description")
    let rank: String? = try json.optional("rank")
    let conferences: [Conference]? = try json.optional("conferences")
    self.init(
      score: score, names: names, winner: winner, description: description, rank: rank, conferences: conferences)
  }
}

extension CasablancaScoreboard.Side.Names: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    let char6: String? = try json.optional("char6")
    let short: String? = try json.optional("short")
    let seo: String? = try json.optional("seo")
    let full: String? = try json.optional("full")
    self.init(char6: char6, short: short, seo: seo, full: full)
  }
}

extension CasablancaScoreboard.Side.Conference: JSONReadable {
  init(json: borrowing JSONNode) throws(JSONShapeError) {
    conferenceName = try json.optional("conferenceName")
  }
}
