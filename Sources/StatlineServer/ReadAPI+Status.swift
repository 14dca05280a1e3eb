import Foundation
import StatlineCore

/// `GET /v1/status`: the operator's view of the job, from the store (what `statline status`
/// prints): targets live, due, failing, blocked and retired, open breakers, recent captures,
/// games whose sources' finals disagree, and the push path (devices by kind and state, the outbox).
/// It is unauthenticated, so it carries no page content: an error is named by its kind
/// (`blocked`, `validation failed`), never by its text, which can quote the page (a title, a
/// cell); the text is in `statline status` and the captures.
struct StatusAnswer: Encodable {
  struct Counts: Encodable {
    var total = 0
    var live = 0
    var due = 0
    var failing = 0
    var blocked = 0
    var retired = 0
    /// Targets whose last stored page had records refused or unread.
    var partial = 0
  }

  struct Trouble: Encodable {
    var target: String
    var outcome: TargetState.Outcome
    @NullEncoded var errorKind: String?
    @NullEncoded var lastSucceeded: String?
    var consecutiveFailures: Int
  }

  struct Breaker: Encodable {
    var host: String
    var failures: Int
    @NullEncoded var openUntil: String?
  }

  /// A host the cluster holds back after its `Retry-After`, until when.
  struct Pause: Encodable {
    var host: String
    var until: String
  }

  struct CaptureLine: Encodable {
    var id: Int64
    var capturedAt: String
    @NullEncoded var url: String?
    @NullEncoded var parser: String?
    var errorKind: String
  }

  /// A canonical game whose sources' finals disagree (the kept one is shown).
  struct ConflictLine: Encodable {
    var game: String
    @NullEncoded var date: String?
    var kept: String
    var keptScore: String
    var other: String
    var otherScore: String
  }

  var now: String
  var targets: Counts
  /// Failing or blocked targets, most failures first (at most 20).
  var trouble: [Trouble]
  var openBreakers: [Breaker]
  /// Hosts paused by a `Retry-After` (PostgreSQL, where the pause is the cluster's), until when.
  var pausedHosts: [Pause]
  /// The newest captured failures (at most 10).
  var captures: [CaptureLine]
  /// Games whose sources' finals disagree, newest first (at most 20).
  var conflicts: [ConflictLine]
  @NullEncoded var lastSuccessfulPoll: String?
  var version: Int64
  /// The devices and the push outbox (null where the API was started without them).
  @NullEncoded var push: PushStatus?
}

extension ReadAPI {
  func status() async throws -> APIResponse {
    let now = now()
    var states = try await reader.targets()
    // The job's refused commits (in this process only): the store holds the state from before.
    if let refused = configuration.commitHealth?.failures, !refused.isEmpty {
      for index in states.indices {
        guard let failure = refused[states[index].id] else { continue }
        states[index].outcome = .failed
        states[index].lastError = failure.error
        states[index].consecutiveFailures = max(states[index].consecutiveFailures, failure.consecutive)
        states[index].lastSucceeded = failure.lastSucceeded
      }
    }
    var counts = StatusAnswer.Counts()
    for state in states {
      counts.total += 1
      if state.isRetired {
        counts.retired += 1
        continue
      }
      if state.isLive { counts.live += 1 }
      if let due = state.nextDue, due <= now { counts.due += 1 }
      if state.outcome == .failed || state.outcome == .absent { counts.failing += 1 }
      if state.outcome == .blocked { counts.blocked += 1 }
      if state.partial != nil { counts.partial += 1 }
    }
    // Failing targets, and those whose last page was stored partially (a success, with records
    // left out): the kind says which.
    let trouble = states.filter {
      !$0.isRetired && ([.failed, .blocked, .absent].contains($0.outcome) || $0.partial != nil)
    }
    .sorted { ($0.consecutiveFailures, $1.id) > ($1.consecutiveFailures, $0.id) }.prefix(20)
    .map {
      StatusAnswer.Trouble(
        target: $0.id, outcome: $0.outcome,
        errorKind: $0.lastError.map(StatlineError.kindName)
          ?? $0.partial.map { _ in StatlineError.Kind.partial.rawValue },
        lastSucceeded: $0.lastSucceeded.map(Freshness.iso),
        consecutiveFailures: $0.consecutiveFailures)
    }
    let hosts = try await reader.hosts()
    let breakers = hosts.filter { $0.breaker == .open }.map {
      StatusAnswer.Breaker(host: $0.host, failures: $0.failures, openUntil: $0.openUntil.map(Freshness.iso))
    }
    let paused = hosts.compactMap { host in
      host.pausedUntil.map { StatusAnswer.Pause(host: host.host, until: Freshness.iso($0)) }
    }
    let captures = try await reader.captures(limit: 10).map {
      StatusAnswer.CaptureLine(
        id: $0.id, capturedAt: Freshness.iso($0.capturedAt), url: $0.url, parser: $0.parser,
        errorKind: StatlineError.kindName(of: $0.error))
    }
    let conflicts = try await reader.conflictedGames(limit: 20).compactMap { game in
      game.conflict.map {
        StatusAnswer.ConflictLine(
          game: game.id, date: game.date, kept: $0.kept, keptScore: $0.keptScore, other: $0.other,
          otherScore: $0.otherScore)
      }
    }
    var push: PushStatus?
    if let devices = configuration.push { push = try await PushStatus.read(from: devices, at: now) }
    let answer = StatusAnswer(
      now: Freshness.iso(now), targets: counts, trouble: Array(trouble), openBreakers: breakers, pausedHosts: paused,
      captures: captures,
      conflicts: conflicts, lastSuccessfulPoll: try await reader.lastSuccessfulPoll().map(Freshness.iso),
      version: try await reader.version(),
      push: push)
    return Self.json(200, answer, cacheControl: "no-store")
  }
}
