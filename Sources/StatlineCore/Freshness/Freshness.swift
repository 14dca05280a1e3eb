import Foundation

/// How current a game's answer is (the read API's honesty about a frozen score): when the store
/// last changed the game, when the target that feeds it last polled successfully, and whether
/// that is too long ago for what the game is doing.
public struct Freshness: Sendable, Equatable, Encodable {
  /// Why a game is stale.
  public enum Reason: String, Sendable, Equatable, Encodable, CaseIterable {
    /// Its target's polls fail (fetch, parse or validation).
    case failing
    /// Its target is blocked (a wall, a refusal): reported, never forced.
    case blocked
    /// The circuit breaker of its target's host is open.
    case breakerOpen
    /// Its target is not being polled: the job stopped, or retired the target.
    case notPolled
    /// No target of the job polls this game (a store filled by replay or import).
    case unwatched
  }

  /// When the store last wrote the game (nil: before the store kept the time).
  public var changedAt: Date?
  /// When the target that feeds it last polled successfully (stored or unchanged).
  public var polledAt: Date?
  /// That target's id.
  public var target: String?
  /// The seconds the job means to wait between that target's good polls.
  public var cadence: Double?
  public var stale: Bool
  public var reason: Reason?
  /// What went wrong, in words.
  public var detail: String?
  /// When a fresh game turns stale if no poll succeeds before (not in the JSON: it bounds how
  /// long an answer may be served from memory).
  public var staleAt: Date?

  public init(
    changedAt: Date?, polledAt: Date?, target: String?, cadence: Double?, stale: Bool, reason: Reason? = nil,
    detail: String? = nil, staleAt: Date? = nil
  ) {
    self.changedAt = changedAt
    self.polledAt = polledAt
    self.target = target
    self.cadence = cadence
    self.stale = stale
    self.reason = reason
    self.detail = detail
    self.staleAt = staleAt
  }

  enum CodingKeys: String, CodingKey { case changedAt, polledAt, target, cadence, stale, reason, detail }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(changedAt.map(Self.iso), forKey: .changedAt)
    try container.encode(polledAt.map(Self.iso), forKey: .polledAt)
    try container.encode(target, forKey: .target)
    try container.encode(cadence, forKey: .cadence)
    try container.encode(stale, forKey: .stale)
    try container.encode(reason, forKey: .reason)
    try container.encode(detail, forKey: .detail)
  }

  /// `2026-03-07T19:59:00Z`.
  public static func iso(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: false))
  }

  /// `iso`'s text read back (fractional seconds allowed); nil for anything else.
  public static func date(_ text: String) -> Date? {
    (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: false)))
      ?? (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
  }
}
