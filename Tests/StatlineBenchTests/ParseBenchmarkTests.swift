import Foundation
import StatlineApp
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@testable import StatlineBench

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

/// `bench parser` runs its three contenders on a page and counts what the page gives (rates are
/// reported, never asserted).
@Suite struct PipelineBenchmarkTests {
  @Test func itTimesTheBareParseTheParseStageAndTheWholePath() throws {
    let page = try PageLoader.load(PackageRoot.file("Fixtures/NCAA/ncaa-gql-pbp/annotated-goals").path)
    let entry = try BuiltinPlugins.registry().select(for: page, parser: "ncaa-gql-pbp")
    let result = try PipelineBenchmark(page: page, entry: entry, rounds: 1, pagesPerRound: 2).run()
    #expect(result.records > 10 && result.bytes == page.body.count)
    #expect(result.barePagesPerSecond > 0 && result.parsePagesPerSecond > 0 && result.pipelinePagesPerSecond > 0)
    var broken = page
    broken.body = Data("{\"data\":{}}".utf8)
    #expect(throws: StatlineError.self, "the parse stage fails as the parser does") { try entry.parseOnly(broken) }
  }
}
