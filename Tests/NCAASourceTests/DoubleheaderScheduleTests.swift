import Foundation
import StatlineCore
import StatlineTesting
import Testing

@testable import NCAASource

/// Doubleheaders on stats.ncaa.org (issue 55): a date cell `02/14/2026(1)` is a date and a game
/// number, both games stored, numbered, each with its own id.
@Suite struct DoubleheaderScheduleTests {
  @Test func aNumberedDateCellIsReadWithItsNumber() {
    #expect(ScheduleDate.read("02/14/2026(1)")! == ("2026-02-14", 1))
    #expect(ScheduleDate.read(" 02/14/2026 (2) ")! == ("2026-02-14", 2))
    #expect(ScheduleDate.read("02/14/2026")! == ("2026-02-14", nil))
    #expect(ScheduleDate.read("02/14/2026(x)") == nil && ScheduleDate.read("(1)") == nil)
    #expect(ScheduleDate.read("02/14/2026(0)") == nil, "no game 0")
    #expect(ScheduleDate.leading("02/14/2026(2) 04:00 PM")! == ("2026-02-14", 2))
  }

  @Test func bothGamesOfEachDoubleheaderAreStoredNumbered() throws {
    let batch = try NCAAHandWrittenTests.batch(
      "ncaa-stats-schedule/baseball-doubleheaders", parser: "ncaa-stats-schedule")
    #expect(batch.games.count == 5 && batch.warnings.isEmpty, "\(batch.warnings)")
    let numbers = batch.games.map { "\($0.id) \($0.date ?? "") \($0.gameNumber.map(String.init) ?? "-")" }
    #expect(
      numbers == [
        "ncaa:6700102 2026-02-14 1", "ncaa:6700103 2026-02-14 2", "ncaa:6700104 2026-02-17 -",
        "ncaa:team-615100-20260221-duke-g1 2026-02-21 1", "ncaa:team-615100-20260221-duke-g2 2026-02-21 2",
      ])
    #expect(batch.games[1].status == .final && batch.games[1].home.score == 3, "game 2: L 3-4 at home")
  }
}
