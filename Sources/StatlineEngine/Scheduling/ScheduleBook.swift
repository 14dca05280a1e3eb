import Foundation
import StatlineCore

/// The schedule as a value: every target's state, which ones are due, and how a poll's result
/// moves a target (and creates the game targets a discovery page asks for). No I/O, no clock:
/// the scheduler passes `now` and random numbers in, so every rule here is tested directly.
public struct ScheduleBook: Sendable {
  public private(set) var states: [String: TargetState]
  /// Each active target's due time, kept beside the states so that finding due targets, which
  /// the scheduler does on every event, touches only ids and dates.
  private var dues: [String: Date] = [:]
  /// The same due times as a heap, for the running loop (`takeDue`, `nextDue`): entries go
  /// stale as targets are polled again and are dropped when they reach the top.
  private(set) var queue = DueQueue()
  /// Due times `nextWake` moved off the heap as passed (at or before `passedUpTo`), for
  /// `anyPassed`; `passedLooked` counts the entries it looked at (a test holds it to the polls).
  private var passed: [String: Date] = [:]
  private var passedUpTo = Date.distantPast
  private(set) var passedLooked = 0
  /// When each target's state was last written to the store (this run).
  public var persisted: [String: Date] = [:]
  public var policies: [String: SchedulingPolicy]
  public var defaultPolicy: SchedulingPolicy
  /// The sports whose games get game targets; nil: all.
  public var sports: Set<Sport>?
  /// The most targets one poll of a page creates (`maxTargetsPerPage`): a page that asks for
  /// more gets its live games' first, the rest on its next polls, and says how many it left.
  public var maxTargetsPerPage = 1_000

  public init(
    states: [TargetState], policies: [String: SchedulingPolicy] = [:], defaultPolicy: SchedulingPolicy = .default,
    sports: Set<Sport>? = nil
  ) {
    self.states = Dictionary(states.map { ($0.id, $0) }) { _, last in last }
    for state in self.states.values { dues[state.id] = state.nextDue }
    queue = DueQueue(dues)
    self.policies = policies
    self.defaultPolicy = defaultPolicy
    self.sports = sports
  }

  static let removed = "removed from the configuration"

  public func policy(for target: Target) -> SchedulingPolicy { policies[target.source] ?? defaultPolicy }

  /// Adds the configured targets that the store does not know yet (due now), and retires the
  /// configured targets of earlier runs that the configuration no longer lists. Returns the
  /// states that changed, to be committed.
  public mutating func seed(_ configured: [Target], now: Date) -> [TargetState] {
    var changed: [TargetState] = []
    let wanted = Set(configured.map(\.id))
    for target in configured {
      if var known = states[target.id] {
        // Listing a removed target again revives it; a game target its policy retired stays so.
        if known.isRetired, known.lastError == Self.removed {
          known.nextDue = now
          known.pollsSinceFinal = 0
          put(known)
          changed.append(known)
        }
        continue
      }
      let state = TargetState(target: target, nextDue: now)
      put(state)
      changed.append(state)
    }
    for (id, var state) in states where state.discoveredBy == nil && !wanted.contains(id) && !state.isRetired {
      state.nextDue = nil
      state.lastError = Self.removed
      put(state)
      changed.append(state)
    }
    return changed
  }

  /// Staggers targets that fell due while the job was down over `window`, so that a restart
  /// does not fire them all at once; `unit` gives a number in 0..<1 per target.
  public mutating func spreadOverdue(now: Date, window: Duration, unit: () -> Double) -> [TargetState] {
    let seconds = JobClock<ContinuousClock>.seconds(window)
    var changed: [TargetState] = []
    for (id, due) in dues where due < now {
      guard var state = states[id] else { continue }
      state.nextDue = now.addingTimeInterval(seconds * unit())
      put(state)
      changed.append(state)
    }
    return changed
  }

  /// Targets due at `now`, earliest first.
  public func due(at now: Date, excluding busy: Set<String> = []) -> [TargetState] {
    dues.filter { $0.value <= now && !busy.contains($0.key) }.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
      .compactMap { states[$0.key] }
  }

  /// Takes up to `limit` targets due at `now`, earliest first, for polling: O(log n) each, not
  /// a pass over the schedule. A target in `busy` (being polled) is skipped and its entry
  /// dropped: its settled poll puts its next due time back. The taken targets' entries are
  /// removed the same way.
  public mutating func takeDue(at now: Date, excluding busy: Set<String>, limit: Int) -> [TargetState] {
    var taken: [TargetState] = []
    var ids: Set<String> = []
    while taken.count < limit, let top = queue.top, top.due <= now {
      queue.pop()
      // A due time pushed twice (the same state put twice) is one target, taken once.
      guard dues[top.id] == top.due, !busy.contains(top.id), ids.insert(top.id).inserted, let state = states[top.id]
      else { continue }
      taken.append(state)
    }
    return taken
  }

  /// The earliest due time among targets not in `busy`, from the heap (stale entries and those
  /// of busy targets dropped on the way, as in `takeDue`).
  public mutating func nextDue(excluding busy: Set<String>) -> Date? {
    while let top = queue.top {
      if dues[top.id] == top.due, !busy.contains(top.id) { return top.due }
      queue.pop()
    }
    return nil
  }

  /// The earliest due time later than `after` among targets not in `busy`: a cluster worker's
  /// next wake-up. From the heap, as `takeDue` is (the local loop uses those, a worker these;
  /// one book is not asked both ways): stale entries are dropped, due times at or before `after`
  /// move aside for `anyPassed`, and busy targets' entries are set aside for the call. Each entry
  /// leaves the heap once, so a poll costs O(log n), not a pass over every target.
  public mutating func nextWake(excluding busy: Set<String>, after: Date) -> Date? {
    if after < passedUpTo {
      // Asked for an earlier time than before: what was passed may not be now.
      for (id, due) in passed { queue.push(DueQueue.Entry(due: due, id: id)) }
      passed = [:]
    }
    passedUpTo = after
    var setAside: [DueQueue.Entry] = []
    defer { for entry in setAside { queue.push(entry) } }
    while let top = queue.top {
      if dues[top.id] != top.due {
        queue.pop()
      } else if top.due <= after {
        passed[top.id] = top.due
        queue.pop()
      } else if busy.contains(top.id) {
        setAside.append(top)
        queue.pop()
      } else {
        return top.due
      }
    }
    return nil
  }

  /// Whether a target not in `busy` was due at the time `nextWake` was last asked about: the
  /// passed entries, stale ones dropped on the way (each once), busy ones skipped.
  public mutating func anyPassed(excluding busy: Set<String>) -> Bool {
    var stale: [String] = []
    defer { for id in stale { passed[id] = nil } }
    for (id, due) in passed {
      passedLooked += 1
      if dues[id] != due {
        stale.append(id)
      } else if !busy.contains(id) {
        return true
      }
    }
    return false
  }

  /// Takes a state as the store holds it now (a target a worker just claimed).
  public mutating func adopt(_ state: TargetState) { put(state) }

  /// Replaces every state with the store's (a worker's periodic view of the cluster's
  /// schedule), except those in `keeping`: the targets this worker is polling.
  public mutating func mirror(_ stored: [TargetState], keeping: Set<String>) {
    let kept = keeping.compactMap { states[$0] }
    states = Dictionary(stored.map { ($0.id, $0) }) { _, last in last }
    dues = [:]
    for state in states.values { dues[state.id] = state.nextDue }
    queue = DueQueue(dues)
    passed = [:]
    passedUpTo = .distantPast
    for state in kept { put(state) }
  }

  private mutating func put(_ state: TargetState) {
    states[state.id] = state
    dues[state.id] = state.nextDue
    if let due = state.nextDue { queue.push(DueQueue.Entry(due: due, id: state.id)) }
  }

  /// Applies a poll's result to its target; returns the commit (the batch, the target's new
  /// state and any game targets created) and the new state.
  public mutating func apply(
    _ result: Poller.Result, to id: String, now: Date, unit: () -> Double
  ) -> (commit: PollCommit, state: TargetState, discovered: Int, left: Int) {
    guard var state = states[id] else {
      preconditionFailure("a poll result for an unknown target \(id)")
    }
    state.lastPolled = now
    let wasFinal = Self.allFinal(state.games)
    var created: [TargetState] = []
    var left = 0
    var batch: ScreenedBatch?
    switch result.kind {
    case .failed(let error, let blocked):
      state.outcome = blocked ? .blocked : .failed
      state.lastError = error.description
      state.consecutiveFailures += 1
    case .absent:
      state.outcome = .absent
      state.lastError = "the page is not there yet (HTTP \(result.status ?? 0))"
      state.consecutiveFailures += 1
    case .unchanged:
      state.succeeded(.unchanged, result, at: now)
    case .stored(let screened, let discovered):
      // The schedule reads every game of the page; the store gets the kinds the parser is the
      // authority for.
      let stored = screened.batch
      let stores = result.stores.map(screened.keeping) ?? screened
      batch = state.target.role == .discovery ? withoutFollowedGames(stores) : stores
      state.succeeded(.stored, result, at: now)
      state.partial = result.partial.first.map { "\(result.partial.count) refused or unread: \($0)" }
      // A game refused this poll keeps its last good version for the schedule: one bad
      // sighting of a live game does not drop its page to the idle cadence.
      let refused = Set(result.refusedGames)
      state.games = stored.games + state.games.filter { refused.contains($0.id) }
      if let through = stored.rankings.compactMap(\.through).max() { state.pollThrough = through }
      // A page configured as a game page (`role: game`) is watched for its own games: it
      // finds no targets, even when its parser could (an ncaa.com scoreboard as a live feed).
      if state.target.role != .game {
        (created, left) = create(discovered, from: stored, by: id, now: now)
      }
    }
    if ![.failed, .blocked, .absent].contains(state.outcome) {
      // Counted from the poll after the first one that saw every game final.
      state.pollsSinceFinal = Self.allFinal(state.games) ? state.pollsSinceFinal + (wasFinal ? 1 : 0) : 0
    }
    // Counted from the site's answer: the time the result waited to be parsed and stored (a
    // busy store) does not push every later poll back.
    scheduleNext(&state, from: min(result.answeredAt ?? now, now), now: now, unit: unit)
    put(state)
    for target in created { put(target) }
    return (PollCommit(screened: batch, states: [state] + created), state, created.count, left)
  }

  /// A poll whose commit the store refused (a full disk): nothing of it was stored, so the
  /// target is as it was before the poll, its validators too (the page is fetched whole again,
  /// never answered "not modified" for content the store never got), failed, and due on the
  /// failure backoff. Returns the state as it now is.
  public mutating func commitRefused(_ polled: TargetState, error: String, now: Date, unit: () -> Double)
    -> TargetState
  {
    var state = polled
    state.lastPolled = now
    state.outcome = .failed
    state.lastError = error
    state.consecutiveFailures += 1
    scheduleNext(&state, from: now, now: now, unit: unit)
    put(state)
    return state
  }

  /// The state's next poll by its policy, counted from `start` (jittered); none when the policy
  /// stops. A state without failures keeps the cadence it is polled at.
  private func scheduleNext(_ state: inout TargetState, from start: Date, now: Date, unit: () -> Double) {
    let policy = policy(for: state.target)
    let observation = SchedulingPolicy.Observation(
      role: state.target.role, games: state.games, now: now, consecutiveFailures: state.consecutiveFailures,
      pollsSinceFinal: state.pollsSinceFinal, pollThrough: state.pollThrough)
    switch policy.next(observation) {
    case .stop: state.nextDue = nil
    case .after(let delay):
      if state.consecutiveFailures == 0 { state.cadence = JobClock<ContinuousClock>.seconds(delay) }
      state.nextDue = start.addingTimeInterval(JobClock<ContinuousClock>.seconds(policy.jittered(delay, unit: unit())))
    }
  }

  /// A discovery page's summary of a game is not stored once the game's own target has stored
  /// the game: its feed is the authority (a calendar lists the winner first, has no period…),
  /// and two pages taking turns on one record would churn versions. Nil when nothing is left.
  private func withoutFollowedGames(_ screened: ScreenedBatch) -> ScreenedBatch? {
    let followed = Set(
      states.values.filter { $0.target.role == .game && !$0.games.isEmpty }.compactMap(\.gameId))
    guard screened.batch.games.contains(where: { followed.contains($0.id) }) else { return screened }
    let kept = screened.withoutGames(followed)
    return kept.batch.isEmpty ? nil : kept
  }

  static func allFinal(_ games: [Game]) -> Bool { !games.isEmpty && games.allSatisfy { $0.status == .final } }

  /// Games that get no game target: nothing to poll until they start.
  static let notStarted: Set<GameStatus> = [.scheduled, .postponed, .cancelled]

  /// Discovery targets a batch asks for, and game targets for its started games (live, final, suspended, or a
  /// state the page does not explain: the game's own feed tells); a scheduled game gets none,
  /// and a target the book already knows (retired ones included) is not created again. A game of
  /// a sport the configuration leaves out (`sports:`) gets none.
  ///
  /// At most `maxTargetsPerPage` are created, live games' first, then in the page's order; the
  /// count of the rest is returned (the page's next poll creates them).
  private func create(_ discovered: [DiscoveredTarget], from batch: Batch, by parent: String, now: Date)
    -> (created: [TargetState], left: Int)
  {
    let games = Dictionary(batch.games.map { ($0.id, $0) }) { first, _ in first }
    var created: [String: TargetState] = [:]
    var live: [TargetState] = []
    var others: [TargetState] = []
    for item in discovered {
      var isLive = false
      if let gameId = item.gameId {
        guard let game = games[gameId], !Self.notStarted.contains(game.status) else { continue }
        if let sports, !sports.contains(game.sport) { continue }
        isLive = game.status == .live
      }
      guard states[item.target.id] == nil, created[item.target.id] == nil else { continue }
      let state = TargetState(target: item.target, nextDue: now, discoveredBy: parent, gameId: item.gameId)
      created[item.target.id] = state
      if isLive { live.append(state) } else { others.append(state) }
    }
    let kept = (live + others).prefix(max(0, maxTargetsPerPage))
    return (kept.sorted { $0.id < $1.id }, created.count - kept.count)
  }

  /// The summary counts of the schedule at `now`.
  public func summary(at now: Date) -> JobSummary {
    var summary = JobSummary()
    for state in states.values {
      guard let next = state.nextDue else {
        summary.retired += 1
        continue
      }
      if state.isLive {
        summary.live += 1
      } else if next > now {
        summary.idle += 1
      }
      if next <= now { summary.due += 1 }
    }
    return summary
  }
}

extension TargetState {
  /// A good poll: no error, the failure count reset, the page's validators kept.
  fileprivate mutating func succeeded(_ outcome: Outcome, _ result: Poller.Result, at now: Date) {
    self.outcome = outcome
    lastSucceeded = now
    lastError = nil
    consecutiveFailures = 0
    etag = result.etag
    lastModified = result.lastModified
    bodyHash = result.bodyHash
    if let kept = result.remembered { remembered = kept }
    if let polls = result.deltaPolls { deltaPolls = polls }
  }
}
