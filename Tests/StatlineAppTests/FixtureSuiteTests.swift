import Foundation
import StatlineApp
import StatlineCore
import StatlineFixtures
import StatlineTesting
import Testing

@Suite struct FixtureSuiteTests {
  @Test func everyPluginFolderIsListedAndHasFixturesAndEveryClaimedRealPageHasACase() {
    #expect(GoldenCases(BuiltinPlugins.all).suite.coverageProblems() == [])
  }

  @Test func coverageCatchesAFolderMissingFromTheList() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Plugins/Orphan"), withIntermediateDirectories: true)
    let suite = FixtureSuite(root: root, real: RealFixtures(folder: nil), registry: try BuiltinPlugins.registry())
    #expect(suite.coverageProblems().contains("Plugins/Orphan is not in the built-in plugin list (BuiltinPlugins.all)"))
  }

  @Test func coverageCatchesAClaimedRealPageWithoutACase() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    let real = root.appendingPathComponent("real")
    try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: PackageRoot.file("Fixtures/GenericHTML/ncaa-team-schedule/edge-cases/page.html"),
      to: real.appendingPathComponent("another-schedule.html"))
    let suite = FixtureSuite(root: root, real: RealFixtures(folder: real), registry: try BuiltinPlugins.registry())
    #expect(
      suite.coverageProblems().contains(
        "the real page another-schedule.html is claimed by ncaa-team-schedule, ncaa-stats-schedule but has no golden case"
      ))
  }

  @Test func recordWritesTheGoldenAndVerifyThenPasses() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    let suite = FixtureSuite(root: root, real: RealFixtures(folder: nil), registry: try BuiltinPlugins.registry())
    let fixture = try #require(suite.cases().first { $0.name == "edge-cases" })
    try FileManager.default.removeItem(at: fixture.batchGoldenFile)
    #expect(
      suite.run(fixture) == .failed("the case has no golden; record one with `statline fixtures record` and review it"))
    #expect(suite.run(fixture, record: true) == .recorded)
    #expect(suite.run(fixture) == .passed)
    let recorded = try Data(contentsOf: fixture.batchGoldenFile)
    let original = try Data(
      contentsOf: PackageRoot.file("Fixtures/GenericHTML/ncaa-team-schedule/edge-cases/normalized.golden.json"))
    #expect(recorded == original)
  }

  @Test func aMismatchPrintsAReadableDiff() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    let suite = FixtureSuite(root: root, real: RealFixtures(folder: nil), registry: try BuiltinPlugins.registry())
    let fixture = try #require(suite.cases().first { $0.name == "edge-cases" })
    let golden = try String(contentsOf: fixture.batchGoldenFile, encoding: .utf8)
    try Data(golden.replacingOccurrences(of: "\"attendance\" : 1204", with: "\"attendance\" : 1205").utf8)
      .write(to: fixture.batchGoldenFile)
    guard case .failed(let message) = suite.run(fixture) else {
      Issue.record("a changed golden must fail")
      return
    }
    #expect(message.contains("-       \"attendance\" : 1205,"))
    #expect(message.contains("+       \"attendance\" : 1204,"))
    #expect(message.hasPrefix("first difference at line"))
  }

  @Test func anErrorGoldenMustMatchTheError() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    let suite = FixtureSuite(root: root, real: RealFixtures(folder: nil), registry: try BuiltinPlugins.registry())
    let fixture = try #require(suite.cases().first { $0.name == "bot-challenge" })
    #expect(suite.run(fixture) == .passed)
    // A page that now parses while its golden expects an error fails.
    try FileManager.default.copyItem(
      at: PackageRoot.file("Fixtures/GenericHTML/ncaa-team-schedule/edge-cases/page.html"),
      to: fixture.folder.appendingPathComponent("page.tmp"))
    try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent("page.html"))
    try FileManager.default.moveItem(
      at: fixture.folder.appendingPathComponent("page.tmp"), to: fixture.folder.appendingPathComponent("page.html"))
    guard case .failed(let message) = suite.run(fixture) else {
      Issue.record("expected a failure")
      return
    }
    #expect(message.hasPrefix("the golden expects an error, but the pipeline gave:"))
  }

  @Test func realCasesAreSkippedWhenTheVariableIsUnsetAndFailWhenTheFolderIsMissing() throws {
    let registry = try BuiltinPlugins.registry()
    let unset = FixtureSuite(root: PackageRoot.url, real: RealFixtures(folder: nil), registry: registry)
    let real = try #require(unset.cases().first { $0.isReal })
    guard case .skipped(let note) = unset.run(real) else {
      Issue.record("expected a skip")
      return
    }
    #expect(note.contains("STATLINE_REAL_FIXTURES is not set"))
    let missing = FixtureSuite(
      root: PackageRoot.url, real: RealFixtures(folder: URL(fileURLWithPath: "/nonexistent/real")), registry: registry)
    guard case .failed(let message) = missing.run(real) else {
      Issue.record("expected a failure")
      return
    }
    #expect(message.contains("is missing"))
  }

  @Test func goldenDiffShowsContext() {
    let diff = GoldenDiff.describe(expected: "a\nb\nc\nd\n", actual: "a\nb\nX\nd\n", context: 1)
    #expect(diff == "first difference at line 3 (- golden, + actual):\n  b\n- c\n+ X\n  d")
  }
}

/// A throwaway copy of the package's manifest, plugin list, plugin folders and fixtures.
