import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCommit

/// The one write path (`CommitPlanner`): what it reads, what it plans, how it numbers. Every
/// store runs it; the store contract suites check the stores that answer its reads, these check
/// the planner against reads it can count.
@Suite struct CommitPlannerTests {
  /// A store's reads over plain tables, counting each call.
  struct Reads: CommitReads {
    var recent = RecentRecords()
    var trustsMemory = false
    var games: [String: StoredGame] = [:]
    var hashes: [RecordKey: StoredRecord] = [:]
    var events: [String: [ChangeEvent]] = [:]
    var gameRounds: [[String]] = []
    var recordReads: [[String]] = []
    var eventReads: [[String]] = []

    func remembered<Value>(_ body: (RecentRecords) -> Value) -> Value { body(recent) }

    mutating func games(_ ids: [String]) -> [String: StoredGame] {
      gameRounds.append(ids)
      return games.filter { ids.contains($0.key) }
    }

    mutating func records(of rows: [PlannedRow], games: Bool) -> [RecordKey: StoredRecord] {
      recordReads.append(rows.map(\.id))
      return hashes.filter { key, _ in rows.contains { $0.key == key } }
    }

    mutating func recentEvents(of gameIds: [String]) -> [String: [ChangeEvent]] {
      eventReads.append(gameIds)
      return events.filter { gameIds.contains($0.key) }
    }

    /// Keeps a plan as a store would after committing it: its changed rows stored and remembered.
    mutating func commit(_ plan: CommitPlan, at time: Date) {
      for row in plan.changed {
        var game: Game?
        if case .game(let value) = row.record {
          game = value
          games[row.id] = StoredGame(game: value, hash: row.hash, changedAt: time)
        }
        hashes[RecordKey(row.kind, row.id)] = StoredRecord(hash: row.hash, game: game)
      }
      CommitPlannerTests.planner.remember(plan, in: &recent)
    }
  }

  static let planner = TestFeeds.planner
  static let time = Date(timeIntervalSince1970: 1_773_000_000)

  static func game(away: Int, home: Int, clock: String = "10:00") -> Game {
    Game(
      id: "ncaa:1", sport: .lacrosseMen, status: .live, period: 2, clock: clock, date: "2026-03-07",
      away: TeamLine(team: TeamRef(name: "Duke"), score: away),
      home: TeamLine(team: TeamRef(name: "Army West Point"), score: home))
  }

  static func plan(_ batch: Batch, on reads: inout Reads) throws -> CommitPlan {
    try planner.plan(try planner.screened(batch), at: time, on: &reads)
  }

  @Test func aFirstWriteReadsCandidatesOnceAndNumbersRowsAndEventsFromOne() throws {
    var reads = Reads()
    let plan = try Self.plan(Batch(games: [Self.game(away: 1, home: 0)]), on: &reads)
    #expect(reads.gameRounds.count == 1, "one round: the candidates and the game itself")
    #expect(reads.gameRounds.first?.contains("ncaa:1") == true)
    #expect(plan.changed.map(\.id).count == 2 && plan.changed[0].id == "ncaa:1")
    #expect(plan.changed[1].id.hasPrefix(Game.canonicalPrefix), "the canonical game the merge made")
    #expect(plan.unchanged == 0)
    #expect(plan.events.map(\.sequence) == Array(1...Int64(plan.events.count)))
    #expect(plan.events.allSatisfy { $0.version == 2 }, "the canonical game is the second row")
    #expect(plan.events.allSatisfy { $0.gameId == plan.changed[1].id }, "events speak of the canonical game")
    #expect(plan.reads.absent.contains(plan.changed[1].id), "its canonical game was looked up and absent")

    // The store numbers them after its own version and last event.
    let (rows, events) = plan.numbered(afterVersion: 40, sequence: 7)
    #expect(rows.map(\.version) == [41, 42])
    #expect(events.first?.sequence == 8 && events.first?.id == "evt_8" && events.first?.version == 42)
    #expect(plan.write(version: 42) == StoreWrite(written: 2, unchanged: 0, version: 42, events: plan.eventCounts))
  }

  @Test func aLiveGameThePlannerRemembersIsMergedWithoutAReadWhenTheMemoryIsTheStores() throws {
    for trusted in [true, false] {
      var reads = Reads()
      reads.commit(try Self.plan(Batch(games: [Self.game(away: 1, home: 0)]), on: &reads), at: Self.time)
      reads.trustsMemory = trusted
      reads.gameRounds = []
      reads.recordReads = []
      let plan = try Self.plan(Batch(games: [Self.game(away: 2, home: 0, clock: "08:00")]), on: &reads)
      #expect(plan.events.map(\.type).contains(.goal), "the second goal")
      if trusted {
        #expect(reads.gameRounds.isEmpty, "merged from memory: no round of reads")
        #expect(reads.recordReads.isEmpty, "both games' stored hashes are what the merge held")
      } else {
        #expect(reads.gameRounds.count == 1, "the canonical game it was placed in, read")
      }
      #expect(plan.reads.found.count == 2, "the source game and its canonical game, held for the commit")
    }
  }

  @Test func anUnchangedRecordIsNeitherEncodedNorWrittenAndAChangedOneIsBoth() throws {
    var reads = Reads()
    let first = Batch(
      games: [Self.game(away: 1, home: 0)], teams: [Team(id: "ncaa:t1", name: "Duke", sport: .lacrosseMen)])
    reads.commit(try Self.plan(first, on: &reads), at: Self.time)
    reads.eventReads = []
    let again = try Self.plan(first, on: &reads)
    #expect(again.changed.isEmpty && again.events.isEmpty)
    #expect(again.rows.filter { $0.kind == .team }.allSatisfy { $0.json == nil }, "its hash came from memory")
    #expect(reads.eventReads.isEmpty, "no changed game: no event read")

    var renamed = first
    renamed.teams[0].name = "Duke Blue Devils"
    let changed = try Self.plan(renamed, on: &reads)
    #expect(changed.changed.map(\.id) == ["ncaa:t1"])
    #expect(changed.unchanged == changed.rows.count - 1)
  }

  @Test func aBatchThatBreaksTheContractIsRefusedBeforeAnythingIsRead() {
    var reads = Reads()
    var broken = Self.game(away: 3, home: 0)
    broken.away.periodScores = [1, 1]
    #expect(throws: StatlineError.self) { try Self.plan(Batch(games: [broken]), on: &reads) }
    #expect(reads.gameRounds.isEmpty && reads.recordReads.isEmpty)
  }

  @Test func aTiedGameAsksWhoLedLastAndOnlyThen() throws {
    var reads = Reads()
    reads.commit(try Self.plan(Batch(games: [Self.game(away: 1, home: 0)]), on: &reads), at: Self.time)
    reads.commit(try Self.plan(Batch(games: [Self.game(away: 1, home: 1, clock: "09:00")]), on: &reads), at: Self.time)
    #expect(reads.eventReads.isEmpty, "a game that was not tied before asks nothing")
    _ = try Self.plan(Batch(games: [Self.game(away: 1, home: 2, clock: "08:00")]), on: &reads)
    #expect(reads.eventReads.count == 1 && reads.eventReads[0].first?.hasPrefix(Game.canonicalPrefix) == true)
  }

  @Test func aPlannerThatDoesNotMergeKeepsSourceGamesAloneAndReadsNoCandidate() throws {
    var reads = Reads()
    let planner = CommitPlanner(
      canonical: .init(merger: TestFeeds.canonical.merger, merges: false), derivesEvents: true)
    let plan = try planner.plan(Batch(games: [Self.game(away: 1, home: 0)]), at: Self.time, on: &reads)
    #expect(plan.changed.map(\.id) == ["ncaa:1"] && plan.events.isEmpty)
    #expect(reads.gameRounds.isEmpty)
  }
}
