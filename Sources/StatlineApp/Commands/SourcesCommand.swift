import ArgumentParser
import StatlineCLI
import StatlineCore

/// `statline sources`: the plugins, their parsers, the pages they claim and the sports they read.
public struct SourcesCommand: ParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "sources", abstract: "List source plugins, their parsers and URL patterns.")

  @OptionGroup var registryOptions: RegistryOptions

  public func run() throws {
    let registry: SourceRegistry
    do { registry = try registryOptions.registry() } catch { throw fail(error) }
    for plugin in registry.plugins {
      Console.out("\(plugin.id) — \(plugin.name) (Plugins/\(plugin.folder))")
      for parser in registry.parsers where parser.source == plugin.id {
        Console.out("  \(parser.id) [\(parser.format.rawValue), priority \(parser.priority)] \(parser.summary)")
        for pattern in parser.urlPatterns { Console.out("    url: \(pattern)") }
        if parser.sniffer != nil { Console.out("    also claims pages by content") }
        Console.out("    sports: \(Self.sports(parser))")
      }
    }
  }

  /// "lacrosse-men, lacrosse-women", or "any (…)" for a parser whose records do not depend on
  /// the sport.
  static func sports(_ parser: ParserEntry) -> String {
    guard let sports = parser.sports else { return "any (its records do not depend on the sport)" }
    return sports.map(\.rawValue).sorted().joined(separator: ", ")
  }
}
