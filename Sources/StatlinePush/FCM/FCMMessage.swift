import Foundation
import StatlineCore

/// One `messages:send` to FCM HTTP v1 for one device (PUSH.md §3): `{"message": {…}}` with the
/// device's registration token (`token`) or installation id (`fid`), the alert as its
/// `notification`, the deep link as string `data`, and per game Android's `collapse_key` and
/// notification `tag` (a newer score replaces the older, on the server and in the shade) and a
/// `ttl` to the alert's expiry (a stale score is dropped, never shown late).
public struct FCMMessage: Sendable, Equatable {
  /// FCM's most bytes in a message to a device (the message without its target).
  public static let maximumBytes = 4096

  public var deviceToken: String
  /// The JSON body.
  public var body: Data
  /// The message without its target, as FCM measures it.
  public var size: Int

  /// The message for an alert to `device`, sent at `now`: `ttl` is what is left of the alert's
  /// life (at least 0 s); quiet hours make it a normal-priority, low-priority notification.
  public static func alert(_ alert: PlannedAlert, to device: Device, at now: Date) -> FCMMessage {
    let ttl = max(0, Int(alert.expiresAt.timeIntervalSince(now).rounded(.down)))
    var notification: [String: Any] = ["tag": alert.collapseId]
    notification["notification_priority"] = alert.silent ? "PRIORITY_LOW" : "PRIORITY_HIGH"
    notification["default_sound"] = !alert.silent
    let android: [String: Any] = [
      "collapse_key": alert.collapseId, "priority": alert.silent ? "NORMAL" : "HIGH", "ttl": "\(ttl)s",
      "notification": notification,
    ]
    let content: [String: Any] = [
      "notification": ["body": alert.body], "data": alert.data.filter { !Self.reserved($0.key) }, "android": android,
    ]
    let target = device.tokenType == .installation ? "fid" : "token"
    var message = content
    message[target] = device.token
    return FCMMessage(
      deviceToken: device.token, body: encode(["message": message]), size: encode(content).count)
  }

  /// Keys FCM keeps for itself in `data` (`from`, `message_type`, `google…`, `gcm…`).
  static func reserved(_ key: String) -> Bool {
    key == "from" || key == "message_type" || key.hasPrefix("google") || key.hasPrefix("gcm")
  }

  /// JSON, keys sorted, compact. Strings, numbers and booleans only: cannot fail.
  static func encode(_ object: [String: Any]) -> Data {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
  }
}
