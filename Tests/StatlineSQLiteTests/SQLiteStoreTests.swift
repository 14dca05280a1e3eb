import Foundation
import StatlineCore
import StatlineSQLite
import StatlineTesting
import Testing

@Suite struct SQLiteStoreTests {
  static func temporaryPath() -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("statline-\(UUID()).sqlite").path
  }

  static func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }

  @Test func theDeviceRegistryPassesItsContract() async throws {
    var paths: [String] = []
    defer { paths.forEach(Self.remove) }
    try await DeviceRegistryContract.check {
      let path = Self.temporaryPath()
      paths.append(path)
      _ = try SQLiteStore(path: path)
      return try SQLiteDeviceRegistry(path: path)
    }
  }

  @Test func thePushOutboxPassesItsContract() async throws {
    var paths: [String] = []
    defer { paths.forEach(Self.remove) }
    try await PushOutboxContract.check {
      let path = Self.temporaryPath()
      paths.append(path)
      _ = try SQLiteStore(path: path)
      return try SQLiteDeviceRegistry(path: path)
    }
  }

  @Test func theDeviceRegistryNeedsAStoreOfThisSchema() throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    #expect(throws: StatlineError.self) { try SQLiteDeviceRegistry(path: path) }
  }

  @Test func passesTheStoreContract() async throws {
    var paths: [String] = []
    defer { paths.forEach(Self.remove) }
    func make() throws -> SQLiteStore {
      let path = Self.temporaryPath()
      paths.append(path)
      return try SQLiteStore(path: path, planner: TestFeeds.planner)
    }
    try await StoreContract.check(make)
    try await ScheduleStoreContract.check(make)
    try await EventLogContract.check(make)
    try await CanonicalStoreContract.check(make)
    try await StoreReaderContract.check(make)
    try await CaptureLogContract.check(make)
    try await RankingStoreContract.check(make)
    try await LogoStoreContract.check(make)
  }

  @Test func aReadOnlyStoreReadsWhatTheJobWritesAndCannotWrite() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    let writer = try SQLiteStore(path: path)
    var game = Game(
      id: "g:1", sport: .lacrosseMen, status: .live, period: 1, away: TeamLine(team: TeamRef(name: "A"), score: 0),
      home: TeamLine(team: TeamRef(name: "B"), score: 0))
    _ = try await writer.write(Batch(games: [game]))
    let reader = try SQLiteStore(readOnlyPath: path)
    #expect(try await reader.game(id: "g:1") == StoreContract.canonical(game))
    game.away.score = 1
    _ = try await writer.write(Batch(games: [game]))
    #expect(try await reader.game(id: "g:1")?.away.score == 1, "WAL: the reader sees the job's commits")
    game.away.score = 2
    await #expect(throws: StatlineError.self, "a read-only store cannot write") {
      try await reader.write(Batch(games: [game]))
    }
    #expect(throws: StatlineError.self) { try SQLiteStore(readOnlyPath: path + ".missing") }
  }

  @Test func eventsAndCursorsSurviveAReopenAndAreNotDerivedAgain() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    var game = Game(
      id: "g:1", sport: .lacrosseMen, status: .live, period: 2, away: TeamLine(team: TeamRef(name: "A"), score: 1),
      home: TeamLine(team: TeamRef(name: "B"), score: 0))
    _ = try await SQLiteStore(path: path).write(Batch(games: [game]))
    game.away.score = 2
    let store = try SQLiteStore(path: path)
    _ = try await store.write(Batch(games: [game]))
    try await store.setCursor(1, of: "hook")
    let reopened = try SQLiteStore(path: path)
    _ = try await reopened.write(Batch(games: [game]))
    #expect(try await reopened.events(since: 0, limit: 10).map(\.type) == [.discovered, .goal])
    #expect(try await reopened.cursor(of: "hook") == 1)
    #expect(try await reopened.lastEventSequence() == 2)
  }

  @Test func targetStatesSurviveAReopen() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    var state = TargetState(
      target: Target(url: "http://127.0.0.1/1.xml", source: "s", parser: "p", role: .game),
      nextDue: Date(timeIntervalSince1970: 5_000))
    state.etag = "W/\"abc\""
    state.bodyHash = 0x8000_0000_0000_0001
    _ = try await SQLiteStore(path: path).commit(PollCommit(batch: nil, states: [state]))
    #expect(try await SQLiteStore(path: path).targets() == [state])
  }

  @Test func usesWALAndTheLatestSchema() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    let store = try SQLiteStore(path: path)
    #expect(try await store.journalMode() == "wal")
    #expect(try await store.schemaVersion() == 13)
    #expect(try await store.integrityCheck() == "ok")
  }

  @Test func theWALIsRecycledSoALongRunningJobStaysBounded() async throws {
    // A read statement left on a row kept a snapshot open, no checkpoint could recycle the WAL,
    // and the job's memory (the mapped WAL index) and disk grew with every changed page.
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    let store = try SQLiteStore(path: path)
    let text = String(repeating: "x", count: 4_000)
    for round in 0..<1_500 {
      let plays = (1...4).map { Play(gameId: "ncaa:1", sequence: $0, type: .other, text: "\(round) \($0) \(text)") }
      _ = try await store.write(Batch(plays: plays))
    }
    let wal = try FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int ?? 0
    #expect(wal < 8 << 20, "the WAL is \(wal) bytes after 1,500 writes of ~16 KB: it is not being checkpointed")
  }

  @Test func dataAndVersionsSurviveAReopen() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    let game = Game(
      id: "ncaa:1", sport: .lacrosseMen, status: .final, date: "2025-02-01",
      away: TeamLine(team: TeamRef(name: "Air Force"), score: 8, periodScores: [2, 2, 2, 2]),
      home: TeamLine(team: TeamRef(name: "Lafayette"), score: 11, periodScores: [3, 3, 3, 2]))
    let plays = (1...3).map { Play(gameId: "ncaa:1", sequence: $0, period: 1, type: .faceoff, text: "Faceoff \($0)") }
    do {
      let store = try SQLiteStore(path: path)
      let write = try await store.write(Batch(games: [game], plays: plays))
      #expect(write == StoreWrite(written: 5, unchanged: 0, version: 5, events: [.discovered: 1]))
    }
    let reopened = try SQLiteStore(path: path)
    #expect(try await reopened.version() == 5)
    let changes = try await reopened.changes(since: 0, limit: 10)
    let canonical = "game:2025-02-01:lacrosse-men:342~721"
    #expect(changes.map(\.id) == [canonical, "ncaa:1#1", "ncaa:1#2", "ncaa:1#3"], "Lafayette is 342, Air Force 721")
    #expect(changes.first?.record == .game(StoreContract.canonical(game)))
    let again = try await reopened.write(Batch(games: [game], plays: plays))
    #expect(
      again == StoreWrite(written: 0, unchanged: 5, version: 5),
      "a process that did not write the game merges it again, and finds the canonical game unchanged")
  }

  @Test func aStoreFromBeforeCanonicalGamesGetsThemAndOldCursorsMustResync() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    let game = Game(
      id: "ncaa:1", sport: .lacrosseMen, status: .final, date: "2025-02-01",
      away: TeamLine(team: TeamRef(name: "Air Force"), score: 8),
      home: TeamLine(team: TeamRef(name: "Lafayette"), score: 11))
    _ = try await SQLiteStore(path: path).write(
      Batch(games: [game], teams: [Team(id: "ncaa:org-721", name: "Air Force")]))
    // Back to schema 6, as a Statline before canonical games left it.
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = [
      "python3", "-c",
      """
      import sqlite3,sys; c=sqlite3.connect(sys.argv[1])
      c.execute("DELETE FROM games WHERE id LIKE 'game:%'"); c.execute("DELETE FROM events")
      c.execute("UPDATE games SET json = json_remove(json, '$.canonicalId'), version = 1")
      c.execute("UPDATE teams SET version = 2"); c.execute("UPDATE store_version SET version = 2")
      c.execute("ALTER TABLE store_version DROP COLUMN resync_below")
      c.execute("ALTER TABLE store_version DROP COLUMN canonical_ids"); c.execute("DROP TABLE rankings")
      c.execute("DROP INDEX targets_by_stamp"); c.execute("ALTER TABLE targets DROP COLUMN stamp")
      c.execute("PRAGMA user_version = 6"); c.commit()
      """, path,
    ]
    try sqlite.run()
    sqlite.waitUntilExit()
    let store = try SQLiteStore(path: path)
    #expect(try await store.schemaVersion() == 13)
    let canonical = "game:2025-02-01:lacrosse-men:342~721"
    #expect(try await store.game(id: "ncaa:1")?.id == canonical, "the stored game has its canonical game")
    #expect(try await store.sourceGame(id: "ncaa:1")?.canonicalId == canonical)
    #expect(try await store.events(since: 0, limit: 10).isEmpty, "no events for what happened before")
    do {
      _ = try await store.changes(since: 2, limit: 10)
      Issue.record("a cursor from before the migration must resync")
    } catch let error as StoreResync {
      #expect(error == StoreResync(cursor: 2, floor: 3))
    }
    #expect(try await store.changes(since: 0, limit: 10).map(\.id) == ["ncaa:org-721", canonical])
    let version = try await store.version()
    #expect(try await store.changes(since: version, limit: 10).isEmpty, "a cursor from after it is answered")
    _ = try SQLiteStore(path: path)
    #expect(try await store.version() == version, "the next open has nothing to assign")
  }

  @Test func aStoreFromANewerStatlineIsRefused() async throws {
    let path = Self.temporaryPath()
    defer { Self.remove(path) }
    _ = try SQLiteStore(path: path)
    let sqlite = Process()
    sqlite.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    sqlite.arguments = [
      "python3", "-c",
      "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('PRAGMA user_version = 99'); c.commit()", path,
    ]
    try sqlite.run()
    sqlite.waitUntilExit()
    do {
      _ = try SQLiteStore(path: path)
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .store)
      #expect(error.reason == "the store has schema version 99, newer than this Statline's 13")
    }
  }

  @Test func anUnwritablePathIsAClearError() {
    do {
      _ = try SQLiteStore(path: "/nonexistent-folder/statline.sqlite")
      Issue.record("expected an error")
    } catch {
      #expect(error.kind == .store)
      #expect(error.location == "/nonexistent-folder/statline.sqlite")
      #expect(error.reason.hasPrefix("cannot open the SQLite store"))
    }
  }
}

/// The read API's freshness board takes only the targets a commit changed (issue 33).
@Suite struct FreshnessChangesTests {
  @Test func onlyTheTargetsChangedSinceAStampAreRead() async throws {
    let path = SQLiteStoreTests.temporaryPath()
    defer { SQLiteStoreTests.remove(path) }
    let store = try SQLiteStore(path: path)
    func state(_ id: String) -> TargetState {
      var state = TargetState(
        target: Target(url: "https://stats.example.edu/\(id)", source: "ncaa", parser: "p", role: .game),
        nextDue: Date(timeIntervalSince1970: 1_772_913_600))
      state.lastPolled = Date(timeIntervalSince1970: 1_772_913_500)
      return state
    }
    _ = try await store.commit(PollCommit(batch: nil, states: [state("a"), state("b")]))
    let first = try await store.stamp().schedule
    #expect(try await store.freshnessChanges(since: first)?.feeders.isEmpty == true)
    var failed = state("b")
    failed.outcome = .failed
    _ = try await store.commit(PollCommit(batch: nil, states: [failed]))
    let changes = try #require(try await store.freshnessChanges(since: first))
    #expect(changes.feeders.map(\.0.id) == [failed.id] && changes.feeders.first?.0.outcome == .failed)
    try await store.touch(state("a").id, succeededAt: Date(timeIntervalSince1970: 1_772_913_590), nextDue: nil)
    let touched = try #require(try await store.freshnessChanges(since: try await store.stamp().schedule - 1))
    #expect(touched.feeders.map(\.0.id) == [state("a").id] && touched.feeders.first?.0.retired == true)
    #expect(try await store.freshnessChanges(since: 0)?.feeders.count == 2, "every target since the start")
  }
}
