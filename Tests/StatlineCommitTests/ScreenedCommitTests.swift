import Foundation
import StatlineTesting
import Testing

@testable import StatlineCommit
@testable import StatlineCore

/// A poll's batch is validated once, by the pipeline that screened it: its commit
/// (`PollCommit(screened:)`) is not validated again, while any other batch a store is handed is.
@Suite struct ScreenedCommitTests {
  /// A box score whose players' goals are the game's score (3) but not its own totals line (9):
  /// valid with its game, and refused by a check of the box score alone.
  static let page = Batch(
    source: "ncaa",
    games: [
      Game(
        id: "ncaa:1", sport: .lacrosseMen, status: .final, date: "2026-03-07",
        away: TeamLine(team: TeamRef(name: "Duke"), score: 3), home: TeamLine(team: TeamRef(name: "Navy"), score: 0))
    ],
    boxScores: [
      BoxScore(
        gameId: "ncaa:1",
        away: TeamBox(totals: [StatKey.goals: 9], players: [PlayerLine(name: "Ann Lee", stats: [StatKey.goals: 3])]),
        home: TeamBox(players: []))
    ])

  @Test func aScreenedPollIsNotValidatedAgainAndAnyOtherBatchIs() async throws {
    let screening = try BatchValidator.screening(Self.page)
    #expect(screening.refused.isEmpty, "the page passes whole")
    // The store takes only the box score (the parser's authority): the part passed as the page did.
    let part = screening.screened.keeping([StoreChange.Kind.boxScore])
    #expect(!BatchValidator.problems(in: part.batch).isEmpty, "alone, the box score breaks a rule")
    let store = MemoryStore()
    _ = try await store.commit(PollCommit(screened: part, states: []))
    #expect(try await store.boxScore(gameId: "ncaa:1") != nil, "the screened part is stored, not checked again")

    // The same records handed as a plain batch are validated by the store, and refused.
    await #expect(throws: StatlineError.self) {
      _ = try await MemoryStore().commit(PollCommit(batch: part.batch, states: []))
    }
    // An empty screened batch is still refused: an empty page is never an empty result.
    await #expect(throws: StatlineError.self) {
      _ = try await MemoryStore().commit(PollCommit(screened: ScreenedBatch(checked: Batch()), states: []))
    }
  }
}
