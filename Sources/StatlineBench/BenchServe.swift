import Foundation
import StatlineCore

/// Starting `statline bench serve` as a child process (so the site's CPU is not the job's) and
/// reading the base URL it prints.
enum BenchServe {
  static func start(_ arguments: [String]) throws(StatlineError) -> (Process, String) {
    let server = Process()
    server.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    server.arguments = ["bench", "serve"] + arguments
    let pipe = Pipe()
    server.standardOutput = pipe
    do {
      try server.run()
    } catch {
      throw StatlineError(.io, "cannot start the benchmark site: \(error.localizedDescription)")
    }
    guard let line = String(data: pipe.fileHandleForReading.availableData, encoding: .utf8),
      let url = line.split(separator: "\n").first.map(String.init), url.hasPrefix("http://127.0.0.1:")
    else {
      server.terminate()
      throw StatlineError(
        .io, "the benchmark site did not start", hint: "run `statline bench serve \(arguments.joined(separator: " "))`")
    }
    return (server, url)
  }
}
