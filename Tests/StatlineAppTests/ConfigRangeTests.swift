import Foundation
import StatlineApp
import StatlineCore
import StatlineTesting
import Testing

/// A duration or a size too large for the clock or for memory is a configuration error naming
/// the key and the range, never a crash (`live: 1e300` once stopped `check` and `run` with SIGILL).
@Suite struct ConfigRangeTests {
  static func yaml(_ section: String, _ key: String, _ value: String) -> String {
    let entry = section.isEmpty ? "\(key): \(value)" : "\(section):\n  \(key): \(value)"
    return "targets:\n  - url: https://stats.ncaa.org/teams/594020\n\(entry)\n"
  }

  @Test(arguments: [
    ("policy", "live", "1e300"), ("http", "timeout", "1e308"), ("policy", "idle", "inf"), ("policy", "idle", ".inf"),
    ("captures", "maxAge", "2e11d"), ("", "summaryEvery", "1e30ms"), ("policy", "imminent", "3651d"),
    ("http", "maxBodySize", "9999999999999GB"), ("http", "maxBodySize", "2048GB"), ("http", "maxBodySize", "-1MB"),
    ("", "maxTargetsPerPage", "0"), ("", "maxTargetsPerPage", "1000001"),
  ])
  func anOutOfRangeValueIsAnErrorNamingItsKey(_ section: String, _ key: String, _ value: String) throws {
    let path = section.isEmpty ? key : "\(section).\(key)"
    #expect {
      try JobConfigReader.parse(Self.yaml(section, key, value), file: "statline.yml")
    } throws: { error in
      let text = "\(error)"
      return (error as? StatlineError)?.kind == .configuration && text.contains(path)
        && (text.contains("out of range") || text.contains("is not a") || text.contains("must be"))
    }
    // The command a user runs: an error and the usage status, not a signal.
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("range-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("statline.yml")
    try Data(Self.yaml(section, key, value).utf8).write(to: file)
    let output = try CommandRunner.run(["check", "--config", file.path])
    #expect(output.status == 64, "\(output.stderr)")  // EX_USAGE: a configuration error
    #expect(output.stderr.contains(path), "\(output.stderr)")
  }

  @Test(arguments: [
    ("policy", "live", "3650d"), ("http", "maxBodySize", "1024GB"), ("http", "timeout", "0.5"),
    ("", "maxTargetsPerPage", "1000000"),
  ])
  func theLargestValuesInRangeAreTaken(_ section: String, _ key: String, _ value: String) throws {
    _ = try JobConfigReader.parse(Self.yaml(section, key, value), file: "statline.yml")
  }
}
