import ArgumentParser
import Foundation
import StatlineCLI

/// `statline new-source NAME`: scaffold a source plugin.
public struct NewSourceCommand: ParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "new-source",
    abstract: "Scaffold a source plugin: Plugins/NAME, its tests, a sample fixture, and its registration.")

  @Argument(help: "The plugin's name in UpperCamelCase (module NAMESource).")
  var name: String

  @Option(help: "The package root.")
  var root: String = FileManager.default.currentDirectoryPath

  public func run() throws {
    let scaffolder = SourceScaffolder(root: URL(fileURLWithPath: root), name: name)
    do {
      for file in try scaffolder.run() { Console.out("wrote \(file)") }
    } catch {
      throw fail(error)
    }
    Console.out("next: swift build && swift test --filter \(scaffolder.module)Tests")
  }
}
