import Foundation
import StatlineCore
import Testing

/// What every store does with two sources of one game (architecture.md#canonical-games): one canonical game, each
/// goal one event with its scorer, a source that lags causes no event, two finals that disagree
/// keep the higher-precedence source's and say so once, and each source's own record is kept.
/// The stores it is given merge with the plugins' feeds (`TestFeeds.canonical`): precedence is
/// theirs to declare.
public enum CanonicalStoreContract {
  public static let canonicalId = "game:2026-03-07:lacrosse-men:725~726"

  public static func check(
    _ make: () async throws -> any ScheduleStore & EventLog & StoreReader,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await twoFeedsOfOneGame(try await make(), sourceLocation)
    try await teamsThatMeetMoreThanFourTimesInADay(try await make(), sourceLocation)
    try await aFeedThatSwapsHomeAndAway(try await make(), sourceLocation)
    try await aSourceWhoseTeamIsCorrected(try await make(), sourceLocation)
    try await aSharedSourceWhoseTeamIsCorrected(try await make(), sourceLocation)
  }

  /// A page that corrects a team (Navy was Navy, is now Duke): the source game moves to the
  /// canonical game of its new teams in the same write, and the one it left, holding nothing
  /// else, is retired (`retiredInto`, one `game.retired`, in no list, in delta sync). Corrected
  /// back, the first game is live again and the second retired.
  static func aSourceWhoseTeamIsCorrected(
    _ store: any ScheduleStore & EventLog & StoreReader, _ location: SourceLocation
  ) async throws {
    func feed(_ home: String, _ away: Int, _ homeScore: Int) -> Game {
      Game(
        id: "statbroadcast:9", sport: .lacrosseMen, status: .live, period: 1, clock: "09:00", date: "2026-03-07",
        away: TeamLine(team: TeamRef(name: "Army"), score: away),
        home: TeamLine(team: TeamRef(name: home), score: homeScore))
    }
    func write(_ game: Game) async throws {
      var batch = Batch(games: [game])
      batch.source = "statbroadcast"
      batch.parser = "p"
      _ = try await store.commit(PollCommit(batch: batch, states: []))
    }
    try await write(feed("Navy", 0, 0))
    let first = try #require(try await store.game(id: "statbroadcast:9"), sourceLocation: location)
    #expect(first.id == canonicalId, sourceLocation: location)
    try await write(feed("Navy", 1, 0))
    let before = try await store.version()
    let seen = try await store.lastEventSequence()

    try await write(feed("Duke", 1, 0))
    let moved = try #require(try await store.game(id: "statbroadcast:9"), sourceLocation: location)
    #expect(moved.id != canonicalId && moved.sources == ["statbroadcast:9"], "\(moved.id)", sourceLocation: location)
    #expect(moved.home.team.name == "Duke", sourceLocation: location)
    let listed = try await store.games(sport: .lacrosseMen, date: "2026-03-07").map(\.id)
    #expect(listed == [moved.id], "one game for one source game, not a ghost beside it", sourceLocation: location)
    let army = try #require(moved.away.team.id, sourceLocation: location)
    #expect(try await store.games(team: army, datePrefix: nil).map(\.id) == [moved.id], sourceLocation: location)
    let ghost = try #require(try await store.game(id: canonicalId), sourceLocation: location)
    #expect(ghost.retiredInto == moved.id && ghost.sources == [], sourceLocation: location)
    #expect(ghost.liveSource == nil && ghost.isRetired, sourceLocation: location)
    let changed = try await store.changes(since: before, limit: 100).filter { $0.kind == .game }.map(\.id)
    #expect(Set(changed) == [canonicalId, moved.id], "delta sync tells the app both", sourceLocation: location)
    let events = try await store.events(since: seen, limit: 100)
    let retired = events.filter { $0.type == .retired }
    #expect(
      retired.count == 1 && retired.first?.gameId == canonicalId, "\(events.map(\.type))", sourceLocation: location)
    #expect(retired.first?.details["into"] == moved.id, sourceLocation: location)
    #expect(!events.contains { $0.gameId == canonicalId && $0.type != .retired }, sourceLocation: location)
    #expect(events.contains { $0.gameId == moved.id && $0.type == .discovered }, sourceLocation: location)

    // A goal on the page now: the moved game's, and the retired one stays as it was.
    let quiet = try await store.lastEventSequence()
    try await write(feed("Duke", 2, 0))
    let goals = try await store.events(since: quiet, limit: 100)
    #expect(goals.map(\.type) == [.goal] && goals.first?.gameId == moved.id, sourceLocation: location)
    #expect(try await store.game(id: canonicalId)?.retiredInto == moved.id, sourceLocation: location)

    // Corrected back: the first game holds its source again, the second is retired.
    let back = try await store.lastEventSequence()
    try await write(feed("Navy", 2, 0))
    #expect(try await store.game(id: "statbroadcast:9")?.id == canonicalId, sourceLocation: location)
    #expect(
      try await store.games(sport: .lacrosseMen, date: "2026-03-07").map(\.id) == [canonicalId],
      sourceLocation: location)
    #expect(try await store.game(id: moved.id)?.retiredInto == canonicalId, sourceLocation: location)
    let again = try await store.events(since: back, limit: 100)
    #expect(
      again.map(\.type).sorted { $0.rawValue < $1.rawValue } == [.discovered, .retired], "\(again.map(\.type))",
      sourceLocation: location)
  }

  /// Two sources of one game, one of which corrects a team: the game keeps the other source
  /// (merged again from it alone), and the corrected one joins the game a third source has of
  /// its new teams (matched among them, not made anew over it).
  static func aSharedSourceWhoseTeamIsCorrected(
    _ store: any ScheduleStore & EventLog & StoreReader, _ location: SourceLocation
  ) async throws {
    func game(_ id: String, home: String) -> Game {
      Game(
        id: id, sport: .lacrosseMen, status: .scheduled, date: "2026-03-07",
        away: TeamLine(team: TeamRef(name: "Army")), home: TeamLine(team: TeamRef(name: home)))
    }
    for id in ["statbroadcast:9", "ncaa:com-9"] {
      _ = try await store.commit(PollCommit(batch: Batch(games: [game(id, home: "Navy")]), states: []))
    }
    _ = try await store.commit(PollCommit(batch: Batch(games: [game("ncaa:com-8", home: "Duke")]), states: []))
    let duke = try #require(try await store.game(id: "ncaa:com-8"), sourceLocation: location).id
    #expect(try await store.game(id: canonicalId)?.sources?.count == 2, sourceLocation: location)
    _ = try await store.commit(PollCommit(batch: Batch(games: [game("statbroadcast:9", home: "Duke")]), states: []))
    let kept = try #require(try await store.game(id: canonicalId), sourceLocation: location)
    #expect(kept.sources == ["ncaa:com-9"] && kept.liveSource == "ncaa:com-9", sourceLocation: location)
    #expect(!kept.isRetired, sourceLocation: location)
    let moved = try #require(try await store.game(id: "statbroadcast:9"), sourceLocation: location)
    #expect(moved.id == duke && moved.sources == ["statbroadcast:9", "ncaa:com-8"], sourceLocation: location)
    #expect(
      try await store.games(sport: .lacrosseMen, date: "2026-03-07").map(\.id) == [canonicalId, duke].sorted(),
      sourceLocation: location)
    #expect(!(try await store.events(since: 0, limit: 100)).contains { $0.type == .retired }, sourceLocation: location)
  }

  /// A neutral-site game whose two feeds disagree on who is home: the goal a feed reports for
  /// its visitor is the canonical game's goal for that same school, with its scorer, the score
  /// turned to the canonical sides.
  static func aFeedThatSwapsHomeAndAway(
    _ store: any ScheduleStore & EventLog & StoreReader, _ location: SourceLocation
  ) async throws {
    func line(_ school: String, _ score: Int?) -> TeamLine {
      TeamLine(team: TeamRef(name: school), score: score)
    }
    // ncaa.com: Army West Point (725) at Navy (726); StatCrew: Navy the visitor, Army home.
    func board(_ status: GameStatus, army: Int?, navy: Int?) -> Game {
      Game(
        id: "ncaa:com-7", sport: .lacrosseMen, status: status, period: status == .live ? 1 : nil, date: "2026-03-07",
        neutralSite: true, away: line("Army West Point", army), home: line("Navy", navy))
    }
    func feed(_ status: GameStatus, army: Int?, navy: Int?) -> Game {
      Game(
        id: "statbroadcast:7", sport: .lacrosseMen, status: status, period: status == .live ? 1 : nil,
        clock: status == .live ? "09:00" : nil, date: "2026-03-07", neutralSite: true, away: line("NAVY", navy),
        home: line("Army", army))
    }
    func write(_ game: Game, plays: [Play] = []) async throws {
      var batch = Batch(games: [game], plays: plays)
      batch.source = game.id.hasPrefix("ncaa") ? "ncaa" : "statbroadcast"
      batch.parser = "p"
      _ = try await store.commit(PollCommit(batch: batch, states: []))
    }
    try await write(board(.scheduled, army: nil, navy: nil))
    try await write(feed(.scheduled, army: nil, navy: nil))
    let games = try await store.games(sport: .lacrosseMen, date: "2026-03-07")
    #expect(games.map(\.id) == [canonicalId] && games.first?.sources?.count == 2, sourceLocation: location)
    let navyHome = try #require(games.first, sourceLocation: location).home.team.name == "Navy"
    #expect(games.first?.reversedSources?.count == 1, "one feed has the sides the other way", sourceLocation: location)

    // Navy scores: the feed's visitor, its play on the feed's away side.
    let play = Play(
      gameId: "statbroadcast:7", sequence: 1, period: 1, clock: "09:00", side: .away, type: .goal,
      text: "GOAL by Cy", player: "Cy", awayScore: 1, homeScore: 0)
    try await write(feed(.live, army: 0, navy: 1), plays: [play])
    try await write(board(.live, army: 0, navy: 1))
    let goals = try await store.events(since: 0, limit: 100).filter { $0.type == .goal }
    #expect(goals.count == 1, "\(goals)", sourceLocation: location)
    let goal = try #require(goals.first, sourceLocation: location)
    #expect(goal.player == "Cy" && goal.gameId == canonicalId, sourceLocation: location)
    #expect(goal.side == (navyHome ? .home : .away), "Navy's side in the canonical game", sourceLocation: location)
    #expect(
      (navyHome ? goal.homeScore : goal.awayScore) == 1 && (navyHome ? goal.awayScore : goal.homeScore) == 0,
      sourceLocation: location)
    let game = try #require(try await store.game(id: canonicalId), sourceLocation: location)
    #expect((navyHome ? game.home : game.away).score == 1, sourceLocation: location)
    #expect((navyHome ? game.away : game.home).score == 0, sourceLocation: location)
  }

  /// Six games of the same two teams on one day (a tournament's pool, a test site), seen by two
  /// feeds: six canonical games, each with both sources (the lookup goes past the first four).
  static func teamsThatMeetMoreThanFourTimesInADay(
    _ store: any ScheduleStore & EventLog & StoreReader, _ location: SourceLocation
  ) async throws {
    func game(_ feed: String, _ number: Int) -> Game {
      Game(
        id: "\(feed)\(number)", sport: .lacrosseMen, status: .scheduled, date: "2026-03-07",
        startTime: String(format: "2026-03-07T%02d:00:00Z", number * 3),
        away: TeamLine(team: TeamRef(name: "Duke")), home: TeamLine(team: TeamRef(name: "North Carolina")))
    }
    for feed in ["statbroadcast:", "ncaa:com-"] {
      for number in 0..<6 {
        _ = try await store.commit(PollCommit(batch: Batch(games: [game(feed, number)]), states: []))
      }
    }
    let games = try await store.games(sport: .lacrosseMen, date: "2026-03-07")
    #expect(games.count == 6, "\(games.map(\.id))", sourceLocation: location)
    #expect(games.allSatisfy { $0.sources?.count == 2 }, "\(games.map { $0.sources ?? [] })", sourceLocation: location)
    for number in 0..<6 {
      #expect(
        try await store.game(id: "statbroadcast:\(number)")?.id == (try await store.game(id: "ncaa:com-\(number)"))?.id,
        "game \(number) of the day", sourceLocation: location)
    }
  }

  static func twoFeedsOfOneGame(
    _ store: any ScheduleStore & EventLog & StoreReader, _ location: SourceLocation
  ) async throws {
    // The StatCrew feed names the teams one way, ncaa.com another; both are Army West Point (725)
    // at Navy (726).
    func feed(_ status: GameStatus, _ away: Int?, _ home: Int?, period: Int?, clock: String? = nil) -> Game {
      Game(
        id: "statbroadcast:1", sport: .lacrosseMen, status: status, period: period, clock: clock, date: "2026-03-07",
        startTime: "2026-03-07T12:00:00-05:00",
        away: TeamLine(team: TeamRef(id: "statbroadcast:team-army", name: "Army"), score: away),
        home: TeamLine(team: TeamRef(id: "statbroadcast:team-navy", name: "NAVY"), score: home))
    }
    func board(_ status: GameStatus, _ away: Int?, _ home: Int?, period: Int?) -> Game {
      Game(
        id: "ncaa:com-1", sport: .lacrosseMen, status: status, period: period, date: "2026-03-07",
        startTime: "2026-03-07T17:00:00Z", venue: "Michie Stadium",
        away: TeamLine(team: TeamRef(id: "ncaa:com-team-army", name: "Army West Point"), score: away),
        home: TeamLine(team: TeamRef(id: "ncaa:com-team-navy", name: "Navy"), score: home))
    }
    func goal(_ sequence: Int, _ away: Int, _ home: Int, by player: String) -> Play {
      Play(
        gameId: "statbroadcast:1", sequence: sequence, period: 1, clock: "10:00", side: .away, type: .goal,
        text: "GOAL by \(player)", player: player, awayScore: away, homeScore: home)
    }
    func write(_ game: Game, plays: [Play] = []) async throws {
      var batch = Batch(games: [game], plays: plays)
      batch.source = game.id.hasPrefix("ncaa") ? "ncaa" : "statbroadcast"
      batch.parser = "p"
      _ = try await store.commit(PollCommit(batch: batch, states: []))
    }

    try await write(feed(.scheduled, nil, nil, period: nil))
    try await write(board(.scheduled, nil, nil, period: nil))
    let games = try await store.games(sport: .lacrosseMen, date: "2026-03-07")
    #expect(games.map(\.id) == [canonicalId], "one game, whatever each source calls it", sourceLocation: location)
    #expect(games.first?.sources == ["statbroadcast:1", "ncaa:com-1"], "by precedence", sourceLocation: location)
    #expect(games.first?.away.team.name == "Army West Point", "the registry's name", sourceLocation: location)
    #expect(games.first?.venue == "Michie Stadium", "schedule facts from the NCAA first", sourceLocation: location)
    #expect(try await store.game(id: "ncaa:com-1")?.id == canonicalId, sourceLocation: location)
    #expect(try await store.sourceGame(id: "ncaa:com-1")?.canonicalId == canonicalId, sourceLocation: location)

    // The feed scores twice; the board follows a poll behind, without plays.
    try await write(feed(.live, 1, 0, period: 1, clock: "10:00"), plays: [goal(1, 1, 0, by: "Ann")])
    try await write(board(.live, 0, 0, period: 1))
    try await write(
      feed(.live, 2, 0, period: 1, clock: "08:00"), plays: [goal(1, 1, 0, by: "Ann"), goal(2, 2, 0, by: "Bo")])
    try await write(board(.live, 1, 0, period: 1))
    try await write(board(.live, 2, 0, period: 1))
    let events = try await store.events(since: 0, limit: 100)
    #expect(
      events.map(\.type) == [.discovered, .started, .goal, .goal], "each goal once; the lagging board adds nothing",
      sourceLocation: location)
    #expect(events.allSatisfy { $0.gameId == canonicalId }, sourceLocation: location)
    #expect(events.filter { $0.type == .goal }.map(\.player) == ["Ann", "Bo"], sourceLocation: location)

    // Two finals that disagree: StatCrew's is kept, and the conflict is said once.
    try await write(feed(.final, 3, 2, period: 4))
    try await write(board(.final, 3, 3, period: 4))
    try await write(board(.final, 3, 3, period: 4))
    let final = try #require(try await store.game(id: canonicalId), sourceLocation: location)
    #expect(final.away.score == 3 && final.home.score == 2, "the higher-precedence final", sourceLocation: location)
    #expect(
      final.conflict
        == GameConflict(kept: "statbroadcast:1", keptScore: "3-2", other: "ncaa:com-1", otherScore: "3-3"),
      sourceLocation: location)
    let after = try await store.events(since: events.last?.sequence ?? 0, limit: 100)
    #expect(after.map(\.type).suffix(2) == [.final, .conflict], "\(after.map(\.type))", sourceLocation: location)
    #expect(after.filter { $0.type == .final }.count == 1, sourceLocation: location)
    #expect(after.filter { $0.type == .conflict }.count == 1, sourceLocation: location)
    #expect(!after.contains { $0.type == .corrected }, "never flipped", sourceLocation: location)
    #expect(
      after.first { $0.type == .conflict }?.details["otherScore"] == "3-3", sourceLocation: location)
    #expect(try await store.conflictedGames(limit: 10).map(\.id) == [canonicalId], sourceLocation: location)
    // Each source keeps its own record.
    #expect(try await store.sourceGame(id: "ncaa:com-1")?.home.score == 3, sourceLocation: location)
    #expect(try await store.sourceGame(id: "statbroadcast:1")?.home.score == 2, sourceLocation: location)
  }
}
