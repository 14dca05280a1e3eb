import ESPNSource
import GenericHTMLSource
import NCAASource
import StatBroadcastSource
import StatlineCore

/// The source plugins this program is built with, in order. `statline new-source NAME` adds a
/// line at the marker; a downstream package builds its own executable with its own list.
public enum BuiltinPlugins {
  public static let all: [SourcePlugin] = [
    GenericHTMLSource.plugin,
    StatBroadcastSource.plugin,
    NCAASource.plugin,
    ESPNSource.plugin,
    // statline:new-source-list
  ]

  /// What the built-in plugins declare of their sites (host limits, feeds, seasons).
  public static let facts = SiteFacts(merging: all.map(\.facts))

  /// The registry of the built-in plugins under the given settings.
  public static func registry(_ settings: PluginSettings = PluginSettings()) throws(StatlineError)
    -> SourceRegistry
  {
    try SourceRegistry(plugins: all, settings: settings)
  }
}
