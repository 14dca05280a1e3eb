import ArgumentParser
import StatlineApp
import StatlineBench
import StatlineDemo
import StatlineScaffold

/// `statline`: the root command. The production commands come from `StatlineApp`; the demo,
/// the benchmarks and the plugin scaffolder from their own modules.
struct StatlineCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "statline",
    abstract: "Watches live sports statistics pages and normalizes them.",
    version: StatlineVersion.current,
    subcommands: [
      RunCommand.self, OnceCommand.self, StatusCommand.self, HostsCommand.self, DevicesCommand.self, EventsCommand.self,
      ServeCommand.self, ExportCommand.self,
      DemoCommand.self,
      MigrateCommand.self,
      CheckCommand.self, SourcesCommand.self, TeamsCommand.self,
      ReplayCommand.self, CapturesCommand.self, FixturesCommand.self, NewSourceCommand.self, BenchCommand.self,
    ])
}
