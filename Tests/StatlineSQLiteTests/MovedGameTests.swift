import Foundation
import StatlineCore
import StatlineSQLite
import Testing

/// A source game whose team is corrected by a process that never wrote it (a restart): the
/// canonical game it was in is found from the source game's own stored record and retired in the
/// same write, although nothing in memory says where the game was.
@Suite struct MovedGameTests {
  @Test func aTeamCorrectedAfterARestartLeavesNoGhost() async throws {
    let path = SQLiteStoreTests.temporaryPath()
    defer { SQLiteStoreTests.remove(path) }
    func game(home: String) -> Game {
      Game(
        id: "statbroadcast:4", sport: .lacrosseMen, status: .live, period: 2, clock: "04:00", date: "2026-03-07",
        away: TeamLine(team: TeamRef(name: "Army"), score: 3), home: TeamLine(team: TeamRef(name: home), score: 1))
    }
    let first: String
    do {
      let store = try SQLiteStore(path: path)
      _ = try await store.write(Batch(games: [game(home: "Navy")]))
      first = try #require(try await store.game(id: "statbroadcast:4")?.id)
    }
    let reopened = try SQLiteStore(path: path)
    _ = try await reopened.write(Batch(games: [game(home: "Duke")]))
    let moved = try #require(try await reopened.game(id: "statbroadcast:4"))
    #expect(moved.id != first && moved.home.team.name == "Duke")
    #expect(try await reopened.game(id: first)?.retiredInto == moved.id)
    #expect(try await reopened.games(sport: .lacrosseMen, date: "2026-03-07").map(\.id) == [moved.id])
    let events = try await reopened.events(since: 0, limit: 10).map { "\($0.type) \($0.gameId)" }
    #expect(events == ["game.discovered \(first)", "game.discovered \(moved.id)", "game.retired \(first)"])
  }
}
