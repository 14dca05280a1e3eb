import Foundation
import StatlineCore

extension ReadAPI {
  /// The answer of one route at one store stamp (cached by the caller).
  func compute(_ route: Route, query: String?, stamp: StoreStamp) async throws -> ResponseCache.Entry {
    let version = stamp.version
    switch route {
    case .leaders:
      return try await leaders(try APIQuery(query, allowed: ["sport", "stat", "season", "limit"]), version: version)
    case .standings:
      return try await standings(try APIQuery(query, allowed: ["sport", "season", "conference"]), version: version)
    case .rankings:
      return try await rankings(try APIQuery(query, allowed: ["sport", "poll", "season", "week"]), version: version)
    case .rankingPolls:
      return try await rankingPolls(try APIQuery(query, allowed: ["sport"]), version: version)
    case .teams:
      let query = try APIQuery(query, allowed: ["sport"])
      let teams = try await canonicalTeams(sport: try Self.sport(query))
      return ResponseCache.Entry(
        body: Self.encode(TeamsAnswer(teams: teams, version: version)),
        cacheControl: configuration.settledCacheControl)
    case .team(let id):
      _ = try APIQuery(query, allowed: [])
      guard let team = try await canonicalTeam(id: id) else {
        throw Problem.notFound(
          "no team '\(id.prefix(120))' in the store or the registry (ids look like team:457 or ncaa:team-594020)")
      }
      return ResponseCache.Entry(
        body: Self.encode(TeamAnswer(team: team, version: version)), cacheControl: configuration.settledCacheControl)
    case .teamGames(let id):
      let query = try APIQuery(query, allowed: ["season"])
      let season = try Self.season(query, rule: configuration.seasons)
      let team = try await canonicalTeam(id: id)
      // A season spans two calendar years: the team's games are read whole and kept by date.
      let games = try await ranked(
        reader.games(team: team?.id ?? id, datePrefix: nil).filter {
          season?.contains($0.date, rule: configuration.seasons) ?? true
        })
      guard !games.isEmpty || team != nil else {
        throw Problem.notFound("no team '\(id.prefix(120))' and no games of it in the store")
      }
      let freshness = try await freshness(of: games, stamp: stamp)
      return entry(
        TeamGamesAnswer(
          teamId: team?.id ?? id, season: season?.text, games: games, freshness: freshness.byGame, version: version),
        live: games, expires: freshness.expires)
    case .scoreboard:
      let query = try APIQuery(query, allowed: ["sport", "date", "status"])
      let sport = try Self.sport(query)
      // Without a date, the answer is today's: not served past midnight.
      let dayEnds = query["date"] == nil ? nextMidnight() : nil
      let date = try Self.date(query) ?? today()
      let status = try query["status"].map { text throws(Problem) -> GameStatus in
        guard let status = GameStatus(rawValue: text) else {
          throw Problem.badParameter(
            "status", text, expected: "one of scheduled, live, final, postponed, cancelled, suspended, unknown")
        }
        return status
      }
      let games = try await ranked(
        reader.games(sport: sport, date: date).filter { status == nil || $0.status == status }
          .sorted(by: Self.scoreboardOrder))
      let freshness = try await freshness(of: games, stamp: stamp)
      return entry(
        Scoreboard(
          date: date, sport: sport, status: status, games: games, freshness: freshness.byGame, version: version),
        live: games, expires: Self.earliest(freshness.expires, dayEnds))
    case .game(let id):
      _ = try APIQuery(query, allowed: [])
      let game = try await ranked([game(id)])[0]
      let freshness = try await freshness(of: game, stamp: stamp)
      return entry(
        GameAnswer(
          game: game, sources: try await sourceLines(of: game, stamp: stamp), freshness: freshness, version: version),
        live: [game], expires: freshness.staleAt)
    case .boxScore(let id):
      _ = try APIQuery(query, allowed: [])
      let game = try await game(id)
      guard let (box, source) = try await boxScore(of: game) else {
        throw Problem.notFound("game \(id) has no box score yet")
      }
      let freshness = try await freshness(of: game, stamp: stamp)
      return entry(
        BoxScoreAnswer(boxScore: box, source: source, freshness: freshness, version: version), live: [game],
        expires: freshness.staleAt)
    case .boxScores:
      return try await boxScores(query, stamp: stamp)
    case .bundle:
      return try await bundle(query, stamp: stamp)
    case .plays(let id):
      let query = try APIQuery(query, allowed: ["after", "limit"])
      let after = try query.int("after", in: 0...Int64(Int32.max), default: 0)
      let limit = try query.int("limit", in: 1...configuration.maximumLimit, default: configuration.maximumLimit)
      let game = try await game(id)
      let (plays, source) = try await plays(of: game, after: Int(after), limit: Int(limit) + 1)
      let page = Array(plays.prefix(Int(limit)))
      let freshness = try await freshness(of: game, stamp: stamp)
      return entry(
        PlaysAnswer(
          gameId: game.id, source: source, plays: page, next: Int64(page.last?.sequence ?? Int(after)),
          more: plays.count > page.count, freshness: freshness, version: version), live: [game],
        expires: freshness.staleAt)
    case .changes:
      let query = try APIQuery(query, allowed: ["since", "limit"])
      let since = try query.int("since", in: 0...Int64.max, default: 0)
      let limit = try query.int("limit", in: 1...configuration.maximumLimit, default: configuration.defaultLimit)
      guard since <= version else {
        throw Problem(
          title: "Cursor from elsewhere", status: 410,
          detail:
            "cursor \(since) is beyond this store's version \(version): it comes from another store; sync again from since=0"
        )
      }
      // The answer covers the store as of `version`: a change a writer committed after the stamp
      // was read waits for the next request, so `next` never passes the version the answer
      // reports (a client syncing from it is never told its cursor is from elsewhere).
      let changes: [StoreChange]
      do {
        changes = try await reader.changes(since: since, limit: Int(limit) + 1)
      } catch let resync as StoreResync {
        throw Problem(title: "Resync", status: 410, detail: resync.description)
      }
      let covered = changes.prefix { $0.version <= version }
      let page = Array(covered.prefix(Int(limit)))
      return ResponseCache.Entry(
        body: Self.encode(
          ChangesAnswer(
            changes: page.map(ChangeJSON.init), next: page.last?.version ?? since,
            more: changes.count > page.count, version: version)),
        cacheControl: configuration.feedCacheControl)
    case .events:
      let query = try APIQuery(query, allowed: ["since", "limit"])
      let since = try query.int("since", in: 0...Int64.max, default: 0)
      let limit = try query.int("limit", in: 1...configuration.maximumLimit, default: configuration.defaultLimit)
      let newest = try await reader.lastEventSequence()
      guard since <= newest else {
        throw Problem(
          title: "Cursor from elsewhere", status: 410,
          detail:
            "event \(since) is beyond this store's newest event \(newest): it comes from another store; sync again from since=0"
        )
      }
      let events = try await reader.events(since: since, limit: Int(limit) + 1)
      let page = Array(events.prefix(Int(limit)))
      return ResponseCache.Entry(
        body: Self.encode(
          EventsAnswer(events: page, next: page.last?.sequence ?? since, more: events.count > page.count)),
        cacheControl: configuration.feedCacheControl)
    }
  }

  /// `sport=`: lower-case words joined by '-' (`lacrosse-men`).
  static func sport(_ query: APIQuery) throws(Problem) -> Sport? {
    try query["sport"].map { text throws(Problem) -> Sport in
      // As the OpenAPI document has it: ^[a-z-]{1,40}$.
      guard (1...40).contains(text.utf8.count),
        text.utf8.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "-") })
      else {
        throw Problem.badParameter("sport", text, expected: "a sport such as lacrosse-men")
      }
      return Sport(text)
    }
  }

  /// `date=`: `YYYY-MM-DD`.
  static func date(_ query: APIQuery) throws(Problem) -> String? {
    try query["date"].map { text throws(Problem) -> String in
      guard BatchValidator.isDate(text) else { throw Problem.badParameter("date", text, expected: "a date YYYY-MM-DD") }
      return text
    }
  }

  func game(_ id: String) async throws -> Game {
    guard let game = try await reader.game(id: id) else {
      throw Problem.notFound("no game '\(id.prefix(120))' in the store (ids look like statbroadcast:640301)")
    }
    return game
  }

  /// Live answers are cached briefly, settled ones long; none past the time a game in it turns
  /// stale.
  func entry(_ value: some Encodable, live games: [Game], expires: Date? = nil) -> ResponseCache.Entry {
    ResponseCache.Entry(
      body: Self.encode(value),
      cacheControl: games.contains { $0.status == .live }
        ? configuration.liveCacheControl : configuration.settledCacheControl, expires: expires)
  }

  /// The freshness of each game at this stamp and now, and the earliest time one of them turns
  /// stale.
  func freshness(of games: [Game], stamp: StoreStamp) async throws -> (byGame: [String: Freshness], expires: Date?) {
    let list = try await freshnessList(games, stamp: stamp)
    return (Dictionary(zip(games.map(\.id), list)) { first, _ in first }, list.compactMap(\.staleAt).min())
  }

  /// The freshness of one game.
  func freshness(of game: Game, stamp: StoreStamp) async throws -> Freshness {
    try await freshnessList([game], stamp: stamp)[0]
  }

  /// The schedule's freshness board at `stamp` (made once per stamp): the newest board brought
  /// up to date with the targets changed since it was built, where the store can say which;
  /// else built whole.
  func board(stamp: StoreStamp) async throws -> FreshnessBoard {
    if let kept = await cache.board(stamp: stamp) { return kept }
    var board: FreshnessBoard
    if let newest = await cache.newestBoard(), newest.schedule <= stamp.schedule,
      let changes = try await reader.freshnessChanges(since: newest.schedule)
    {
      board = newest.board
      board.apply(changes)
    } else {
      board = try await reader.freshnessBoard()
    }
    await cache.store(board: board, stamp: stamp)
    return board
  }

  /// The freshness of each game, in order.
  private func freshnessList(_ games: [Game], stamp: StoreStamp) async throws -> [Freshness] {
    let board = try await board(stamp: stamp)
    let times = try await reader.changedAt(gameIds: games.map(\.id))
    let now = now()
    return games.map { board.freshness(of: $0, changedAt: times[$0.id], now: now) }
  }

  static func encode(_ value: some Encodable) -> [UInt8] { Array((try? encoder.encode(value)) ?? Data()) }

  /// Today in the configured zone, `YYYY-MM-DD`.
  func today() -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = configuration.timeZone
    let parts = calendar.dateComponents([.year, .month, .day], from: now())
    return String(format: "%04d-%02d-%02d", parts.year ?? 1970, parts.month ?? 1, parts.day ?? 1)
  }

  /// The next midnight in the configured zone: an answer that read `today()` is not served past it.
  func nextMidnight() -> Date {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = configuration.timeZone
    let start = calendar.startOfDay(for: now())
    return calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
  }

  static func earliest(_ a: Date?, _ b: Date?) -> Date? {
    guard let a, let b else { return a ?? b }
    return min(a, b)
  }

  /// Live games first, then by start time (unknown last), then by id.
  static func scoreboardOrder(_ a: Game, _ b: Game) -> Bool {
    let liveA = a.status == .live
    let liveB = b.status == .live
    if liveA != liveB { return liveA }
    switch (a.startTime, b.startTime) {
    case (let x?, let y?) where x != y: return x < y
    case (.some, nil): return true
    case (nil, .some): return false
    default: return a.id < b.id
    }
  }
}
