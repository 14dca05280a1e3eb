/// Where events go: the built-in JSON-lines file and signed webhooks, or a downstream package's
/// own (an APNs or FCM sender). Delivery runs beside the scheduler, from the store: a sink that
/// is slow or down never slows polling.
///
/// `deliver` returns when the sink has accepted the event (the cursor then advances), and
/// throws `EventDeliveryError` otherwise. Delivery is at least once and in order per game (in
/// store order altogether when `maxInFlight` is 1); the event's `id` is stable across
/// redeliveries, for receivers to deduplicate on.
public protocol EventSink: Sendable {
  /// Names the sink's cursor and dead letters in the store: keep it stable across restarts.
  var name: String { get }
  /// Which events the sink wants.
  var filter: EventFilter { get }
  func deliver(_ event: ChangeEvent) async throws
  /// How many deliveries may be in flight at once (never two of one game). 1 by default.
  var maxInFlight: Int { get }
}

extension EventSink {
  public var maxInFlight: Int { 1 }
}

/// Why a delivery failed, and whether trying again may help.
public struct EventDeliveryError: Error, Sendable, CustomStringConvertible {
  public var reason: String
  /// False for an answer that will not change (a 4xx other than 408 and 429).
  public var retryable: Bool
  /// How long the receiver asked to wait (`Retry-After`).
  public var retryAfter: Duration?

  public init(_ reason: String, retryable: Bool, retryAfter: Duration? = nil) {
    self.reason = reason
    self.retryable = retryable
    self.retryAfter = retryAfter
  }

  public var description: String { reason }
}

/// Which events a sink takes: kinds, sports, team ids; an empty list takes all.
public struct EventFilter: Sendable, Equatable, Codable {
  public var kinds: [ChangeEvent.Kind]
  public var sports: [Sport]
  /// An event matches when either team's id is listed (a `ranking.published` event, when a team
  /// it ranks is, by its canonical or its source id).
  public var teams: [String]

  public init(kinds: [ChangeEvent.Kind] = [], sports: [Sport] = [], teams: [String] = []) {
    self.kinds = kinds
    self.sports = sports
    self.teams = teams
  }

  public static let all = EventFilter()

  public func matches(_ event: ChangeEvent) -> Bool {
    (kinds.isEmpty || kinds.contains(event.type)) && (sports.isEmpty || sports.contains(event.sport))
      && (teams.isEmpty || ids(of: event).contains { $0.map(teams.contains) ?? false })
  }

  private func ids(of event: ChangeEvent) -> [String?] {
    guard let ranking = event.ranking else { return [event.away?.id, event.home?.id] }
    return ranking.namedTeams.flatMap { [$0.team.id, $0.canonicalTeamId] }
  }
}
