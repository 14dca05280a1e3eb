import Foundation
import StatlineCore
import StatlinePostgres
import StatlineTesting
import Testing

/// Delta sync under concurrent writers: four stores (four workers' pools) write into one
/// database while a reader keeps syncing from its cursor; when they stop, what the reader
/// gathered is exactly a full read. A store that numbered versions before its commit would
/// let a late commit land below a reader's cursor, and the reader would never see it.
///
/// The six runs go one after another: each opens five stores (ten connections or more), and
/// twelve at once with the rest of the suite asked more than a default server's hundred.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)), .serialized)
struct ConcurrentDeltaSyncTests {
  static func game(_ id: String, score: Int, writer: Int) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: .live, period: 1 + score % 4, clock: "0\(writer):00",
      away: TeamLine(team: TeamRef(id: "t:a", name: "A"), score: score),
      home: TeamLine(team: TeamRef(id: "t:h", name: "H"), score: writer))
  }

  @Test(arguments: 1...6) func aReaderSyncingFromItsCursorMissesNothingWhileFourWorkersWrite(run: Int) async throws {
    try await TestPostgres.withStores { make in
      let first = try await make()
      var opened: [PostgresStore] = [first]
      for _ in 1..<4 { opened.append(try await PostgresStore.open(first.location)) }
      let writers = opened
      defer { Task { [writers] in for writer in writers.dropFirst() { await writer.close() } } }
      let reader = try await PostgresStore.openReadOnly(first.location)
      defer { Task { await reader.close() } }

      let finished = Finished()
      let writing = Task {
        defer { finished.done.withLock { $0 = true } }
        try await withThrowingTaskGroup(of: Void.self) { group in
          for (number, store) in writers.enumerated() {
            group.addTask {
              for round in 0..<25 {
                // Shared games (every writer changes g:0…g:2) and each writer's own plays.
                let game = Self.game("g:\(round % 3)", score: round, writer: number)
                let plays = (0..<3).map {
                  Play(
                    gameId: game.id, sequence: number * 1_000 + round * 3 + $0, period: 1, type: .shot,
                    text: "w\(number)")
                }
                // Half the writers commit as the job does (one statement, worked out before
                // the locks and retried when a shared game changed meanwhile), half under the
                // locks from the start.
                let batch = Batch(games: [game], plays: plays)
                if number % 2 == 0 {
                  _ = try await store.commit(PollCommit(batch: batch, states: []))
                } else {
                  _ = try await store.write(batch)
                }
              }
            }
          }
          try await group.waitForAll()
        }
      }
      var view: [String: StoreChange] = [:]
      var cursor: Int64 = 0
      var events: [ChangeEvent] = []
      func sync() async throws {
        while true {
          let page = try await reader.changes(since: cursor, limit: 37)
          for change in page {
            #expect(change.version > cursor, "versions only move forward")
            view["\(change.kind)#\(change.id)"] = change
            cursor = change.version
          }
          let more = try await reader.events(since: events.last?.sequence ?? 0, limit: 29)
          events += more
          if page.isEmpty && more.isEmpty { return }
        }
      }
      var passes = 0
      while !finished.done.withLock({ $0 }) {
        try await sync()
        passes += 1
      }
      try await writing.value
      try await sync()

      let full = try await reader.changes(since: 0, limit: 1_000_000)
      let fullView = Dictionary(full.map { ("\($0.kind)#\($0.id)", $0) }) { a, _ in a }
      #expect(full.count == fullView.count, "run \(run): one change per record")
      let missed = fullView.filter { view[$0.key] != $0.value }.map { "\($0.key)@\($0.value.version)" }.sorted()
      #expect(missed.isEmpty, "run \(run): the reader's view equals a full read; it missed \(missed.prefix(10))")
      #expect(view.count == fullView.count, "run \(run): nothing the full read lacks")
      let allEvents = try await reader.events(since: 0, limit: 1_000_000)
      #expect(events.map(\.sequence) == allEvents.map(\.sequence), "run \(run): every event once, in order")
      #expect(events == allEvents)
      #expect(allEvents.map(\.sequence) == Array(1...Int64(allEvents.count)), "no gaps in the sequence")
      #expect(try await reader.version() == Int64(full.map(\.version).max() ?? 0))
      #expect(passes > 1, "the reader synced while the writers wrote")
    }
  }
}

private final class Finished: Sendable {
  let done = Locked(false)
}
