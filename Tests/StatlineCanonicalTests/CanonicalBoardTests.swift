import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

/// `statline replay --merge`'s board: a page that corrects a team moves its game, and the game it
/// left goes (or keeps its other sources), as in a store.
@Suite struct CanonicalBoardTests {
  static func game(_ id: String, home: String) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: .live, period: 1, date: "2026-03-14",
      away: TeamLine(team: TeamRef(name: "Army"), score: 1), home: TeamLine(team: TeamRef(name: home), score: 0))
  }

  @Test func aCorrectedTeamMovesTheGameAndTheOneItLeftGoes() throws {
    var board = CanonicalBoard(merger: GameMergerTests.merger)
    let time = Date(timeIntervalSince1970: 0)
    board.add(Self.game("statbroadcast:1", home: "Navy"), at: time)
    let first = try #require(board.canonicalId(of: "statbroadcast:1"))
    board.add(Self.game("statbroadcast:1", home: "Duke"), at: time)
    let moved = try #require(board.canonicalId(of: "statbroadcast:1"))
    #expect(moved != first)
    #expect(Array(board.merged.keys) == [moved], "one game for one source game")
  }

  @Test func theGameItLeftKeepsItsOtherSources() throws {
    var board = CanonicalBoard(merger: GameMergerTests.merger)
    let time = Date(timeIntervalSince1970: 0)
    board.add(Self.game("statbroadcast:1", home: "Navy"), at: time)
    board.add(Self.game("ncaa:com-1", home: "Navy"), at: time)
    let first = try #require(board.canonicalId(of: "ncaa:com-1"))
    #expect(board.merged[first]?.sources.count == 2)
    board.add(Self.game("statbroadcast:1", home: "Duke"), at: time)
    #expect(board.merged[first]?.sources == ["ncaa:com-1"])
    #expect(board.merged.count == 2)
  }
}
