import Foundation
import StatlineCore
import StatlinePostgres
import StatlineTesting
import Testing

/// Two workers on one database that see two sources of one game at the same moment end with one
/// canonical game holding both (architecture.md#canonical-games): both make the same id, and the second to commit
/// finds the first's record where it read none, writes nothing, reads again and joins it.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct CanonicalRaceTests {
  /// Game `n`: Duke (193) at North Carolina (457) on the `n`-th of March, as each feed names them.
  static func game(_ n: Int, feed: String) -> Game {
    let statCrew = feed == "statbroadcast"
    return Game(
      id: statCrew ? "statbroadcast:\(n)" : "ncaa:com-\(n)", sport: .lacrosseMen, status: .live, period: 2,
      clock: "05:00", date: String(format: "2026-03-%02d", n), startTime: nil,
      away: TeamLine(team: TeamRef(name: statCrew ? "DUKE" : "Duke"), score: 3),
      home: TeamLine(team: TeamRef(name: statCrew ? "UNC" : "North Carolina"), score: 4))
  }

  @Test func twoWorkersSeeingTwoSourcesOfOneGameAtOnceMakeOneCanonicalGame() async throws {
    try await TestPostgres.withStores { make in
      let first = try await make()
      let second = try await PostgresStore.open(first.location)
      defer { Task { await second.close() } }
      let games = 1...20
      try await withThrowingTaskGroup(of: Void.self) { group in
        for n in games {
          group.addTask {
            _ = try await first.commit(
              PollCommit(batch: Batch(games: [Self.game(n, feed: "statbroadcast")]), states: []))
          }
          group.addTask {
            _ = try await second.commit(PollCommit(batch: Batch(games: [Self.game(n, feed: "ncaa")]), states: []))
          }
        }
        try await group.waitForAll()
      }
      let canonical = try await first.games(sport: .lacrosseMen, date: nil)
      #expect(canonical.count == games.count, "one canonical game per game: \(canonical.map(\.id))")
      for game in canonical {
        #expect(Set(game.sources ?? []).count == 2, "\(game.id) holds both sources: \(game.sources ?? [])")
        #expect(game.id.hasSuffix(":lacrosse-men:193~457"), "\(game.id)")
      }
      let events = try await first.events(since: 0, limit: 1_000)
      #expect(events.filter { $0.type == .discovered }.count == games.count, "each game discovered once")
      #expect(!events.contains { $0.type == .goal }, "found in progress: no burst of goals")
      for n in games {
        #expect(
          try await first.sourceGame(id: "ncaa:com-\(n)")?.canonicalId
            == (try await first.game(id: "statbroadcast:\(n)"))?.id)
      }
    }
  }
}
