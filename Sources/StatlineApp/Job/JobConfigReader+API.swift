import Foundation
import StatlineCore
import StatlineServer
import Yams

extension YAMLWalker {
  /// `api:`: `deviceKeys` (the hashes of the keys that may write devices), the read rate and the
  /// cap on requests at once per client address (`readRate`, `readBurst`,
  /// `maxConcurrentPerClient`: off when absent), and the device routes' rate per address
  /// (`writeRate`, `writeBurst`).
  func api(_ node: Yams.Node, _ path: String, into config: inout JobConfig) throws(StatlineError) {
    var numbers: [String: (Double, Yams.Node)] = [:]
    for (name, value) in try pairs(node, path, keys: ConfigKeys.api) {
      let at = "api.\(name)"
      if name == "deviceKeys" {
        guard let items = value.sequence else {
          throw failure(at, value, "must be a list of key hashes", expected: "- sha256:<64 hex digits>")
        }
        config.deviceKeyHashes = try items.enumerated().map { (index, item) throws(StatlineError) in
          try string(item, "\(at)[\(index)]")
        }
        do {
          _ = try DeviceKeys(hashes: config.deviceKeyHashes)
        } catch {
          throw failure(at, value, error.reason, expected: "- sha256:<64 hex digits>")
        }
        continue
      }
      guard case .scalar(let scalar) = value, let number = Double(scalar.string), number.isFinite else {
        throw failure(
          at, value, "must be a number", expected: name.hasPrefix("max") ? "for example 64" : "for example 20")
      }
      if name == "maxConcurrentPerClient", number != number.rounded() {
        throw failure(at, value, "must be a whole number", expected: "for example 64")
      }
      numbers[name] = (number, value)
    }
    // Checked as `serve`'s flags are (`ClientLimits`, `DeviceRoutes.Limits`), placed in the file.
    let place = numbers.values.map(\.1).first
    do {
      config.clientLimits = try ClientLimits(
        readRate: numbers["readRate"]?.0, readBurst: numbers["readBurst"]?.0,
        concurrentRequests: numbers["maxConcurrentPerClient"].map { Int(exactly: $0.0) ?? ($0.0 < 0 ? -1 : .max) },
        names: ("api.readRate", "api.readBurst", "api.maxConcurrentPerClient"))
      try config.deviceLimits.setAddress(
        rate: numbers["writeRate"]?.0, burst: numbers["writeBurst"]?.0, names: ("api.writeRate", "api.writeBurst"))
    } catch {
      throw failure(path, place, error.reason, expected: error.hint ?? "a number")
    }
  }
}
