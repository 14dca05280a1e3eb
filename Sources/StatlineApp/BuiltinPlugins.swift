import ESPNSource
import GenericHTMLSource
import NCAASource
import StatBroadcastSource
import StatlineCanonical
import StatlineCommit
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

  /// The merge a store opened by a command uses (the seeded registry, these plugins' feeds): an
  /// old store that a command opens first is given its canonical games as the job would give
  /// them. The job's own adds the configuration (`teams.aliases`, `merge.precedence`).
  public static let canonical: CanonicalStep = {
    do {
      return CanonicalStep(merger: GameMerger(feeds: SourceFeeds(facts.feeds), registry: try teamRegistry()))
    } catch {
      fatalError("the team registry's seed does not load: \(error)")
    }
  }()

  /// The seeded team registry with the configuration's aliases, resolving the plugins' team-id
  /// forms (`SiteFacts.teamIds`).
  public static func teamRegistry(aliases: [String: String] = [:]) throws(StatlineError) -> TeamRegistry {
    try TeamRegistry.seeded(aliases: aliases, teamIds: facts.teamIds)
  }

  /// A planner that merges with `canonical` and derives events: what a command's store writes with.
  public static let planner = CommitPlanner(canonical: canonical)

  /// The registry of the built-in plugins under the given settings.
  public static func registry(_ settings: PluginSettings = PluginSettings()) throws(StatlineError)
    -> SourceRegistry
  {
    try SourceRegistry(plugins: all, settings: settings)
  }
}
