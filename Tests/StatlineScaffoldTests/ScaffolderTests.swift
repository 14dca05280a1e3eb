import Foundation
import StatlineCore
import StatlineScaffold
import StatlineTesting
import Testing

@Suite struct ScaffolderTests {
  @Test func writesThePluginItsTestsAFixtureAndBothRegistrationLines() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    let scaffolder = SourceScaffolder(root: root, name: "PrestoSports")
    let written = try scaffolder.run()
    #expect(scaffolder.sourceId == "presto-sports")
    #expect(SourceScaffolder(root: root, name: "ESPN").sourceId == "espn", "a run of capitals is one word")
    #expect(SourceScaffolder(root: root, name: "NCAAStats").sourceId == "ncaa-stats")
    #expect(scaffolder.parserId == "presto-sports-scoreboard")
    for file in written {
      #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent(file).path), "\(file)")
    }

    let package = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(package.contains("  \"PrestoSports\",\n  // statline:new-source-plugins"))
    let list = try String(contentsOf: root.appendingPathComponent(SourceScaffolder.listFile), encoding: .utf8)
    #expect(list.contains("    PrestoSportsSource.plugin,\n    // statline:new-source-list"))
    #expect(
      list.hasPrefix(
        "import ESPNSource\nimport GenericHTMLSource\nimport NCAASource\nimport PrestoSportsSource\nimport StatBroadcastSource\n"
      ))

    let descriptor = try String(
      contentsOf: root.appendingPathComponent("Plugins/PrestoSports/PrestoSportsSource.swift"), encoding: .utf8)
    #expect(descriptor.contains("public enum PrestoSportsSource"))
    #expect(descriptor.contains("folder: \"PrestoSports\""))
    #expect(!descriptor.contains("StatlineEngine") && !descriptor.contains("GenericHTMLSource"))
    let tests = try String(
      contentsOf: root.appendingPathComponent("Tests/PrestoSportsSourceTests/PrestoSportsSourceTests.swift"),
      encoding: .utf8)
    #expect(tests.contains("Self.goldens.cases(plugin: \"PrestoSports\")"))

    let golden = try Data(
      contentsOf: root.appendingPathComponent(
        "Fixtures/PrestoSports/presto-sports-scoreboard/sample/normalized.golden.json"))
    let batch = try JSONDecoder().decode(Batch.self, from: golden)
    #expect(batch.games.map(\.id) == ["presto-sports:1001", "presto-sports:1002"])
    try BatchValidator.validate(batch)
  }

  @Test func refusesBadNamesAndTakenNamesWithoutWritingAnything() throws {
    let root = try TemporaryPackage.make()
    defer { TemporaryPackage.remove(root) }
    #expect(throws: StatlineError.self) { try SourceScaffolder(root: root, name: "lower").run() }
    #expect(throws: StatlineError.self) { try SourceScaffolder(root: root, name: "Has-Dash").run() }
    #expect(throws: StatlineError.self) { try SourceScaffolder(root: root, name: "GenericHTML").run() }
    _ = try SourceScaffolder(root: root, name: "Twice").run()
    #expect(throws: StatlineError.self) { try SourceScaffolder(root: root, name: "Twice").run() }
    #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("Plugins/lower").path))
  }

  @Test func insertionAddsTheCommaAFormatterRemoved() {
    let source = "let list = [\n  \"A\"\n  // marker\n]"
    #expect(
      SourceScaffolder.insert("  \"B\",", before: "  // marker", in: source)
        == "let list = [\n  \"A\",\n  \"B\",\n  // marker\n]")
    let empty = "let list = [\n  // marker\n]"
    #expect(
      SourceScaffolder.insert("  \"B\",", before: "  // marker", in: empty) == "let list = [\n  \"B\",\n  // marker\n]")
  }

  @Test func importsStaySorted() {
    let source = "import A\nimport C\n\nlet x = 1\n"
    #expect(SourceScaffolder.addImport("import B", to: source) == "import A\nimport B\nimport C\n\nlet x = 1\n")
  }
}
