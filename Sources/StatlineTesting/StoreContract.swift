import Foundation
import StatlineCanonical
import StatlineCore
import Testing

/// The behaviour every `Store` must have. A store's tests call `StoreContract.check(make)` with a
/// factory for empty stores.
public enum StoreContract {
  public static func check(
    _ make: () async throws -> any Store, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await versionsAndDeltaSync(try await make(), sourceLocation)
    try await unchangedRecordsAreNotRewritten(try await make(), sourceLocation)
    try await invalidBatchesWriteNothing(try await make(), sourceLocation)
  }

  static func game(_ id: String, away: Int?, home: Int?, status: GameStatus) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: status, period: status == .live ? 2 : nil,
      away: TeamLine(team: TeamRef(id: "t:1", name: "Army"), score: away),
      home: TeamLine(team: TeamRef(id: "t:2", name: "Navy"), score: home))
  }

  /// The canonical game a store makes of `game` when it is its only source (architecture.md#canonical-games).
  public static func canonical(_ game: Game) -> Game {
    CanonicalStep.standard.merge([game], candidates: [], stored: [:], at: Date()).canonical[0]
  }

  static func versionsAndDeltaSync(_ store: any Store, _ location: SourceLocation) async throws {
    let first = try await store.write(
      Batch(
        games: [game("g:1", away: 1, home: 0, status: .live), game("g:2", away: nil, home: nil, status: .scheduled)],
        teams: [Team(id: "t:1", name: "Army")]))
    #expect(
      first == StoreWrite(written: 5, unchanged: 0, version: 5, events: [.discovered: 2]),
      "two source games, their two canonical games, a team; the events of the canonical games",
      sourceLocation: location)
    let all = try await store.changes(since: 0, limit: 100)
    #expect(all.map(\.version) == [3, 4, 5], "delta sync skips the source games", sourceLocation: location)
    #expect(all.map(\.id) == ["game:g:1", "game:g:2", "t:1"], sourceLocation: location)
    _ = try await store.write(Batch(games: [game("g:1", away: 2, home: 0, status: .live)]))
    let delta = try await store.changes(since: 5, limit: 100)
    #expect(delta.map(\.version) == [7], sourceLocation: location)
    #expect(
      delta.first?.record == .game(canonical(game("g:1", away: 2, home: 0, status: .live))), sourceLocation: location)
    #expect(try await store.changes(since: 0, limit: 2).map(\.id) == ["game:g:2", "t:1"], sourceLocation: location)
  }

  static func unchangedRecordsAreNotRewritten(_ store: any Store, _ location: SourceLocation) async throws {
    let batch = Batch(games: [game("g:1", away: 3, home: 4, status: .live)])
    _ = try await store.write(batch)
    let again = try await store.write(batch)
    #expect(
      again == StoreWrite(written: 0, unchanged: 1, version: 2),
      "the source game, as stored: its canonical game is not even merged again", sourceLocation: location)
  }

  static func invalidBatchesWriteNothing(_ store: any Store, _ location: SourceLocation) async throws {
    let live = game("g:1", away: 3, home: 4, status: .live)
    _ = try await store.write(Batch(games: [live]))
    var broken = game("g:1", away: 9, home: 4, status: .live)
    broken.period = nil
    await #expect(throws: StatlineError.self, sourceLocation: location) {
      try await store.write(Batch(games: [broken, self.game("g:3", away: 0, home: 0, status: .live)]))
    }
    let all = try await store.changes(since: 0, limit: 100)
    #expect(
      all.map(\.record) == [.game(canonical(live))], "the store keeps the last good data", sourceLocation: location)
  }
}

/// The schedule half of a store: target states and breakers survive a reopen, and a poll's
/// batch and states are written together or not at all.
public enum ScheduleStoreContract {
  public static func check(
    _ make: () async throws -> any ScheduleStore, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let store = try await make()
    let target = Target(url: "https://example.edu/g/1.xml", source: "s", parser: "p", role: .game)
    var state = TargetState(target: target, nextDue: Date(timeIntervalSince1970: 1_000), gameId: "g:1")
    state.etag = "\"v1\""
    state.lastModified = "Sat, 14 Feb 2026 12:00:00 GMT"
    state.bodyHash = UInt64.max - 7
    state.outcome = .stored
    state.games = [StoreContract.game("g:1", away: 1, home: 0, status: .live)]
    let host = HostHealth(
      host: "example.edu", breaker: .open, failures: 3, openUntil: Date(timeIntervalSince1970: 1_030),
      updated: Date(timeIntervalSince1970: 1_000))
    let write = try await store.commit(PollCommit(batch: Batch(games: state.games), states: [state], hosts: [host]))
    #expect(write.written == 2, "the source game and its canonical game", sourceLocation: sourceLocation)
    #expect(try await store.targets() == [state], "target state round-trips", sourceLocation: sourceLocation)
    #expect(try await store.hosts() == [host], sourceLocation: sourceLocation)

    var next = state
    next.nextDue = nil
    next.outcome = .failed
    var broken = StoreContract.game("g:1", away: 5, home: 0, status: .live)
    broken.period = nil
    await #expect(throws: StatlineError.self, sourceLocation: sourceLocation) {
      try await store.commit(PollCommit(batch: Batch(games: [broken]), states: [next]))
    }
    #expect(
      try await store.targets() == [state], "a refused batch leaves the state as it was", sourceLocation: sourceLocation
    )
    _ = try await store.commit(PollCommit(batch: nil, states: [next]))
    #expect(try await store.targets().first?.isRetired == true, sourceLocation: sourceLocation)
  }
}

/// The event half of a store: events derived in the write that changed the game, exactly once,
/// numbered in order; sink cursors and dead letters round-trip.
public enum EventLogContract {
  public static func check(
    _ make: () async throws -> any ScheduleStore & EventLog, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await eventsComeWithTheWriteExactlyOnce(try await make(), sourceLocation)
    try await cursorsAndDeadLettersRoundTrip(try await make(), sourceLocation)
  }

  static func batch(_ game: Game, plays: [Play] = []) -> Batch {
    var batch = Batch(games: [game], plays: plays)
    batch.source = "s"
    batch.parser = "p"
    return batch
  }

  static func eventsComeWithTheWriteExactlyOnce(_ store: any ScheduleStore & EventLog, _ location: SourceLocation)
    async throws
  {
    _ = try await store.write(batch(StoreContract.game("g:1", away: nil, home: nil, status: .scheduled)))
    var live = StoreContract.game("g:1", away: 0, home: 0, status: .live)
    live.period = 1
    _ = try await store.write(batch(live))
    var scored = StoreContract.game("g:1", away: 2, home: 1, status: .live)
    scored.period = 1
    scored.clock = "08:00"
    let plays = [
      Play(
        gameId: "g:1", sequence: 1, period: 1, side: .home, type: .goal, text: "GOAL", player: "Ann", awayScore: 0,
        homeScore: 1),
      Play(
        gameId: "g:1", sequence: 2, period: 1, side: .away, type: .goal, text: "GOAL", player: "Bo", awayScore: 1,
        homeScore: 1),
      Play(
        gameId: "g:1", sequence: 3, period: 1, side: .away, type: .goal, text: "GOAL", player: "Cy", awayScore: 2,
        homeScore: 1),
    ]
    let write = try await store.write(batch(scored, plays: plays))
    #expect(store.eventBell.rings == 3, "each write that made events rang the bell", sourceLocation: location)
    let events = try await store.events(since: 0, limit: 100)
    #expect(
      events.map(\.type) == [.discovered, .started, .goal, .goal, .tied, .goal, .leadChange],
      sourceLocation: location)
    #expect(events.map(\.sequence) == Array(1...7), "numbered in order from 1", sourceLocation: location)
    #expect(events.map(\.id).last == "evt_7", sourceLocation: location)
    #expect(events.filter { $0.type == .goal }.map(\.player) == ["Ann", "Bo", "Cy"], sourceLocation: location)
    #expect(events.allSatisfy { $0.source == "s" && $0.parser == "p" }, sourceLocation: location)
    let gameVersion = try await store.changes(since: 0, limit: 100).last { $0.kind == .game }?.version
    #expect(events.last?.version == gameVersion && gameVersion != nil, sourceLocation: location)
    #expect(write.written == 5, "the source game, its canonical game and three plays", sourceLocation: location)

    // The same batch again, a clock tick, and a refused batch: nothing new.
    _ = try await store.write(batch(scored, plays: plays))
    var tick = scored
    tick.clock = "07:30"
    _ = try await store.write(batch(tick, plays: plays))
    var broken = tick
    broken.away.score = 9
    broken.period = nil
    _ = try? await store.write(batch(broken))
    #expect(try await store.events(since: 0, limit: 100) == events, "exactly once", sourceLocation: location)
    // Another parser's page about the same game, with the same facts and a venue: rewritten, no event.
    var other = tick
    other.venue = "Klöckner Stadium"
    var second = batch(other)
    second.parser = "q"
    #expect(
      try await store.write(second).written == 2, "the source game and its canonical game", sourceLocation: location)
    #expect(try await store.events(since: 0, limit: 100) == events, "same facts, no event", sourceLocation: location)
    #expect(store.eventBell.rings == 3, "writes that made no event rang no bell", sourceLocation: location)

    // A poll commit derives its events in the same transaction as its batch.
    var final = other
    final.status = .final
    final.clock = nil
    _ = try await store.commit(PollCommit(batch: batch(final), states: []))
    let after = try await store.events(since: 7, limit: 100)
    #expect(after.map(\.type) == [.final] && after.first?.side == .away, sourceLocation: location)
    #expect(store.eventBell.rings == 4, "a poll's commit rings it too", sourceLocation: location)
    #expect(try await store.events(since: 0, limit: 3).map(\.sequence) == [1, 2, 3], sourceLocation: location)
  }

  static func cursorsAndDeadLettersRoundTrip(_ store: any ScheduleStore & EventLog, _ location: SourceLocation)
    async throws
  {
    #expect(try await store.cursor(of: "hook") == 0, sourceLocation: location)
    try await store.setCursor(5, of: "hook")
    try await store.setCursor(7, of: "hook")
    try await store.setCursor(2, of: "file")
    #expect(try await store.cursor(of: "hook") == 7, sourceLocation: location)
    #expect(try await store.cursor(of: "file") == 2, sourceLocation: location)
    _ = try await store.write(batch(StoreContract.game("g:1", away: nil, home: nil, status: .scheduled)))
    let event = try #require(try await store.events(since: 0, limit: 1).first, sourceLocation: location)
    let letter = DeadLetter(
      sink: "hook", event: event, attempts: 4, error: "HTTP 503", failedAt: Date(timeIntervalSince1970: 1_000))
    try await store.addDeadLetter(letter)
    #expect(try await store.deadLetters(sink: "hook") == [letter], sourceLocation: location)
    #expect(try await store.deadLetters(sink: "file").isEmpty, sourceLocation: location)
    #expect(try await store.deadLetters(sink: nil) == [letter], sourceLocation: location)
    try await store.removeDeadLetter(sink: "hook", sequence: event.sequence)
    #expect(try await store.deadLetters(sink: nil).isEmpty, sourceLocation: location)
  }
}

/// The read side every store offers the read API: games by sport and date, a game, its box
/// score and plays after a sequence, the version.
public enum StoreReaderContract {
  public static func check(
    _ make: () async throws -> any Store & StoreReader, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let store = try await make()
    var first = StoreContract.game("g:1", away: 2, home: 1, status: .live)
    first.date = "2026-03-07"
    var second = StoreContract.game("g:2", away: nil, home: nil, status: .scheduled)
    second.date = "2026-03-08"
    var women = StoreContract.game("g:3", away: 0, home: 0, status: .live)
    women.sport = .lacrosseWomen
    women.date = "2026-03-07"
    let box = BoxScore(
      gameId: "g:1", away: TeamBox(players: [PlayerLine(name: "Ann Lee", stats: [StatKey.goals: 2])]),
      home: TeamBox(players: [PlayerLine(name: "Bo Day", stats: [StatKey.goals: 1])]))
    let plays = (1...5).map { Play(gameId: "g:1", sequence: $0, period: 1, type: .shot, text: "Shot \($0)") }
    let teams = [
      Team(id: "t:1", name: "Army", sport: .lacrosseMen), Team(id: "t:2", name: "Navy", sport: .lacrosseMen),
      Team(id: "t:9", name: "Northwestern", sport: .lacrosseWomen),
    ]
    _ = try await store.write(Batch(games: [first, second, women], teams: teams, boxScores: [box], plays: plays))
    #expect(
      try await store.version() == 15, "3 source games, 3 canonical, 3 teams, 6 others", sourceLocation: sourceLocation)
    let (one, two, three) = (
      StoreContract.canonical(first), StoreContract.canonical(second), StoreContract.canonical(women)
    )
    let army = try #require(one.away.team.id, sourceLocation: sourceLocation)
    let navy = try #require(one.home.team.id, sourceLocation: sourceLocation)
    #expect(try await store.teams(sport: .lacrosseMen).map(\.id) == ["t:1", "t:2"], sourceLocation: sourceLocation)
    #expect(try await store.teams(sport: nil).count == 3, sourceLocation: sourceLocation)
    #expect(try await store.team(id: "t:9")?.name == "Northwestern", sourceLocation: sourceLocation)
    #expect(try await store.team(id: "t:0") == nil, sourceLocation: sourceLocation)
    #expect(
      try await store.games(team: army, datePrefix: "2026").map(\.id) == [one.id, three.id, two.id],
      "home or away (by canonical team), by date then id", sourceLocation: sourceLocation)
    #expect(
      try await store.games(team: navy, datePrefix: "2026-03-08").map(\.id) == [two.id], sourceLocation: sourceLocation)
    #expect(try await store.games(team: army, datePrefix: "2025").isEmpty, sourceLocation: sourceLocation)
    #expect(try await store.game(id: one.id) == one, sourceLocation: sourceLocation)
    #expect(
      try await store.game(id: "g:1") == one, "a source id answers its canonical game", sourceLocation: sourceLocation)
    var stamped = first
    stamped.canonicalId = one.id
    #expect(try await store.sourceGame(id: "g:1") == stamped, "the source's own record", sourceLocation: sourceLocation)
    #expect(try await store.sourceGames().map(\.id) == ["g:1", "g:2", "g:3"], sourceLocation: sourceLocation)
    #expect(try await store.game(id: "g:9") == nil, sourceLocation: sourceLocation)
    #expect(
      try await store.games(sport: .lacrosseMen, date: "2026-03-07").map(\.id) == [one.id],
      sourceLocation: sourceLocation)
    #expect(
      try await store.games(sport: nil, date: "2026-03-07").map(\.id) == [one.id, three.id].sorted(),
      sourceLocation: sourceLocation)
    #expect(
      try await store.games(sport: .lacrosseMen, date: nil).map(\.id) == [one.id, two.id].sorted(),
      sourceLocation: sourceLocation)
    #expect(try await store.boxScore(gameId: "g:1") == box, sourceLocation: sourceLocation)
    #expect(try await store.boxScore(gameId: "g:2") == nil, sourceLocation: sourceLocation)
    // The batch read (a day's preload): each box score with the version the changes feed gave it.
    let changes = try await store.changes(since: 0, limit: 100)
    let boxVersion = try #require(changes.first { $0.kind == .boxScore && $0.id == "g:1" }?.version)
    #expect(
      try await store.boxScores(gameIds: ["g:1", "g:2", "g:9"]) == ["g:1": StoredBoxScore(box, version: boxVersion)],
      "games without a box score are left out", sourceLocation: sourceLocation)
    #expect(try await store.boxScores(gameIds: []).isEmpty, sourceLocation: sourceLocation)
    // The canonical game's version is the one delta sync gave it; a source game's own record has one too.
    let canonicalVersion = try #require(changes.last { $0.kind == .game && $0.id == one.id }?.version)
    let gameVersions = try await store.gameVersions(ids: [one.id, "g:1", "g:9"])
    #expect(gameVersions[one.id] == canonicalVersion, sourceLocation: sourceLocation)
    #expect(Set(gameVersions.keys) == [one.id, "g:1"], "a game not stored is left out", sourceLocation: sourceLocation)
    #expect(try await (1...store.version()).contains(gameVersions["g:1"] ?? 0), sourceLocation: sourceLocation)
    #expect(
      try await store.plays(gameId: "g:1", after: 2, limit: 2).map(\.sequence) == [3, 4], sourceLocation: sourceLocation
    )
    #expect(try await store.plays(gameId: "g:2", after: 0, limit: 10).isEmpty, sourceLocation: sourceLocation)
    if let schedule = store as? any ScheduleStore {
      try await freshness(schedule, reader: store, game: first, canonical: one, sourceLocation: sourceLocation)
    }
  }

  /// The freshness board a store builds from its schedule (SQLite reads only the fields it
  /// needs) judges as one built from the target states.
  static func freshness(
    _ schedule: any ScheduleStore, reader: any StoreReader, game: Game, canonical: Game, sourceLocation: SourceLocation
  ) async throws {
    let now = Date(timeIntervalSince1970: 1_772_913_600)
    var feed = TargetState(
      target: Target(url: "https://stats.example.edu/g1.xml", source: "s", parser: "p", role: .game), nextDue: now,
      gameId: game.id)
    feed.lastSucceeded = now.addingTimeInterval(-100)
    feed.cadence = 30
    feed.outcome = .failed
    feed.lastError = "HTTP 500"
    var board = TargetState(
      target: Target(url: "https://stats.example.edu/board", source: "s", parser: "q", role: .discovery), nextDue: nil)
    board.lastSucceeded = now.addingTimeInterval(-20)
    board.games = [game]
    _ = try await schedule.commit(PollCommit(batch: nil, states: [feed, board]))
    let expected = FreshnessBoard(targets: [feed, board], hosts: [])
    let built = try await reader.freshnessBoard()
    for at in [now, now.addingTimeInterval(3_600)] {
      #expect(
        built.freshness(of: game, changedAt: nil, now: at) == expected.freshness(of: game, changedAt: nil, now: at),
        sourceLocation: sourceLocation)
    }
    #expect(built.freshness(of: game, changedAt: nil, now: now).target == board.id, sourceLocation: sourceLocation)
    #expect(
      built.freshness(of: canonical, changedAt: nil, now: now) == built.freshness(of: game, changedAt: nil, now: now),
      "a canonical game is as fresh as its sources", sourceLocation: sourceLocation)
    #expect(try await reader.lastSuccessfulPoll() == board.lastSucceeded, sourceLocation: sourceLocation)
    // A routine 304 is touched, not committed: its success still counts.
    try await schedule.touch(feed.id, succeededAt: now.addingTimeInterval(-5), nextDue: now.addingTimeInterval(25))
    let touched = try await reader.freshnessBoard().freshness(of: game, changedAt: nil, now: now)
    #expect(
      touched.target == feed.id && touched.polledAt == now.addingTimeInterval(-5), sourceLocation: sourceLocation)
    let state = try await schedule.targets().first { $0.id == feed.id }
    #expect(
      state?.lastSucceeded == now.addingTimeInterval(-5) && state?.nextDue == now.addingTimeInterval(25),
      "the touched state reads back whole", sourceLocation: sourceLocation)
    #expect(try await reader.lastSuccessfulPoll() == now.addingTimeInterval(-5), sourceLocation: sourceLocation)
  }
}
