import Foundation

/// The events a store derived, and what each sink has delivered of them (architecture.md#events).
///
/// Events are written by the store in the same transaction as the batch that caused them
/// (`Store.write`, `ScheduleStore.commit`); this protocol reads them and keeps each sink's
/// cursor and dead letters, so delivery resumes after a restart.
public protocol EventLog: Sendable {
  /// Events after `sequence`, in order (0 = from the first).
  func events(since sequence: Int64, limit: Int) async throws -> [ChangeEvent]
  /// The highest event sequence (0 when there is none).
  func lastEventSequence() async throws -> Int64
  /// The last event sequence `sink` accepted (0 when it has accepted none).
  func cursor(of sink: String) async throws -> Int64
  /// Records that `sink` accepted every event up to `sequence`.
  func setCursor(_ sequence: Int64, of sink: String) async throws
  /// Events a sink gave up on, oldest first (every sink's when `sink` is nil).
  func deadLetters(sink: String?) async throws -> [DeadLetter]
  func addDeadLetter(_ letter: DeadLetter) async throws
  /// Removes a dead letter (after a successful redelivery).
  func removeDeadLetter(sink: String, sequence: Int64) async throws
  /// Rung after every commit of this store (this instance) that wrote events.
  var eventBell: EventBell { get }
}

/// An event a sink could not deliver before giving up.
public struct DeadLetter: Sendable, Equatable, Codable {
  public var sink: String
  public var event: ChangeEvent
  public var attempts: Int
  /// The last error, as the sink reported it.
  public var error: String
  public var failedAt: Date

  public init(sink: String, event: ChangeEvent, attempts: Int, error: String, failedAt: Date) {
    self.sink = sink
    self.event = event
    self.attempts = attempts
    self.error = error
    self.failedAt = failedAt
  }
}
