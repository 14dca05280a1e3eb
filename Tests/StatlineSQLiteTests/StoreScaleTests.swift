import Foundation
import StatlineCanonical
import StatlineCore
import Testing

@testable import StatlineSQLite

/// The store's work per poll does not grow with what it holds (issue 31): a live poll of one game
/// (its changed score and clock, its plays, its target's state, and the canonical game it merges
/// into) costs the same SQLite work in a store of 100 games and targets as in one of 3,000,
/// counted by SQLite itself (statements run, virtual machine steps, full-scan steps), never timed.
@Suite struct StoreScaleTests {
  static let schools = CanonicalStep.standard.merger.registry.teams

  /// Game `index`: two schools of its own (as on a real day), on a day of its own once the
  /// schools run out, live with five plays.
  static func game(_ index: Int, clock: String = "10:00", away: Int = 1) -> (Game, [Play], TargetState) {
    let (first, second) = (schools[(2 * index) % schools.count], schools[(2 * index + 1) % schools.count])
    let day = 20_520 + (2 * index) / schools.count
    let id = "statbroadcast:\(700_000 + index)"
    let game = Game(
      id: id, sport: .lacrosseMen, status: .live, period: 2, clock: clock, date: CivilDate.date(days: day),
      away: TeamLine(team: TeamRef(name: first.name), score: away, periodScores: [away, 0]),
      home: TeamLine(team: TeamRef(name: second.name), score: 1, periodScores: [1, 0]))
    let plays = (1...5).map { sequence in
      Play(
        gameId: id, sequence: sequence, period: 1, side: .away, type: .shot, text: "Shot by AWAY \(sequence)",
        player: "Player \(sequence)")
    }
    let state = TargetState(
      target: Target(
        url: "http://127.0.0.1:9/game/\(700_000 + index).xml", source: "statbroadcast",
        parser: "statbroadcast-game-xml", role: .game),
      nextDue: Date(timeIntervalSince1970: Double(1_800_000_000 + index)))
    return (game, plays, state)
  }

  /// The average work of ten polls into a store that holds `size` games and targets.
  static func workPerPoll(size: Int) async throws -> (statements: Double, steps: Double, fullScan: Double) {
    let path = SQLiteStoreTests.temporaryPath()
    defer { SQLiteStoreTests.remove(path) }
    let store = try SQLiteStore(path: path)
    let all = (0..<size).map { game($0) }
    for chunk in stride(from: 0, to: size, by: 500) {
      let part = all[chunk..<min(size, chunk + 500)]
      _ = try await store.commit(
        PollCommit(
          batch: Batch(games: part.map(\.0), plays: part.flatMap(\.1)), states: part.map(\.2)))
    }
    // Each poll once first (its memory, as a live cycle has it), then the ten measured.
    for index in 0..<10 {
      let (game, plays, state) = game(index, clock: "09:30")
      _ = try await store.commit(PollCommit(batch: Batch(games: [game], plays: plays), states: [state]))
    }
    let before = await store.statementWork()
    for index in 0..<10 {
      let (game, plays, state) = game(index, clock: "09:00", away: 2)
      var moved = plays
      moved[4].type = .goal
      moved[4].text = "GOAL by AWAY Player 5"
      moved[4].awayScore = 2
      moved[4].homeScore = 1
      let write = try await store.commit(PollCommit(batch: Batch(games: [game], plays: moved), states: [state]))
      #expect(write.written >= 2, "the source game, its canonical game and the changed play")
    }
    let after = await store.statementWork()
    return (
      Double(after.statements - before.statements) / 10,
      Double(after.virtualMachineSteps - before.virtualMachineSteps) / 10,
      Double(after.fullScanSteps - before.fullScanSteps) / 10
    )
  }

  @Test func aPollCostsTheSameWorkInASmallAndALargeStore() async throws {
    let small = try await Self.workPerPoll(size: 100)
    let large = try await Self.workPerPoll(size: 3_000)
    #expect(small.statements > 0 && small.steps > 0)
    #expect(large.statements == small.statements, "statements per poll: \(small) at 100, \(large) at 3,000")
    #expect(large.fullScan == small.fullScan, "full-scan steps per poll: \(small) at 100, \(large) at 3,000")
    #expect(large.steps <= small.steps * 1.1, "SQLite steps per poll: \(small) at 100, \(large) at 3,000")
  }
}
