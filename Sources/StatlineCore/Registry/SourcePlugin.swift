/// The one public descriptor a source plugin exports (architecture.md#modules).
///
/// A plugin names itself, says which folder under `Plugins/` (and `Fixtures/`) it lives in,
/// and brings its parsers. `StatlineApp` keeps the ordered list of built-in plugins.
public struct SourcePlugin: Sendable {
  /// Stable id, used in namespaced ids and on the command line (`statbroadcast`, `ncaa`).
  public let id: String
  public let name: String
  /// The plugin's folder under `Plugins/` and `Fixtures/`.
  public let folder: String
  /// What code outside the plugin needs to know of its sites: host limits, feeds, seasons.
  public let facts: SiteFacts
  private let parserFactory: @Sendable (PluginSettings) throws -> [ParserEntry]

  public init(
    id: String, name: String, folder: String, facts: SiteFacts = SiteFacts(),
    parsers: @escaping @Sendable (PluginSettings) throws -> [ParserEntry]
  ) {
    self.id = id
    self.name = name
    self.folder = folder
    self.facts = facts
    self.parserFactory = parsers
  }

  /// The plugin's parsers under the given settings.
  public func parsers(_ settings: PluginSettings) throws -> [ParserEntry] {
    try parserFactory(settings)
  }
}

/// What the configuration tells plugins: extra declarative config files, and free-form options
/// per plugin id.
public struct PluginSettings: Sendable, Equatable {
  /// Declarative source configs to load in addition to a plugin's bundled ones (GenericHTML).
  public var configFiles: [String]
  /// When false, a plugin loads only `configFiles`, not its bundled examples.
  public var includeBundled: Bool
  /// Free-form options per plugin id, from the job configuration (`sources.<id>.options`):
  /// URL templates, base URLs, XSL paths.
  public var options: [String: [String: String]]

  public init(configFiles: [String] = [], includeBundled: Bool = true, options: [String: [String: String]] = [:]) {
    self.configFiles = configFiles
    self.includeBundled = includeBundled
    self.options = options
  }

  /// The option `key` of plugin `plugin`, if set.
  public func option(_ plugin: String, _ key: String) -> String? { options[plugin]?[key] }
}
