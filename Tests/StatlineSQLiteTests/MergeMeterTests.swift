import StatlineCanonical
import StatlineCommit
import StatlineCore
import StatlineSQLite
import Testing

/// The merge's meter (`CanonicalStep.meter`), which `bench cycle` reports the merge's cost by:
/// it measures what a store does because it merges, and nothing when it does not merge.
@Suite struct MergeMeterTests {
  static let game = Game(
    id: "ncaa:1", sport: .lacrosseMen, status: .live, period: 2, clock: "05:00", date: "2026-03-07",
    away: TeamLine(team: TeamRef(name: "Duke"), score: 3),
    home: TeamLine(team: TeamRef(name: "Army West Point"), score: 2))

  @Test func aMeterAddsTheCPUOfWhatItMeasuresAndNoMeterRunsTheBodyAsItIs() {
    let meter = CPUMeter()
    let sum = meter.measure { (0..<2_000_000).reduce(0, &+) }
    #expect(sum == 1_999_999_000_000)
    #expect(meter.total.runs == 1 && meter.total.seconds > 0)
    let none: CPUMeter? = nil
    #expect(none.measure { 7 } == 7)
  }

  @Test func aMergingStoreMeasuresItsMergeAndOneThatDoesNotMergeMeasuresNothing() async throws {
    for merges in [true, false] {
      let path = SQLiteStoreTests.temporaryPath()
      defer { SQLiteStoreTests.remove(path) }
      let meter = CPUMeter()
      let step = CanonicalStep(merger: CanonicalStep.standard.merger, merges: merges, meter: meter)
      let store = try SQLiteStore(path: path, planner: CommitPlanner(canonical: step))
      var game = Self.game
      let first = try await store.write(Batch(games: [game]))
      game.clock = "04:30"
      _ = try await store.write(Batch(games: [game]))
      if merges {
        #expect(first.written == 2, "the source game and its canonical game")
        // Each write: the step, and the canonical game's encoding, check, write and memory.
        #expect(meter.total.runs >= 2 * 4 && meter.total.seconds > 0)
      } else {
        #expect(first.written == 1)
        #expect(meter.total.runs == 0 && meter.total.seconds == 0)
      }
    }
  }
}
