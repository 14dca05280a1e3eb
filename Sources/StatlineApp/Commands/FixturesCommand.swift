import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlineFixtures

/// `statline fixtures verify|record`: the golden-file check, from the command line.
public struct FixturesCommand: ParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "fixtures", abstract: "Check or record the golden files under Fixtures/.",
    subcommands: [Verify.self, Record.self])

  struct Options: ParsableArguments {
    @Argument(help: "Only this plugin's cases (its folder name, e.g. GenericHTML).")
    var plugin: String?

    @Option(help: "The package root holding Fixtures/ and Plugins/.")
    var root: String = FileManager.default.currentDirectoryPath
  }

  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run every case and compare with its golden, byte for byte.")
    @OptionGroup var options: Options

    func run() throws { try FixturesCommand.execute(options, record: false) }
  }

  struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Rewrite the goldens from the current code (review them before committing).")
    @OptionGroup var options: Options

    func run() throws { try FixturesCommand.execute(options, record: true) }
  }

  static func execute(_ options: Options, record: Bool) throws {
    let suite: FixtureSuite
    do {
      suite = FixtureSuite(root: URL(fileURLWithPath: options.root), registry: try BuiltinPlugins.registry())
    } catch {
      throw fail(error)
    }
    let cases = suite.cases(plugin: options.plugin)
    guard !cases.isEmpty else {
      throw fail(
        StatlineError(
          .io, "no fixture cases found", location: suite.fixturesFolder.path,
          hint: "run from the package root or pass --root"))
    }
    var passed = 0
    var failed = 0
    var skipped = 0
    for fixture in cases {
      switch suite.run(fixture, record: record) {
      case .passed:
        passed += 1
        Console.out("PASS \(fixture.id)")
      case .recorded:
        passed += 1
        Console.out("RECORDED \(fixture.id)")
      case .skipped(let note):
        skipped += 1
        Console.out("SKIP \(fixture.id): \(note)")
      case .failed(let message):
        failed += 1
        Console.out("FAIL \(fixture.id): \(message)")
      }
    }
    if options.plugin == nil {
      for problem in suite.coverageProblems() {
        failed += 1
        Console.out("FAIL coverage: \(problem)")
      }
    }
    Console.out("fixtures: \(passed) passed, \(failed) failed, \(skipped) skipped")
    if failed > 0 { throw ExitCode(ExitStatus.dataError) }
  }
}
