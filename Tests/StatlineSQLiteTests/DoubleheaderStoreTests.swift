import Foundation
import StatlineCore
import StatlineSQLite
import Testing

/// A doubleheader written by two sources into a real store (issue 55): the stored source games
/// keep their numbers, so later polls match game by game, whichever came first.
@Suite struct DoubleheaderStoreTests {
  static func game(_ id: String, number: Int, away: Int, home: Int, names: (String, String)) -> Game {
    var game = Game(
      id: id, sport: .baseball, status: .final, period: 9, periodLabel: "Final", date: "2026-02-14",
      away: TeamLine(team: TeamRef(name: names.0), score: away, winner: away > home),
      home: TeamLine(team: TeamRef(name: names.1), score: home, winner: home > away))
    game.gameNumber = number
    return game
  }

  @Test func eachSourcesGameJoinsTheCanonicalGameOfItsNumber() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("dh-\(UUID()).sqlite").path
    let store = try SQLiteStore(path: path)
    let statcrew = ("Indiana", "North Carolina")
    let schedule = ("Indiana Hoosiers", "UNC")
    // Three polls: StatCrew's game 2, then the schedule's two games, then StatCrew's game 1.
    _ = try await store.write(
      Batch(games: [Self.game("statbroadcast:dh-2", number: 2, away: 4, home: 3, names: statcrew)]))
    _ = try await store.write(
      Batch(games: [
        Self.game("ncaa:6700102", number: 1, away: 2, home: 12, names: schedule),
        Self.game("ncaa:6700103", number: 2, away: 4, home: 3, names: schedule),
      ]))
    _ = try await store.write(
      Batch(games: [Self.game("statbroadcast:dh-1", number: 1, away: 2, home: 12, names: statcrew)]))
    let canonical = try await store.games(sport: .baseball, date: "2026-02-14").filter(\.isCanonical)
    let byId = Dictionary(uniqueKeysWithValues: canonical.map { ($0.id, $0) })
    #expect(byId.count == 2, "\(byId.keys.sorted())")
    let first = try #require(byId["game:2026-02-14:baseball:306~457"])
    let second = try #require(byId["game:2026-02-14:baseball:306~457~g2"])
    #expect(Set(first.sources ?? []) == ["ncaa:6700102", "statbroadcast:dh-1"] && first.gameNumber == 1)
    #expect(Set(second.sources ?? []) == ["ncaa:6700103", "statbroadcast:dh-2"] && second.gameNumber == 2)
    #expect(try await store.game(id: "statbroadcast:dh-2")?.gameNumber == 2, "the source game keeps its number")
  }
}
