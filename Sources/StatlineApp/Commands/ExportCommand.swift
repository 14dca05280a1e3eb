import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCore
import StatlineServer

/// `statline export --bundle FILE`: the first-launch bundle an app ships (docs/api.md#the-first-launch-bundle),
/// the same JSON `GET /v1/bundle` answers, gzipped.
public struct ExportCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "export",
    abstract: "Write a first-launch bundle: a season's teams, games and latest polls, with the delta-sync cursor.",
    discussion: """
      The file is the JSON that GET /v1/bundle answers, gzipped. An app that ships it calls \
      /v1/changes?since=<its cursor> on first launch and then holds what the store holds.
      """)

  @OptionGroup var options: StoreOptions

  @Option(name: .long, help: ArgumentHelp("Where to write the bundle (gzipped JSON).", valueName: "file"))
  var bundle: String

  @Option(name: .long, help: ArgumentHelp("One sport (lacrosse-men, …); default: every sport.", valueName: "sport"))
  var sport: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The season, as the year it ends in (2026: August 2025 to July 2026); default: today's.", valueName: "year"))
  var season: String?

  public func run() async throws {
    do {
      let sport = try sport.map { text throws(StatlineError) -> Sport in
        guard Sport(text).profile != nil else {
          throw StatlineError(
            .configuration, "--sport '\(text)' is not a sport Statline knows", hint: "for example --sport lacrosse-men")
        }
        return Sport(text)
      }
      let year = try season.map { text throws(StatlineError) -> Int in
        guard text.count == 4, let year = Int(text) else {
          throw StatlineError(.configuration, "--season '\(text)' is not a year", hint: "for example --season 2026")
        }
        return year
      }
      let store = try await options.open()
      var configuration = ReadAPI.Configuration()
      configuration.seasons = BuiltinPlugins.facts.seasons ?? .calendarYear
      let api = ReadAPI(reader: store, configuration: configuration, registry: try options.teamRegistry())
      let json = try await api.bundleJSON(sport: sport, season: year)
      let file = URL(fileURLWithPath: bundle)
      do {
        try Data(try ReadAPI.gzip(json)).write(to: file, options: .atomic)
      } catch {
        throw StatlineError(.io, "cannot write the bundle to \(bundle): \(error.localizedDescription)")
      }
      let summary = (try? JSONSerialization.jsonObject(with: Data(json))) as? [String: Any] ?? [:]
      let cursor = summary["cursor"] as? Int ?? 0
      Console.out(
        "wrote \(bundle): \((summary["teams"] as? [Any])?.count ?? 0) teams, \((summary["games"] as? [Any])?.count ?? 0) games, "
          + "\((summary["rankings"] as? [Any])?.count ?? 0) poll records of season \(summary["season"] as? String ?? "?"); "
          + "cursor \(cursor): an app that installs it calls /v1/changes?since=\(cursor)")
    } catch let error as StatlineError {
      throw fail(error)
    }
  }
}
