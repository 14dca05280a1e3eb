import Foundation
import StatlineCore

/// The GenericHTML source plugin: sources defined by YAML configs, no Swift code.
///
/// It loads the example configs bundled in `Examples/` and any config files named in the
/// settings (`statline replay --config FILE`).
public enum GenericHTMLSource {
  public static let id = "generic-html"

  public static let plugin = SourcePlugin(
    id: id, name: "Generic HTML (declarative YAML configs)", folder: "GenericHTML"
  ) { settings in
    var files = settings.includeBundled ? bundledConfigFiles() : []
    files += settings.configFiles
    var seen: [String: String] = [:]
    var entries: [ParserEntry] = []
    for file in files {
      let config = try ConfigReader.load(file: file)
      if let other = seen[config.id] {
        // A user's config may stand in for a bundled example of the same id.
        if settings.configFiles.contains(file) && !settings.configFiles.contains(other) {
          entries.removeAll { $0.id == config.id }
        } else {
          throw StatlineError(
            .configuration, "two GenericHTML configs share the id '\(config.id)': \(other) and \(file)",
            hint: "give each config a unique id")
        }
      }
      seen[config.id] = file
      entries.append(entry(for: config))
    }
    return entries
  }

  /// A registry entry that runs `config`.
  public static func entry(for config: GenericConfig) -> ParserEntry {
    let needles = config.contains
    var sniffer: (@Sendable (Page) -> Bool)?
    if !needles.isEmpty {
      sniffer = { @Sendable page in PageText.containsAll(needles, in: page) }
    }
    return ParserEntry(
      id: config.id, source: id, summary: config.summary, format: .html,
      urlPatterns: config.urlPatterns, priority: ParserEntry.Priority.generic, sniffer: sniffer,
      parser: GenericParser(config: config), normalizer: GenericNormalizer(config: config))
  }

  /// The example configs shipped with the plugin, sorted by name.
  public static func bundledConfigFiles() -> [String] {
    guard let folder = Bundle.module.url(forResource: "Examples", withExtension: nil),
      let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
    else { return [] }
    return names.filter { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }.sorted()
      .map { folder.appendingPathComponent($0).path }
  }
}
