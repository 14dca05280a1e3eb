import Foundation
import StatlineCore
import StatlineEngine
import Yams

extension YAMLWalker {
  /// `logos:`: `enabled` (false by default), how often the keeper looks (`every`), when a stored
  /// logo is asked again (`refreshAfter`), the retry after a failure and its cap (`retryAfter`,
  /// `maxRetryAfter`), the largest logo (`maxBytes`) and the downloads a pass (`perPass`).
  func logos(_ node: Yams.Node, _ path: String, into logos: inout JobConfig.LogoSettings) throws(StatlineError) {
    for (name, value) in try pairs(node, path, keys: ConfigKeys.logos) {
      let at = "logos.\(name)"
      switch name {
      case "enabled": logos.enabled = try bool(value, at)
      case "every": logos.keeper.every = try duration(value, at)
      case "refreshAfter": logos.keeper.refreshAfter = LogoKeeperConfiguration.seconds(try duration(value, at))
      case "retryAfter": logos.keeper.retryAfter = LogoKeeperConfiguration.seconds(try duration(value, at))
      case "maxRetryAfter": logos.keeper.maximumRetryAfter = LogoKeeperConfiguration.seconds(try duration(value, at))
      case "maxBytes": logos.keeper.maximumBytes = try bytes(value, at)
      default: logos.keeper.perPass = try int(value, at, minimum: 1)
      }
    }
    guard logos.keeper.every > .zero else {
      throw failure("logos.every", node, "must be longer than zero", expected: "every: 10m")
    }
    guard logos.keeper.retryAfter <= logos.keeper.maximumRetryAfter else {
      throw failure(
        "logos.retryAfter", node, "must not be longer than logos.maxRetryAfter",
        expected: "retryAfter: 1h with maxRetryAfter: 1d")
    }
  }
}
