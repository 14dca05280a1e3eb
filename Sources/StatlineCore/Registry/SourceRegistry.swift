/// Every plugin and parser the program knows, and the rule that picks a parser for a page.
///
/// Built once at start-up from the ordered plugin list; duplicate plugin or parser ids are a
/// start-up error.
public struct SourceRegistry: Sendable {
  public let plugins: [SourcePlugin]
  public let parsers: [ParserEntry]

  public init(plugins: [SourcePlugin], settings: PluginSettings = PluginSettings()) throws(StatlineError) {
    var pluginIds: Set<String> = []
    var parserOwners: [String: String] = [:]
    var parsers: [ParserEntry] = []
    for plugin in plugins {
      guard pluginIds.insert(plugin.id).inserted else {
        throw StatlineError(
          .configuration, "two plugins share the id '\(plugin.id)'",
          hint: "give every plugin in the built-in list a unique id")
      }
      let entries: [ParserEntry]
      do {
        entries = try plugin.parsers(settings)
      } catch let error as StatlineError {
        throw error.located(source: plugin.id)
      } catch {
        throw StatlineError(.configuration, "\(error)", source: plugin.id)
      }
      for entry in entries {
        if let owner = parserOwners[entry.id] {
          throw StatlineError(
            .configuration,
            "the parser id '\(entry.id)' is registered twice (by '\(owner)' and '\(plugin.id)')",
            hint: "parser ids are global: rename one of them")
        }
        parserOwners[entry.id] = plugin.id
        parsers.append(entry)
      }
    }
    self.plugins = plugins
    self.parsers = parsers
  }

  public func plugin(id: String) -> SourcePlugin? { plugins.first { $0.id == id } }

  /// Every plugin's site facts as one (`SiteFacts(merging:)`).
  public var facts: SiteFacts { SiteFacts(merging: plugins.map(\.facts)) }

  public func parser(id: String) -> ParserEntry? { parsers.first { $0.id == id } }

  /// Picks the parser for a page: the one named, else the ones whose URL patterns match, else
  /// the ones whose sniffers recognise the body; the highest priority wins, and a tie is an error.
  public func select(for page: Page, source: String? = nil, parser: String? = nil) throws(StatlineError)
    -> ParserEntry
  {
    if let source, plugin(id: source) == nil {
      throw StatlineError(
        .noParser, "there is no source plugin '\(source)'", location: page.location,
        hint: "`statline sources` lists them: \(plugins.map(\.id).joined(separator: ", "))")
    }
    let pool = parsers.filter { source == nil || $0.source == source }
    if let parser {
      guard let entry = pool.first(where: { $0.id == parser }) else {
        throw StatlineError(
          .noParser, "there is no parser '\(parser)'\(source.map { " in source '\($0)'" } ?? "")",
          location: page.location,
          hint: "`statline sources` lists them: \(pool.map(\.id).joined(separator: ", "))")
      }
      return entry
    }
    var candidates: [ParserEntry] = []
    if let url = page.url { candidates = pool.filter { $0.claims(url: url) } }
    if candidates.isEmpty { candidates = pool.filter { $0.sniffs(page) } }
    guard let best = candidates.map(\.priority).max() else {
      throw StatlineError(
        .noParser, "no parser claims this page by URL or content", location: page.location,
        hint: "pass --url with the page's URL, or --parser (see `statline sources`)")
    }
    let top = candidates.filter { $0.priority == best }
    guard top.count == 1 else {
      throw StatlineError(
        .ambiguousParser,
        "several parsers claim this page: \(top.map(\.id).joined(separator: ", "))",
        location: page.location, hint: "choose one with --parser")
    }
    return top[0]
  }
}
