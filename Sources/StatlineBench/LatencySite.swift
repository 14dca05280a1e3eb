import Foundation
import StatlineCanonical
import StatlineCore
import StatlineDemo
import StatlineLoopback

/// The site the latency benchmark polls: `games` live lacrosse games, each reported by two
/// sources (a StatCrew XML file and an ncaa.com GraphQL game centre), whose pages change at
/// known times: game `i` scores its `k`-th goal at `goalTime(i, k)`, in both sources at once.
/// The site notes when it first served each goal, to any source: the moment the poll that sees
/// the change fetched it.
public final class LatencySite: Sendable {
  public let games: Int
  /// Seconds from the site's start to the first goal of game 0 (the warm-up before it).
  public let firstGoal: Double
  /// Seconds between two goals of one game; the games' goals are spread evenly across it.
  public let goalEvery: Double
  /// Goals each game scores at most.
  public let goalsPerGame: Int
  let template: [DemoGame]
  /// Each game's page as last rendered, per source and number of goals: rendered once per change.
  private let rendered = Locked<[Key: (body: String, etag: String)]>([:])
  /// When each goal was first served (site seconds), by game and goal number.
  private let served = Locked<[Key: Double]>([:])

  struct Key: Hashable {
    var game: Int
    var goals: Int
    var source: Int = 0
  }

  public static let statCrewBase = 700_000
  public static let contestBase = 800_000

  public init(games: Int, firstGoal: Double, goalEvery: Double, goalsPerGame: Int = 40) {
    self.games = games
    self.firstGoal = firstGoal
    self.goalEvery = goalEvery
    self.goalsPerGame = goalsPerGame
    let schools = CanonicalStep.standard.merger.registry.teams
    let base = DemoGameDay().games[0]
    template = (0..<games).map { index in
      var game = base
      game.eventId = String(Self.statCrewBase + index)
      game.startMinute = 0
      // Every goal in the second period, 20 s apart on the game clock, the two sides in turn.
      game.goals = (1...goalsPerGame).map { goal in
        DemoGame.Goal(
          period: 2, remaining: 900 - 20 * goal, home: goal % 2 == 0, scorer: "Player \(goal)", assist: nil)
      }
      BenchSite.seat(&game, schools, index)
      return game
    }
  }

  /// When game `index` scores goal `goal` (1-based), in site seconds.
  public func goalTime(_ index: Int, _ goal: Int) -> Double {
    firstGoal + goalEvery * Double(index) / Double(games) + goalEvery * Double(goal - 1)
  }

  /// Goals game `index` has scored at `seconds`.
  func goals(_ index: Int, at seconds: Double) -> Int {
    guard seconds >= firstGoal else { return 0 }
    let scored = Int(((seconds - goalTime(index, 1)) / goalEvery).rounded(.down)) + 1
    return min(max(scored, 0), goalsPerGame)
  }

  /// When goal `goal` of game `index` was first served, if it was.
  public func firstServed(_ index: Int, _ goal: Int) -> Double? {
    served.withLock { $0[Key(game: index, goals: goal)] }
  }

  public static func statCrewPath(_ index: Int) -> String { "/game/\(statCrewBase + index).xml" }

  public static func gameCentrePath(_ index: Int) -> String {
    let variables = #"{"contestId":"\#(contestBase + index)"}"#
    return "/?meta=GetGamecenterGameById_web&variables="
      + (variables.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? variables)
  }

  /// The game index of a source game id (`…:700123`, `…-800123`): its trailing digits.
  public func gameIndex(ofSourceId id: String) -> Int? {
    guard let number = Int(String(id.reversed().prefix { $0.isNumber }.reversed())) else { return nil }
    for base in [Self.statCrewBase, Self.contestBase] where (base..<base + games).contains(number) {
      return number - base
    }
    return nil
  }

  public func route(_ request: LoopbackServer.Request, seconds: Double) -> LoopbackServer.Behavior {
    if request.uri == "/robots.txt" { return .ok("User-agent: *\nAllow: /\n") }
    let index: Int
    let source: Int
    if request.uri.hasPrefix("/game/"), let number = Int(request.uri.dropFirst(6).dropLast(4)) {
      (index, source) = (number - Self.statCrewBase, 0)
    } else if request.uri.hasPrefix("/?meta=GetGamecenterGameById_web&"),
      let number = gameIndex(ofSourceId: request.uri.removingPercentEncoding?.filter { $0.isNumber } ?? "")
    {
      (index, source) = (number, 1)
    } else {
      return .respond(status: 404)
    }
    guard (0..<games).contains(index) else { return .respond(status: 404) }
    let goals = goals(index, at: seconds)
    let page = page(index, source: source, goals: goals)
    if goals > 0 {
      served.withLock { served in
        let key = Key(game: index, goals: goals)
        if served[key] == nil { served[key] = seconds }
      }
    }
    if request.headers["if-none-match"] == page.etag { return .respond(status: 304, headers: ["ETag": page.etag]) }
    let type = source == 0 ? "text/xml" : "application/json"
    return .ok(page.body, headers: ["ETag": page.etag, "Content-Type": type])
  }

  private func page(_ index: Int, source: Int, goals: Int) -> (body: String, etag: String) {
    let key = Key(game: index, goals: goals, source: source)
    if let page = rendered.withLock({ $0[key] }) { return page }
    let game = template[index]
    let moment = DemoGame.Moment.inPeriod(period: 2, remaining: 900 - 20 * goals)
    let body =
      source == 0
      ? StatCrewWriter.xml(game, at: moment, date: "3/7/2026")
      : DemoContests.json([game], at: { _ in moment }, contestId: { _ in Self.contestBase + index })
    let page = (body, "\"\(String(ContentHash.fnv1a(Data(body.utf8)), radix: 16))\"")
    rendered.withLock { rendered in
      // The game's earlier renderings are not served again.
      rendered[Key(game: index, goals: goals - 1, source: source)] = nil
      rendered[key] = page
    }
    return page
  }
}
