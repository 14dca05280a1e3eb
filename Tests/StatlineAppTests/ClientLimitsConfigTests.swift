import Foundation
import StatlineApp
import StatlineCore
import StatlineServer
import StatlineTesting
import Testing

/// The per-client limits (issue 54) as the job's configuration (`api:`) and `serve`'s flags
/// set them: read, checked in one place, a bad value named where it is.
struct ClientLimitsConfigTests {
  static let targets = "targets:\n  - url: https://stats.example.edu/1.xml\n    parser: statbroadcast-game-xml\n"

  @Test func theConfigurationSetsTheReadRateTheCapAndTheDeviceRate() throws {
    let config = try JobConfigReader.parse(
      Self.targets + "api:\n  readRate: 20\n  maxConcurrentPerClient: 64\n  writeRate: 5\n  writeBurst: 50\n")
    #expect(config.clientLimits.readRate == 20 && config.clientLimits.readBurst == 40)
    #expect(config.clientLimits.concurrentRequests == 64)
    #expect(config.deviceLimits.addressRate == 5 && config.deviceLimits.addressBurst == 50)
    let defaults = try JobConfigReader.parse(Self.targets)
    #expect(defaults.clientLimits == ClientLimits(), "off unless set")
    #expect(defaults.deviceLimits.addressRate == 2 && defaults.deviceLimits.addressBurst == 30)
  }

  @Test(arguments: [
    ("  readRate: 0\n", "api.readRate 0.0 is not a rate above 0"),
    ("  readBurst: 10\n", "api.readBurst is set without api.readRate"),
    ("  maxConcurrentPerClient: 2.5\n", "api.maxConcurrentPerClient (line 5): must be a whole number"),
    ("  readRate: lots\n", "api.readRate (line 5): must be a number"),
    ("  writeRate: -1\n", "api.writeRate -1.0 is not a rate above 0"),
  ])
  func aBadLimitIsNamed(line: String, message: String) throws {
    let error = #expect(throws: StatlineError.self) {
      try JobConfigReader.parse(Self.targets + "api:\n" + line, file: "statline.yml")
    }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
  }

  @Test func serveChecksItsFlagsTheSameWay() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("limits-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let zero = try CommandRunner.run(["serve", "--store", path, "--port", "0", "--read-rate", "0"])
    #expect(zero.status == 64 && zero.stderr.contains("--read-rate 0.0 is not a rate above 0"), "\(zero.stderr)")
    let cap = try CommandRunner.run(["serve", "--store", path, "--port", "0", "--max-concurrent-per-client", "0"])
    #expect(cap.status == 64 && cap.stderr.contains("--max-concurrent-per-client 0 is below 1"), "\(cap.stderr)")
  }
}
