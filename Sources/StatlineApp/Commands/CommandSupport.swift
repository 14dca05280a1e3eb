import ArgumentParser
import StatlineCLI
import StatlineCore

/// Options shared by the commands that build the registry.
public struct RegistryOptions: ParsableArguments {
  @Option(
    name: .customLong("config"),
    help: ArgumentHelp("A GenericHTML source config (YAML) to load; repeatable.", valueName: "file"))
  public var configFiles: [String] = []

  public init() {}

  public func registry() throws(StatlineError) -> SourceRegistry {
    try BuiltinPlugins.registry(PluginSettings(configFiles: configFiles))
  }
}
