import ArgumentParser
import StatlineCore

/// `statline`: the root command.
public struct StatlineCommand: AsyncParsableCommand {
  public static let configuration = CommandConfiguration(
    commandName: "statline",
    abstract: "Watches live sports statistics pages and normalizes them.",
    version: StatlineVersion.current,
    subcommands: [
      RunCommand.self, OnceCommand.self, StatusCommand.self, EventsCommand.self, ServeCommand.self, DemoCommand.self,
      MigrateCommand.self,
      CheckCommand.self, SourcesCommand.self, TeamsCommand.self,
      ReplayCommand.self, CapturesCommand.self, FixturesCommand.self, NewSourceCommand.self, BenchCommand.self,
    ])

  public init() {}
}

/// Exit statuses, as in sysexits.h.
public enum ExitStatus {
  /// A usage error: bad flags, a bad config file, a missing file.
  public static let usage: Int32 = 64
  /// Input that could not be parsed or validated.
  public static let dataError: Int32 = 65

  /// The status a `StatlineError` ends the program with.
  public static func code(for error: StatlineError) -> Int32 {
    switch error.kind {
    case .configuration, .noParser, .ambiguousParser, .io: usage
    default: dataError
    }
  }
}

/// Prints a `StatlineError` to stderr and exits with its status.
func fail(_ error: StatlineError, prefix: String = "statline") -> ExitCode {
  Console.error("\(prefix): \(error)")
  return ExitCode(ExitStatus.code(for: error))
}

/// Options shared by the commands that build the registry.
struct RegistryOptions: ParsableArguments {
  @Option(
    name: .customLong("config"),
    help: ArgumentHelp("A GenericHTML source config (YAML) to load; repeatable.", valueName: "file"))
  var configFiles: [String] = []

  func registry() throws(StatlineError) -> SourceRegistry {
    try BuiltinPlugins.registry(PluginSettings(configFiles: configFiles))
  }
}
