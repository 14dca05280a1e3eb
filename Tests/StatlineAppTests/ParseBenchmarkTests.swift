import Foundation
import StatlineApp
import StatlineTesting
import Testing

/// The benchmark's extraction is checked for what it extracts (its speed is reported by
/// `statline bench parse`, never asserted in a test).
@Suite(.enabled(if: RealPages.available)) struct ParseBenchmarkTests {
  @Test func extractsEveryPlayerRowAndStatCell() throws {
    let page = try RealPages.data("ncaa-stats/contest-6310104-individual-stats-mlax-final.html")
    let (rows, cells) = try ParseBenchmark.extract(page)
    #expect(rows > 40)
    #expect(cells > rows * 8)
  }
}
