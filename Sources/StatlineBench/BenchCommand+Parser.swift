import ArgumentParser
import AsyncHTTPClient
import Foundation
import StatlineApp
import StatlineCLI
import StatlineCore
import StatlineEngine
import StatlineFixtures
import StatlineLoopback

extension BenchCommand {
  struct Parser: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Pages/s of one parser's whole path (parse + normalize + validate) against the format's bare parse "
        + "(libxml2 for HTML and XML, the JSON tape for JSON).")

    @Option(help: "The page (default: the real StatCrew XML in $\(RealFixtures.variable)).")
    var page: String?

    @Option(help: "The parser id (default: picked by the page's URL or content).")
    var parser: String?

    @Option(help: "The URL the page answered (parsers that read ids from the URL need it).")
    var url: String?

    @Option(help: "Timed rounds (the median is reported).")
    var rounds: Int = 9

    @Option(help: "Pages per round, per contender.")
    var pagesPerRound: Int = 100

    func run() throws {
      let path =
        page
        ?? RealFixtures.fromEnvironment().folder?
        .appendingPathComponent("statcrew/lcgame-mlax-iona-at-unc-2026-02-15-final.xml").path
      guard let path, let data = FileManager.default.contents(atPath: path) else {
        throw fail(
          StatlineError(
            .io, "no page to benchmark", location: page, hint: "pass --page FILE or set \(RealFixtures.variable)"))
      }
      do {
        let loaded = Page(url: url, body: data, file: path)
        let entry = try BuiltinPlugins.registry().select(for: loaded, parser: parser)
        let result = try PipelineBenchmark(page: loaded, entry: entry, rounds: rounds, pagesPerRound: pagesPerRound)
          .run()
        Console.out("page: \(path) (\(result.bytes) bytes, \(result.records) records) with \(entry.id)")
        let bareName = PipelineBenchmark.bareName(entry.format) + ":"
        Console.out(
          bareName.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%8.1f pages/s", result.barePagesPerSecond))
        Console.out(
          String(format: "parse alone (the page's records):       %8.1f pages/s", result.parsePagesPerSecond))
        Console.out(
          String(format: "parse + normalize + validate (parser):  %8.1f pages/s", result.pipelinePagesPerSecond))
        Console.out(String(format: "overhead, from the medians:              %8.1f %%", result.overheadPercent))
        Console.out(String(format: "overhead, fastest rounds:                %8.1f %%", result.bestOverheadPercent))
        Console.out(
          String(
            format: "overhead, round by round (median):      %8.1f %% (goal <= 25 %%)", result.pairedOverheadPercent))
      } catch let error as StatlineError {
        throw fail(error)
      }
    }
  }
}
