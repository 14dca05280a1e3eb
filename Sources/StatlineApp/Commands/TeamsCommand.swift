import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCanonical
import StatlineCore
import StatlinePostgres

/// `statline teams`: the team registry (architecture.md#canonical-games) and the source teams it does not know.
public struct TeamsCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "teams", abstract: "Resolve source teams to canonical teams, and list those that do not resolve.",
    subcommands: [TeamsUnmatchedCommand.self, TeamsResolveCommand.self])
}

extension StoreOptions {
  /// The registry with the configuration's `teams.aliases`.
  func teamRegistry() throws(StatlineError) -> TeamRegistry {
    let aliases = try job()?.teamAliases
    return try BuiltinPlugins.teamRegistry(aliases: aliases ?? [:])
  }
}

/// `statline teams unmatched`: every source team in the store (in its games, team lists and
/// polls) that resolves to no canonical team, with where it was seen and why, and how to map it.
struct TeamsUnmatchedCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "unmatched", abstract: "List the store's source teams that resolve to no canonical team.")

  @OptionGroup var options: StoreOptions

  func run() async throws {
    do {
      let registry = try options.teamRegistry()
      let store = try await options.open()
      let sightings = TeamSightings(
        teams: try await store.teams(sport: nil), games: try await store.sourceGames(),
        rankings: try await store.rankings(sport: nil, poll: nil), registry: registry)
      Console.out(Self.render(sightings))
    } catch {
      throw fail(StatlineError.wrapping(error, location: PostgresLocation.redacted(options.store ?? options.config)))
    }
  }

  static func render(_ sightings: TeamSightings) -> String {
    let passes = TeamResolution.Pass.allCases.compactMap { pass in
      sightings.byPass[pass].map { "\($0) by \(pass.rawValue)" }
    }
    let resolved = sightings.sightings.count - sightings.unmatched.count
    var lines = [
      "\(sightings.sightings.count) source teams: \(resolved) resolve"
        + (passes.isEmpty ? "" : " (\(passes.joined(separator: ", ")))") + ", \(sightings.unmatched.count) do not"
    ]
    guard !sightings.unmatched.isEmpty else { return lines.joined(separator: "\n") }
    lines += BatchTable.table(
      header: ["SOURCE TEAM", "NAME", "GAMES", "LAST DATE", "SEEN IN", "WHY"],
      rows: sightings.unmatched.map {
        [$0.key, $0.team.name, String($0.games), $0.lastDate ?? "", $0.exampleGame ?? "", $0.reason ?? ""]
      })
    lines.append("")
    lines.append("Map one in statline.yml: teams: { aliases: { \"<source team or name>\": <NCAA org id> } }")
    return lines.joined(separator: "\n")
  }
}

/// `statline teams resolve NAME…`: the canonical team each name (or source id) is, and by which pass.
struct TeamsResolveCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "resolve", abstract: "Show the canonical team a printed name or a source team id resolves to.")

  @OptionGroup var options: StoreOptions

  @Argument(help: "Names as pages print them, or source ids (ncaa:team-594020, espn:team-153).")
  var names: [String]

  func run() async throws {
    do {
      let registry = try options.teamRegistry()
      var unresolved = 0
      for name in names {
        let source =
          name.contains(":") && !name.contains(" ") ? SourceTeam(id: name, name: "") : SourceTeam(id: nil, name: name)
        if let hit = registry.resolve(source) {
          Console.out("\(name) → \(hit.team.id) \(hit.team.name) (by \(hit.pass.rawValue): \(hit.matched))")
        } else {
          unresolved += 1
          Console.out("\(name) → none: \(registry.unresolvedReason(source))")
        }
      }
      if unresolved > 0 { throw ExitCode(1) }
    } catch let exit as ExitCode {
      throw exit
    } catch {
      throw fail(StatlineError.wrapping(error, location: options.config))
    }
  }
}
