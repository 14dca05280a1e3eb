import Foundation
import StatlineCore
import Yams

extension YAMLWalker {
  /// `push:`: `apns` (`keyFile`, `keyId`, `teamId`, …), `fcm` (`serviceAccountFile`, …), `inFlight`, `batch`, `lease`, `cap`.
  /// Files are read where the job runs, as `configs` are.
  func push(_ node: Yams.Node) throws(StatlineError) -> PushSettings {
    var settings = PushSettings()
    for (key, value) in try pairs(node, "push", keys: ConfigKeys.push) {
      let at = "push.\(key)"
      switch key {
      case "apns": settings.apns = try apns(value, at)
      case "fcm": settings.fcm = try fcm(value, at)
      case "inFlight": settings.inFlight = try int(value, at, minimum: 1)
      case "batch": settings.batch = try int(value, at, minimum: 1)
      case "lease": settings.lease = try duration(value, at)
      case "cap": settings.cap = try int(value, at, minimum: 1)
      case "disableBurst":
        guard case .scalar(let scalar) = value, let share = Double(scalar.string), share > 0, share <= 1 else {
          throw failure(at, value, "is not a share", expected: "a number above 0 and at most 1 (0.5: half; 1: never)")
        }
        settings.disableBurst = share
      default:
        if case .scalar(let scalar) = value, ["never", "off"].contains(scalar.string) {
          settings.purgeDisabledAfter = nil
        } else {
          settings.purgeDisabledAfter = try duration(value, at)
        }
      }
    }
    guard settings.apns != nil || settings.fcm != nil else {
      throw failure(
        "push", node, "names no sender",
        expected: "apns: {keyFile: AuthKey_….p8, keyId: …, teamId: …} and/or fcm: {serviceAccountFile: …}")
    }
    return settings
  }

  func apns(_ node: Yams.Node, _ path: String) throws(StatlineError) -> PushSettings.APNs {
    let fields = try pairs(node, path, keys: ConfigKeys.apns)
    func text(_ name: String) throws(StatlineError) -> String {
      guard let value = fields.first(where: { $0.0 == name })?.1 else {
        throw failure(
          path, node, "has no \(name)",
          expected: "keyFile: AuthKey_ABC1234567.p8, keyId: ABC1234567, teamId: TEAM123456")
      }
      return try string(value, "\(path).\(name)")
    }
    var apns = PushSettings.APNs(keyFile: try text("keyFile"), keyId: try text("keyId"), teamId: try text("teamId"))
    for (key, value) in fields {
      let at = "\(path).\(key)"
      switch key {
      case "connections": apns.connections = try int(value, at, minimum: 1)
      case "timeout": apns.timeout = try duration(value, at)
      case "production": apns.production = try url(value, at)
      case "sandbox": apns.sandbox = try url(value, at)
      case "trustRoots": apns.trustRoots = try string(value, at)
      case "broadcast": apns.broadcast = try broadcast(value, at)
      default: break
      }
    }
    return apns
  }

  func broadcast(_ node: Yams.Node, _ path: String) throws(StatlineError) -> PushSettings.Broadcast {
    let fields = try pairs(node, path, keys: ConfigKeys.broadcast)
    guard let topic = fields.first(where: { $0.0 == "topic" })?.1 else {
      throw failure(path, node, "has no topic", expected: "topic: com.example.scores (the app's bundle id)")
    }
    var broadcast = PushSettings.Broadcast(topic: try string(topic, "\(path).topic"))
    for (key, value) in fields {
      let at = "\(path).\(key)"
      switch key {
      case "environment":
        guard let environment = Device.Environment(rawValue: try string(value, at)) else {
          throw failure(at, value, "is not an environment", expected: "production or sandbox")
        }
        broadcast.environment = environment
      case "storage":
        let storage = try string(value, at)
        guard ["latest", "none"].contains(storage) else {
          throw failure(at, value, "is not a storage policy", expected: "latest (the newest message) or none")
        }
        broadcast.storesLatest = storage == "latest"
      case "production": broadcast.production = try url(value, at)
      case "sandbox": broadcast.sandbox = try url(value, at)
      default: break
      }
    }
    return broadcast
  }

  func fcm(_ node: Yams.Node, _ path: String) throws(StatlineError) -> PushSettings.FCM {
    let fields = try pairs(node, path, keys: ConfigKeys.fcm)
    guard let file = fields.first(where: { $0.0 == "serviceAccountFile" })?.1 else {
      throw failure(
        path, node, "has no serviceAccountFile", expected: "serviceAccountFile: firebase-service-account.json")
    }
    var fcm = PushSettings.FCM(serviceAccountFile: try string(file, "\(path).serviceAccountFile"))
    for (key, value) in fields {
      let at = "\(path).\(key)"
      switch key {
      case "project": fcm.project = try string(value, at)
      case "connections": fcm.connections = try int(value, at, minimum: 1)
      case "timeout": fcm.timeout = try duration(value, at)
      case "baseURL": fcm.baseURL = try url(value, at)
      case "trustRoots": fcm.trustRoots = try string(value, at)
      default: break
      }
    }
    return fcm
  }
}
