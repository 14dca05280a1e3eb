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
  struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Serve the cycle benchmark's loopback site (used by `bench cycle`).", shouldDisplay: false)

    @Option var targets: Int = 1000
    @Option var mode: String = "changed"
    @Option var cadence: Double = 30
    @Option(help: "Stop changing the pages after this many seconds.") var freezeAfter: Double?
    @Option(help: "Append a line per request (Unix time in ms, path, status) to this file.") var log: String?
    @Option(help: "Serve this StatCrew game XML, made live, as every target's page.") var page: String?
    @Option(help: "Serve the real pages of every kind in this folder, in turn.") var mix: String?
    @Option(help: "Write each target's path and its two teams' canonical ids, a line each, to this file.")
    var teams: String?
    @Flag(help: "Only write --teams, and serve nothing.") var teamsOnly = false

    func run() async throws {
      let mode = BenchSite.Mode(rawValue: mode) ?? .changed
      var site: BenchSite
      if let mix {
        do { site = try BenchSite(targets: targets, mode: mode, cadence: cadence, mixFolder: mix) } catch {
          throw fail(error)
        }
      } else if let page {
        do { site = try BenchSite(targets: targets, mode: mode, cadence: cadence, pageFile: page) } catch {
          throw fail(error)
        }
      } else {
        site = BenchSite(targets: targets, mode: mode, cadence: cadence)
      }
      site.freezeAfter = freezeAfter
      if let teams {
        let lines = BenchSite.teams(targets: targets).enumerated().map {
          "\(BenchSite.path($0))\t\($1.away)\t\($1.home)\n"
        }
        try lines.joined().write(toFile: teams, atomically: true, encoding: .utf8)
      }
      if teamsOnly { return }
      let start = ContinuousClock.now
      let requestLog = try log.map { try RequestLog(path: $0) }
      let server = try await LoopbackServer.start { [site] request in
        let behavior = site.route(request, elapsed: JobClock<ContinuousClock>.seconds(start.duration(to: .now)))
        requestLog?.append(request.uri, behavior)
        return behavior
      }
      FileHandle.standardOutput.write(Data((server.baseURL + "\n").utf8))
      // Until the parent terminates this process.
      while true { try await Task.sleep(for: .seconds(3600)) }
    }
  }
}
