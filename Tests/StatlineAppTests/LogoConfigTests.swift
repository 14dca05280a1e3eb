import Foundation
import StatlineApp
import StatlineCore
import StatlineEngine
import Testing

/// `logos:` in the job's configuration (issue 54): off by default, every knob read, a bad value
/// named where it is.
struct LogoConfigTests {
  static let targets = ClientLimitsConfigTests.targets

  @Test func theSectionSetsTheKeeper() throws {
    let config = try JobConfigReader.parse(
      Self.targets
        + "logos:\n  enabled: true\n  every: 5m\n  refreshAfter: 3d\n  retryAfter: 30m\n  maxRetryAfter: 12h\n  maxBytes: 256KB\n  perPass: 10\n"
    )
    #expect(config.logos.enabled)
    let keeper = config.logos.keeper
    #expect(keeper.every == .seconds(300) && keeper.refreshAfter == 3 * 86_400 && keeper.retryAfter == 1_800)
    #expect(keeper.maximumRetryAfter == 43_200 && keeper.maximumBytes == 256 << 10 && keeper.perPass == 10)
    let defaults = try JobConfigReader.parse(Self.targets)
    #expect(!defaults.logos.enabled && defaults.logos.keeper == LogoKeeperConfiguration(), "off unless enabled")
  }

  @Test(arguments: [
    ("  every: 0s\n", "logos.every (line 5): must be longer than zero"),
    ("  retryAfter: 2d\n", "logos.retryAfter (line 5): must not be longer than logos.maxRetryAfter"),
    ("  perPass: 0\n", "logos.perPass"),
    ("  enabled: sometimes\n", "logos.enabled (line 5)"),
    ("  size: 64\n", "logos.size"),
  ])
  func aBadValueIsNamed(line: String, message: String) throws {
    let error = #expect(throws: StatlineError.self) {
      try JobConfigReader.parse(Self.targets + "logos:\n" + line, file: "statline.yml")
    }
    #expect(error?.description.contains(message) == true, "\(String(describing: error))")
  }
}
