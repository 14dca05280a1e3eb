import Foundation

/// One notification the evaluator means to send one device for one event: its text, what groups
/// and replaces it on the lock screen, and how long it is worth delivering. Planned by
/// `AlertPlanner` (`StatlinePush`), kept in the outbox (`OutboxSlot`) until sent.
public struct PlannedAlert: Codable, Sendable, Equatable {
  public var deviceId: String
  public var eventId: String
  /// Which of the device's choices it answers.
  public var kind: Device.Alert
  public var body: String
  /// `thread-id` (groups a game's alerts) and `apns-collapse-id` / FCM `collapse_key` (a newer
  /// score replaces the older one): the game's id, cut to APNs' 64 bytes.
  public var threadId: String
  public var collapseId: String
  /// Past it the alert is dropped, never delivered late (minutes in a game, hours for a final).
  public var expiresAt: Date
  /// In the device's quiet hours: no sound, no banner (only a final goes then).
  public var silent: Bool
  /// The app's deep link: the game, its sport and the event, as strings.
  public var data: [String: String]
  /// When the evaluator planned it (the push latency is measured from here).
  public var plannedAt: Date?
  /// For a Live Activity: the update it carries (then `body` is the state's line).
  public var activity: ActivityUpdate?

  public init(
    deviceId: String, eventId: String, kind: Device.Alert, body: String, threadId: String, collapseId: String,
    expiresAt: Date, silent: Bool, data: [String: String], plannedAt: Date? = nil, activity: ActivityUpdate? = nil
  ) {
    self.deviceId = deviceId
    self.eventId = eventId
    self.kind = kind
    self.body = body
    self.threadId = threadId
    self.collapseId = collapseId
    self.expiresAt = expiresAt
    self.silent = silent
    self.data = data
    self.plannedAt = plannedAt
    self.activity = activity
  }
}
