import Foundation
import StatlineCore

/// A tiny JSON source for scheduler, job and benchmark tests, so that they exercise the engine
/// without depending on a real site's parser.
///
/// A scoreboard page (`…/scoreboard…`) lists games and discovers one game target per game at
/// `{base}/game/{id}.json`; a game page (`…/game/…`) holds one game, of its target's sport
/// (`Target.sport`) or men's lacrosse.
/// `{"games":[{"id":"1","status":"live","period":2,"away":3,"home":1}]}`
public enum TestSource {
  public static let id = "test"

  public struct Record: Codable, Sendable {
    public var id: String
    public var status: String
    public var period: Int?
    public var away: Int?
    public var home: Int?
    public var start: String?

    public init(
      id: String, status: String, period: Int? = nil, away: Int? = nil, home: Int? = nil, start: String? = nil
    ) {
      self.id = id
      self.status = status
      self.period = period
      self.away = away
      self.home = home
      self.start = start
    }
  }

  public struct Records: Codable, Sendable {
    public var games: [Record]
    public init(games: [Record]) { self.games = games }
  }

  struct Parser: PageParser {
    func parse(_ page: Page) throws -> Records { try JSONPage.decode(Records.self, from: page) }
  }

  struct Normalizer: StatlineCore.Normalizer {
    func normalize(_ records: Records, page: Page) throws -> Batch {
      guard !records.games.isEmpty else {
        throw StatlineError(.emptyPage, "the page lists no games", location: page.location)
      }
      return Batch(
        games: records.games.map { record in
          Game(
            id: "test:\(record.id)", sport: page.sport ?? .lacrosseMen,
            status: GameStatus(rawValue: record.status) ?? .unknown,
            period: record.period, startTime: record.start,
            away: TeamLine(team: TeamRef(id: "test:a\(record.id)", name: "Away \(record.id)"), score: record.away),
            home: TeamLine(team: TeamRef(id: "test:h\(record.id)", name: "Home \(record.id)"), score: record.home))
        })
    }
  }

  /// The game page URL of a game on a server at `base`.
  public static func gameURL(base: String, id: String) -> String { "\(base)/game/\(id).json" }

  public static func body(_ games: [Record]) -> String {
    String(decoding: try! JSONEncoder().encode(Records(games: games)), as: UTF8.self)
  }

  public static let plugin = SourcePlugin(id: id, name: "Test JSON source", folder: "Test") { _ in
    [
      ParserEntry(
        id: "test-scoreboard", source: id, summary: "test scoreboard", format: .json,
        urlPatterns: [try URLPattern("/scoreboard")],
        discover: { batch in
          batch.games.map { game in
            let native = String(game.id.dropFirst("test:".count))
            let base = batch.url.map { String($0[..<($0.range(of: "/scoreboard")?.lowerBound ?? $0.endIndex)]) } ?? ""
            return DiscoveredTarget(
              gameId: game.id,
              target: Target(url: gameURL(base: base, id: native), source: id, parser: "test-game", role: .game))
          }
        }, parser: Parser(), normalizer: Normalizer()),
      ParserEntry(
        id: "test-game", source: id, summary: "test game", format: .json,
        urlPatterns: [try URLPattern("/game/[^/]+\\.json$")],
        parser: Parser(), normalizer: Normalizer()),
    ]
  }
}
