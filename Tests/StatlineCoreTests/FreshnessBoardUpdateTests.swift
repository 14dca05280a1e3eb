import Foundation
import StatlineCore
import Testing

/// The freshness board is brought up to date per changed target (issue 33): a changed feeder
/// replaces what it was, under the games it feeds now, and the result is the board built whole.
struct FreshnessBoardUpdateTests {
  static let now = FreshnessBoardTests.now
  static let live = FreshnessBoardTests.live
  static let live2: Game = {
    var game = FreshnessBoardTests.live
    game.id = "ncaa:2"
    return game
  }()

  static func board(_ targets: [TargetState], hosts: [HostHealth] = []) -> FreshnessBoard {
    FreshnessBoard(targets: targets, hosts: hosts)
  }

  static func changes(_ targets: [TargetState], hosts: [HostHealth] = []) -> FreshnessBoard.Changes {
    let built = FreshnessBoard(targets: targets, hosts: hosts)
    var feeders: [(FreshnessBoard.Feeder, [String])] = []
    for state in targets {
      let feeder = built.feeders.values.flatMap { $0 }.first { $0.id == state.id }
      if let feeder { feeders.append((feeder, state.games.map(\.id))) }
    }
    return FreshnessBoard.Changes(feeders: feeders, hosts: hosts)
  }

  @Test func aChangedFeederReplacesItselfAndTheBoardIsTheWholeOne() {
    let fresh = FreshnessBoardTests.feeder("a", succeeded: 10)
    let other = FreshnessBoardTests.feeder("b", succeeded: 10, games: [Self.live, Self.live2])
    var board = Self.board([fresh, other])
    // Target a fails from now on; b stops listing the first game.
    let failing = FreshnessBoardTests.feeder("a", succeeded: 400, outcome: .failed, error: "network error: refused")
    let moved = FreshnessBoardTests.feeder("b", succeeded: 400, games: [Self.live2])
    board.apply(Self.changes([failing, moved]))
    let whole = Self.board([failing, moved])
    for game in [Self.live, Self.live2] {
      #expect(
        board.freshness(of: game, changedAt: nil, now: Self.now)
          == whole.freshness(of: game, changedAt: nil, now: Self.now), "\(game.id)")
    }
    #expect(board.feeders[Self.live.id]?.map(\.id) == [failing.id], "b no longer feeds it; a is there once")
    let answer = board.freshness(of: Self.live, changedAt: nil, now: Self.now)
    #expect(answer.stale && answer.reason == .failing)
  }

  @Test func theHostsAreTakenWholeEachTime() {
    let host = "stats.example.edu"
    var board = Self.board(
      [FreshnessBoardTests.feeder(succeeded: 400)],
      hosts: [HostHealth(host: host, breaker: .open, failures: 3, openUntil: Self.now, updated: Self.now)])
    #expect(board.openHosts[host] != nil)
    board.apply(FreshnessBoard.Changes(feeders: [], hosts: []))
    #expect(board.openHosts.isEmpty, "the breaker closed")
  }
}
