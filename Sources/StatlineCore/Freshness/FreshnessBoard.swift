import Foundation

/// Which targets feed which games, from the stored schedule: what `Freshness` is judged from.
/// Built once per schedule change and asked for every game an answer holds.
public struct FreshnessBoard: Sendable {
  /// One target, as freshness needs it.
  public struct Feeder: Sendable, Equatable {
    public var id: String
    public var host: String?
    public var lastSucceeded: Date?
    public var cadence: Double?
    public var outcome: TargetState.Outcome
    public var lastError: String?
    public var retired: Bool

    public init(
      id: String, host: String?, lastSucceeded: Date?, cadence: Double?, outcome: TargetState.Outcome,
      lastError: String?, retired: Bool
    ) {
      self.id = id
      self.host = host
      self.lastSucceeded = lastSucceeded
      self.cadence = cadence
      self.outcome = outcome
      self.lastError = lastError
      self.retired = retired
    }
  }

  /// The feeders of each game id.
  public private(set) var feeders: [String: [Feeder]] = [:]
  /// The games each feeder (by id) is listed under, to take it out when it changes.
  private var gamesOf: [String: [String]] = [:]
  /// Hosts whose breaker is open, with when it lets a probe through.
  public private(set) var openHosts: [String: Date?] = [:]

  /// A game with one of these statuses is settled: its answer cannot go stale.
  public static let settled: Set<GameStatus> = [.final, .cancelled, .postponed]
  /// The cadence assumed for a target that has not recorded one: the default policy's.
  static func assumedCadence(_ status: GameStatus) -> Double { status == .live ? 30 : 3600 }

  public init(targets: [TargetState], hosts: [HostHealth]) {
    self.init(
      feeders: targets.map { state in
        (
          Feeder(
            id: state.id, host: URL(string: state.target.url)?.host(), lastSucceeded: state.lastSucceeded,
            cadence: state.cadence, outcome: state.outcome, lastError: state.lastError, retired: state.isRetired),
          state.games.map(\.id) + (state.gameId.map { [$0] } ?? [])
        )
      }, hosts: hosts)
  }

  /// From each feeder and the ids of the games it feeds (a store reads only these fields).
  public init(feeders: [(Feeder, [String])], hosts: [HostHealth]) {
    apply(Changes(feeders: feeders, hosts: hosts))
  }

  /// The targets whose state changed since a board was built, and every host (a few rows).
  public struct Changes: Sendable {
    public var feeders: [(Feeder, [String])]
    public var hosts: [HostHealth]

    public init(feeders: [(Feeder, [String])], hosts: [HostHealth]) {
      self.feeders = feeders
      self.hosts = hosts
    }
  }

  /// The board with each changed feeder in place of what it was (listed under the games it
  /// feeds now), and the hosts' breakers as they are: a commit costs its own targets, not the
  /// schedule's.
  public mutating func apply(_ changes: Changes) {
    for (feeder, games) in changes.feeders {
      for id in gamesOf[feeder.id] ?? [] {
        feeders[id]?.removeAll { $0.id == feeder.id }
        if feeders[id]?.isEmpty == true { feeders[id] = nil }
      }
      let unique = Array(Set(games))
      gamesOf[feeder.id] = unique
      for id in unique { feeders[id, default: []].append(feeder) }
    }
    openHosts = [:]
    for host in changes.hosts where host.breaker == .open { openHosts[host.host] = host.openUntil }
  }

  /// The freshness of `game` at `now`: fresh while the feeder that succeeded last did so within
  /// two of its cadences; otherwise stale, with the reason that feeder gives.
  /// A canonical game is fed by the targets of every source game it merges.
  public func freshness(of game: Game, changedAt: Date?, now: Date) -> Freshness {
    let candidates = ([game.id] + (game.sources ?? [])).flatMap { feeders[$0] ?? [] }
    guard
      let best = candidates.max(by: {
        ($0.lastSucceeded ?? .distantPast, $1.id) < ($1.lastSucceeded ?? .distantPast, $0.id)
      })
    else {
      let settled = Self.settled.contains(game.status)
      return Freshness(
        changedAt: changedAt, polledAt: nil, target: nil, cadence: nil, stale: !settled,
        reason: settled ? nil : .unwatched,
        detail: settled ? nil : "no target of the job polls this game: its answer is as it was stored")
    }
    let cadence = best.cadence ?? Self.assumedCadence(game.status)
    var answer = Freshness(
      changedAt: changedAt, polledAt: best.lastSucceeded, target: best.id, cadence: cadence, stale: false)
    if Self.settled.contains(game.status) { return answer }
    if let last = best.lastSucceeded {
      let deadline = last.addingTimeInterval(2 * cadence)
      if now <= deadline {
        answer.staleAt = deadline
        return answer
      }
    }
    answer.stale = true
    let since =
      best.lastSucceeded.map { "last polled successfully at \(Freshness.iso($0))" } ?? "never polled successfully"
    if let host = best.host, let until = openHosts[host] {
      answer.reason = .breakerOpen
      answer.detail =
        "target \(best.id) \(since); the circuit breaker for \(host) is open"
        + (until.map { " until \(Freshness.iso($0))" } ?? "")
    } else if best.retired {
      answer.reason = .notPolled
      answer.detail =
        "target \(best.id) \(since) and is retired"
        + (best.lastError.map { " (\(StatlineError.kindName(of: $0)))" } ?? "")
    } else {
      switch best.outcome {
      case .blocked:
        answer.reason = .blocked
        answer.detail = "target \(best.id) \(since); it is blocked\(Self.kind(best.lastError))"
      case .failed, .absent:
        answer.reason = .failing
        answer.detail = "target \(best.id) \(since); its polls fail\(Self.kind(best.lastError))"
      case .new, .stored, .unchanged:
        answer.reason = .notPolled
        answer.detail =
          "target \(best.id) \(since), more than twice its \(Int(cadence)) s cadence ago: the job is not polling it"
      }
    }
    return answer
  }

  /// ` (network error)`: an answer names the kind of a target's error, never its text, which can
  /// quote the page (it is in `statline status` and the captures).
  static func kind(_ error: String?) -> String {
    error.map { " (\(StatlineError.kindName(of: $0)); `statline status` has the error)" } ?? ""
  }
}
