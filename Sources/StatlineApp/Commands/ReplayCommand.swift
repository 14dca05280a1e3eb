import ArgumentParser
import Foundation
import StatlineCLI
import StatlineCanonical
import StatlineCore
import StatlineFixtures

/// `statline replay`: run saved pages through parse → normalize → validate, offline.
public struct ReplayCommand: AsyncParsableCommand {
  public init() {}

  public static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Parse saved pages offline and print the normalized batch.",
    discussion: """
      A PATH is a page file, or a folder holding page.<ext> and request.json (a fixture case), \
      or a fixture case with case.json (read from $\(RealFixtures.variable)), or capture:ID \
      for a failed page saved in the store (--store). \
      A case folder under Fixtures/<Plugin>/<parser>/ replays with its parser, a capture with the \
      parser that failed on it; otherwise the parser is picked by URL (from --url or request.json), \
      else by the page's content.
      Exit status: 0 when every page parsed, 65 when one could not be parsed or validated, \
      64 for usage errors.
      """)

  @Argument(help: ArgumentHelp("Saved pages or case folders.", valueName: "path"))
  var paths: [String]

  @Option(help: "Use only this source plugin's parsers.")
  var source: String?

  @Option(help: "Use this parser, whatever the page.")
  var parser: String?

  @Option(help: "The URL the page was fetched from (overrides request.json).")
  var url: String?

  @Option(
    help: ArgumentHelp(
      "The sport the page's target names (overrides request.json): what a parser takes when the page does not say.",
      valueName: "sport"))
  var sport: String?

  @Flag(help: "Print the batch as the JSON contract (docs/architecture.md#the-contract).")
  var json = false

  @Flag(
    help: """
      Merge the pages' games into canonical games (docs/teams.md), in the order given, and print       those instead: each game once, its live source, every source, and conflicts.
      """)
  var merge = false

  @Option(
    help: ArgumentHelp(
      "The store that holds captures (for capture:ID): a SQLite file or a postgres:// URL.", valueName: "path|url"))
  var store: String = "statline.sqlite"

  @OptionGroup var registryOptions: RegistryOptions

  public func run() async throws {
    let registry: SourceRegistry
    do { registry = try registryOptions.registry() } catch { throw fail(error) }
    var failure: ExitCode?
    var board: CanonicalBoard?
    if merge {
      do {
        board = CanonicalBoard(
          merger: GameMerger(
            feeds: SourceFeeds(registry: registry), registry: try TeamRegistry.seeded(teamIds: registry.facts.teamIds)))
      } catch { throw fail(error) }
    }
    for (index, path) in paths.enumerated() {
      do {
        var (page, recorded) = try await ReplayLoader.load(path, url: url, store: store)
        if let sport { page.sport = Sport(sport) }
        let known = recorded.flatMap { registry.parser(id: $0) != nil ? $0 : nil }
        let entry = try registry.select(for: page, source: source, parser: parser ?? known)
        let batch = try PagePipeline.run(page, with: entry)
        if board != nil {
          // Pages count as seen one second apart, in the order given: a later page is fresher.
          for game in batch.games { board?.add(game, at: Date(timeIntervalSince1970: Double(index))) }
        } else if json {
          FileHandle.standardOutput.write(try batch.jsonData())
        } else {
          Console.out(BatchTable.render(batch) + "\n")
        }
      } catch let error as StatlineError {
        let code = fail(error.located(location: path), prefix: "statline: replay failed: \(path)")
        if failure == nil || code.rawValue == ExitStatus.usage { failure = code }
      }
    }
    if let board {
      let games = board.merged.values.sorted { $0.game.id < $1.game.id }
      if json {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        do {
          FileHandle.standardOutput.write(try encoder.encode(games) + Data([0x0A]))
        } catch { throw fail(StatlineError(.store, "the merged games cannot be encoded: \(error)")) }
      } else {
        Console.out(MergedTable.render(games))
      }
    }
    if let failure { throw failure }
  }
}

/// `replay --merge`'s table: each canonical game once, with where its parts come from.
enum MergedTable {
  static func render(_ games: [MergedGame]) -> String {
    let sources = games.reduce(0) { $0 + $1.sources.count }
    var lines = ["\(games.count) canonical games from \(sources) source games"]
    lines += BatchTable.table(
      header: ["DATE", "STATUS", "AWAY", "SCORE", "HOME", "ID", "LIVE FROM", "SOURCES"],
      rows: games.map { merged in
        let game = merged.game
        let score = game.away.score.map { "\($0)-\(game.home.score ?? 0)" } ?? ""
        return [
          game.date ?? "", game.status.rawValue, game.away.team.name, score, game.home.team.name, game.id,
          merged.liveSource, merged.sources.joined(separator: ", "),
        ]
      })
    for merged in games {
      guard let conflict = merged.conflict else { continue }
      lines.append(
        "conflict: \(merged.game.id): \(conflict.kept) says \(conflict.keptScore) (kept), \(conflict.other) says \(conflict.otherScore)"
      )
    }
    return lines.joined(separator: "\n")
  }
}

/// Loads what `replay` is pointed at: a page file, a case or capture folder, or a real-page case,
/// with the parser it was read with when that is recorded: a capture names its parser, and a
/// fixture case lives in `Fixtures/<Plugin>/<parser>/<case>` (a page the URL would give to
/// another parser still replays as its case).
enum ReplayLoader {
  static func load(_ path: String, url: String?, store: String) async throws -> (Page, parser: String?) {
    let folder = URL(fileURLWithPath: path)
    let caseParser =
      folder.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().lastPathComponent
        == "Fixtures" ? folder.deletingLastPathComponent().lastPathComponent : nil
    if path.hasPrefix("capture:") {
      let capture = try await self.capture(path, url: url, store: store)
      return (capture.page, capture.summary.parser)
    }
    return (try await page(path, url: url), caseParser)
  }

  static func capture(_ path: String, url: String?, store: String) async throws -> Capture {
    guard let id = Int64(path.dropFirst("capture:".count)) else {
      throw StatlineError(
        .configuration, "'\(path)' is not capture:ID", hint: "`statline captures list` shows the ids")
    }
    let log = try await StoreLocation(store).openForCommand(hint: "pass --store with the job's store")
    guard let capture = try await log.capture(id: id) else {
      throw StatlineError(.io, "the store has no capture \(id)", location: store, hint: "`statline captures list`")
    }
    var found = capture
    if let url { found.page.url = url }
    return found
  }

  static func page(_ path: String, url: String?) async throws -> Page {
    let spec = URL(fileURLWithPath: path).appendingPathComponent(FixtureCase.realPageSpec)
    guard FileManager.default.fileExists(atPath: spec.path) else { return try PageLoader.load(path, url: url) }
    guard let decoded = try? JSONDecoder().decode(RealPageSpec.self, from: Data(contentsOf: spec)) else {
      throw StatlineError(.io, "cannot read \(spec.path)", hint: "case.json needs page and url")
    }
    guard let folder = RealFixtures.fromEnvironment().folder else {
      throw StatlineError(
        .io, "the case reads the real page \(decoded.page), but \(RealFixtures.variable) is not set",
        location: path, hint: "export \(RealFixtures.variable)=../shared/fixtures/real")
    }
    var page = try PageLoader.load(folder.appendingPathComponent(decoded.page).path, url: url ?? decoded.url)
    page.status = decoded.status ?? 200
    return page
  }
}
