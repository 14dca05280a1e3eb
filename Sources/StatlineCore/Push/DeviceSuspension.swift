import Foundation

extension Device {
  /// Why a device gets no pushes (architecture.md#devices): the sender's answer, kept on the
  /// device until it registers again.
  public struct Suspension: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
      /// The token is gone (APNs 410 `Unregistered`, FCM `UNREGISTERED`): the app was removed or
      /// the token replaced. Purged after a while.
      case disabled
      /// The token is not one the service takes for this app and environment
      /// (`BadDeviceToken`, `DeviceTokenNotForTopic`): kept, and listed with why, for a person.
      case quarantined
    }

    public var kind: Kind
    public var why: String
    /// For `disabled`: since when the service says the token is no longer valid (ISO 8601);
    /// for `quarantined`: when it was answered.
    public var since: String

    public init(kind: Kind, why: String, since: String) {
      self.kind = kind
      self.why = why
      self.since = since
    }
  }

  /// Whether pushes go to it.
  public var isLive: Bool { suspended == nil }

  /// The device after `suspension`, or nil when it does not apply: a token disabled as of a
  /// time before the device last registered was registered again since (APNs' rule: a 410's
  /// timestamp older than the registration is not the live token's), and an unchanged
  /// suspension changes nothing. Every store runs this rule.
  public func suspending(_ suspension: Suspension) -> Device? {
    if suspension.kind == .disabled, let since = Self.instant(suspension.since),
      let registered = Self.instant(updatedAt), registered > since
    {
      return nil
    }
    guard suspended != suspension else { return nil }
    var device = self
    device.suspended = suspension
    return device
  }

  /// An ISO 8601 instant with or without fractional seconds.
  static func instant(_ text: String) -> Date? {
    (try? Date(text, strategy: .iso8601))
      ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
  }
}
