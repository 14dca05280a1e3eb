import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import StatlineCanonical

/// A doubleheader seen by two sources (issue 55): stats.ncaa.org's schedule numbers its games
/// (`02/14/2026(1)`, `(2)`), the StatCrew files say `dhgame`; neither gives a start time. Each
/// source's game 1 is one canonical game, game 2 another, whichever source and game came first.
@Suite struct DoubleheaderMergeTests {
  static func game(
    _ id: String, number: Int?, away: Int, home: Int, names: (String, String) = ("Indiana", "North Carolina")
  )
    -> Game
  {
    var game = Game(
      id: id, sport: .baseball, status: .final, period: 9, date: "2026-02-14",
      away: TeamLine(team: TeamRef(name: names.0), score: away),
      home: TeamLine(team: TeamRef(name: names.1), score: home))
    game.gameNumber = number
    return game
  }

  @Test func eachGameJoinsTheOtherSourcesGameOfItsNumber() throws {
    var board = CanonicalBoard(merger: GameMergerTests.merger)
    let time = Date(timeIntervalSince1970: 0)
    // The StatCrew file of game 2 first, then the schedule's two games, then game 1's file.
    board.add(Self.game("statbroadcast:dh-2", number: 2, away: 4, home: 3), at: time)
    board.add(Self.game("ncaa:6700102", number: 1, away: 2, home: 12), at: time)
    board.add(Self.game("ncaa:6700103", number: 2, away: 4, home: 3), at: time)
    board.add(
      Self.game("statbroadcast:dh-1", number: 1, away: 2, home: 12, names: ("Indiana Hoosiers", "UNC")), at: time)
    let second = try #require(board.canonicalId(of: "statbroadcast:dh-2"))
    let first = try #require(board.canonicalId(of: "statbroadcast:dh-1"))
    #expect(second == "game:2026-02-14:baseball:306~457~g2", "game 2 is ~g2 though it came first")
    #expect(first == "game:2026-02-14:baseball:306~457")
    #expect(board.canonicalId(of: "ncaa:6700103") == second && board.canonicalId(of: "ncaa:6700102") == first)
    #expect(Set(board.merged[second]?.sources ?? []) == ["statbroadcast:dh-2", "ncaa:6700103"])
    #expect(board.merged[second]?.game.gameNumber == 2 && board.merged[first]?.game.gameNumber == 1)
    #expect((board.merged[second]?.game.away.score, board.merged[second]?.game.home.score) == (4, 3))
  }

  @Test func anUnnumberedSourceStillJoinsAndANumberNeverJoinsAnother() {
    let first = GameMatcherTests.source("ncaa:1", "Indiana", "North Carolina", sport: .baseball)
    var numbered = first.game
    numbered.gameNumber = 1
    let one = SourceGame(
      game: numbered, registry: GameMatcherTests.registry, feeds: TestFeeds.feeds, liveChangedAt: GameMatcherTests.epoch
    )
    guard case .create(let entry) = GameMatcher.place(one, among: []) else {
      Issue.record("the first game creates its canonical game")
      return
    }
    var two = GameMatcherTests.source("statbroadcast:2", "Indiana", "North Carolina", sport: .baseball).game
    two.gameNumber = 2
    let other = SourceGame(
      game: two, registry: GameMatcherTests.registry, feeds: TestFeeds.feeds, liveChangedAt: GameMatcherTests.epoch)
    guard case .create(let created) = GameMatcher.place(other, among: [entry]) else {
      Issue.record("game 2 joined game 1")
      return
    }
    #expect(created.number == 2 && created.id.hasSuffix("~g2"))
    let plain = GameMatcherTests.source("statbroadcast:3", "Indiana", "North Carolina", sport: .baseball)
    #expect(
      GameMatcher.place(plain, among: [entry]) == .join(entry.id), "a source that numbers nothing joins as before")
  }
}
