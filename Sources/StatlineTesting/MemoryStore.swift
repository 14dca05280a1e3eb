import Foundation
import StatlineCanonical
import StatlineCore

/// A deterministic in-memory `Store`, for tests and as the reference the contract suite checks.
public actor MemoryStore: ScheduleStore, EventLog, StoreReader {
  private struct Key: Hashable {
    var kind: StoreChange.Kind
    var id: String
  }

  private var current: [Key: StoreChange] = [:]
  private var version: Int64 = 0
  private var schedule: Int64 = 0
  /// When each game was last written.
  private var gameTimes: [String: Date] = [:]
  private var states: [String: TargetState] = [:]
  private var hostStates: [String: HostHealth] = [:]
  private var log: [ChangeEvent] = []
  private var cursors: [String: Int64] = [:]
  private var letters: [DeadLetter] = []
  /// How many poll commits reached the store.
  public private(set) var commits = 0

  private let canonical: CanonicalStep
  public nonisolated let eventBell = EventBell()

  /// - Parameter canonical: by default the seeded registry and the plugins' feeds (`TestFeeds`).
  public init(canonical: CanonicalStep = TestFeeds.canonical) { self.canonical = canonical }

  public func write(_ batch: Batch) async throws -> StoreWrite { eventBell.ring(after: try write(batch, at: Date())) }

  private func write(_ batch: Batch, at time: Date) throws -> StoreWrite {
    try BatchValidator.validate(batch)
    let batch = canonicalized(batch, at: time)
    var written = 0
    var unchanged = 0
    var changed: [ScoreDiffer.ChangedGame] = []
    var published: [ScoreDiffer.PublishedRanking] = []
    for (kind, id, record) in StoreRecord.records(of: batch) {
      let key = Key(kind: kind, id: id)
      let previous = current[key]
      if previous?.record == record {
        unchanged += 1
        continue
      }
      version += 1
      written += 1
      current[key] = StoreChange(version: version, kind: kind, id: id, record: record)
      if case .ranking(let ranking) = record, previous == nil {
        published.append(ScoreDiffer.PublishedRanking(ranking: ranking, version: version))
      }
      if case .game(let game) = record {
        gameTimes[id] = time
        guard game.isCanonical else { continue }
        let before: Game? = if case .game(let old)? = previous?.record { old } else { nil }
        changed.append(ScoreDiffer.ChangedGame(current: game, previous: before, version: version))
      }
    }
    let events = ScoreDiffer.events(of: changed, published: published, batch: batch, after: Int64(log.count)) {
      gameId in
      ScoreDiffer.lastLeader(newestFirst: log.reversed().lazy.filter { $0.gameId == gameId })
    }
    log += events
    return StoreWrite(
      written: written, unchanged: unchanged, version: version,
      events: events.reduce(into: [:]) { counts, event in counts[event.type, default: 0] += 1 })
  }

  /// The batch with its source games stamped and their canonical games merged (as every store).
  private func canonicalized(_ batch: Batch, at time: Date) -> Batch {
    var batch = canonical.resolvingRankings(batch)
    // A source game as stored is only stamped, as every store does.
    var stamping = CanonicalStep.Stamping(batch.games) { id in
      if case .game(let game)? = record(.game, id) { game } else { nil }
    }
    let (sources, merged) = canonical.run(
      stamping.pending, placed: stamping.placed, at: time,
      candidates: { ids in
        ids.compactMap { id -> Game? in if case .game(let game)? = record(.game, id) { game } else { nil } }
      },
      stored: { ids in
        var found: [String: CanonicalStep.StoredSource] = [:]
        for id in ids {
          if case .game(let game)? = record(.game, id) { found[id] = .init(game: game, changedAt: gameTimes[id]) }
        }
        return found
      })
    stamping.stamp(sources)
    batch.games = stamping.games + merged
    return batch
  }

  /// Canonical games, teams, box scores and plays (source games are for operators).
  public func changes(since version: Int64, limit: Int) async throws -> [StoreChange] {
    Array(
      current.values.filter { change in
        guard change.version > version else { return false }
        if case .game(let game) = change.record { return game.isCanonical }
        return true
      }.sorted { $0.version < $1.version }.prefix(limit))
  }

  public func targets() async throws -> [TargetState] { states.values.sorted { $0.id < $1.id } }

  public func commit(_ poll: PollCommit) async throws -> StoreWrite {
    commits += 1
    var write = StoreWrite(written: 0, unchanged: 0, version: version)
    if let batch = poll.batch {
      write = try self.write(batch, at: poll.states.compactMap(\.lastPolled).max() ?? Date())
    }
    for state in poll.states { states[state.id] = state }
    if !poll.states.isEmpty { schedule += 1 }
    for host in poll.hosts { hostStates[host.host] = host }
    return eventBell.ring(after: write)
  }

  /// How many routine polls were touched (not committed).
  public private(set) var touches = 0

  public func touch(_ target: String, succeededAt time: Date, nextDue: Date?) async throws {
    touches += 1
    schedule += 1
    states[target]?.lastSucceeded = time
    states[target]?.lastPolled = time
    states[target]?.nextDue = nextDue
  }

  public func hosts() async throws -> [HostHealth] { hostStates.values.sorted { $0.host < $1.host } }

  // MARK: StoreReader

  public func version() async throws -> Int64 { version }

  public func stamp() async throws -> StoreStamp { StoreStamp(version: version, schedule: schedule) }

  public func changedAt(gameIds: [String]) async throws -> [String: Date] {
    gameTimes.filter { gameIds.contains($0.key) }
  }

  public func sinkCursors() async throws -> [String: Int64] { cursors }

  /// A memory store keeps no captures.
  public func captures(limit: Int) async throws -> [CaptureSummary] { [] }

  /// Nil: the board is built whole (the memory store keeps no stamps per target).
  public func freshnessChanges(since schedule: Int64) async throws -> FreshnessBoard.Changes? { nil }

  public func freshnessBoard() async throws -> FreshnessBoard {
    FreshnessBoard(targets: states.values.sorted { $0.id < $1.id }, hosts: Array(hostStates.values))
  }

  private func record(_ kind: StoreChange.Kind, _ id: String) -> StoreRecord? {
    current[Key(kind: kind, id: id)]?.record
  }

  /// A canonical game by its id or by a source game's.
  public func game(id: String) async throws -> Game? {
    guard case .game(let game)? = record(.game, id) else { return nil }
    guard let canonical = game.canonicalId, case .game(let merged)? = record(.game, canonical) else { return game }
    return merged
  }

  /// The record stored under `id` as it is.
  public func sourceGame(id: String) async throws -> Game? {
    if case .game(let game)? = record(.game, id) { game } else { nil }
  }

  public func sourceGames() async throws -> [Game] {
    current.values.compactMap { change -> Game? in
      guard case .game(let game) = change.record, !game.isCanonical else { return nil }
      return game
    }.sorted { $0.id < $1.id }
  }

  public func conflictedGames(limit: Int) async throws -> [Game] {
    let games = current.values.compactMap { change -> Game? in
      guard case .game(let game) = change.record, game.isCanonical, game.conflict != nil else { return nil }
      return game
    }
    return Array(games.sorted { ($1.date ?? "", $0.id) < ($0.date ?? "", $1.id) }.prefix(limit))
  }

  public func games(sport: Sport?, date: String?) async throws -> [Game] {
    current.values.compactMap { change -> Game? in
      guard case .game(let game) = change.record, game.isCanonical, sport == nil || game.sport == sport,
        date == nil || game.date == date
      else { return nil }
      return game
    }.sorted { $0.id < $1.id }
  }

  public func games(team: String, datePrefix: String?) async throws -> [Game] {
    current.values.compactMap { change -> Game? in
      guard case .game(let game) = change.record, game.isCanonical,
        game.away.team.id == team || game.home.team.id == team,
        datePrefix.map({ game.date?.hasPrefix($0) ?? false }) ?? true
      else { return nil }
      return game
    }.sorted { ($0.date ?? "", $0.id) < ($1.date ?? "", $1.id) }
  }

  public func teams(sport: Sport?) async throws -> [Team] {
    current.values.compactMap { change -> Team? in
      guard case .team(let team) = change.record, sport == nil || team.sport == sport else { return nil }
      return team
    }.sorted { $0.id < $1.id }
  }

  public func team(id: String) async throws -> Team? {
    if case .team(let team)? = record(.team, id) { team } else { nil }
  }

  public func lastSuccessfulPoll() async throws -> Date? { states.values.compactMap(\.lastSucceeded).max() }

  public func rankings(sport: Sport?, poll: String?) async throws -> [Ranking] {
    current.values.compactMap { change -> Ranking? in
      guard case .ranking(let week) = change.record, sport == nil || week.sport == sport,
        poll == nil || week.poll == poll
      else { return nil }
      return week
    }.sorted { ($0.poll, $0.season, $0.edition) < ($1.poll, $1.season, $1.edition) }
  }

  public func boxScore(gameId: String) async throws -> BoxScore? {
    if case .boxScore(let box)? = record(.boxScore, gameId) { box } else { nil }
  }

  public func plays(gameId: String, after sequence: Int, limit: Int) async throws -> [Play] {
    Array(
      current.values.compactMap { change -> Play? in
        guard case .play(let play) = change.record, play.gameId == gameId, play.sequence > sequence else { return nil }
        return play
      }.sorted { $0.sequence < $1.sequence }.prefix(limit))
  }

  // MARK: EventLog

  public func events(since sequence: Int64, limit: Int) async throws -> [ChangeEvent] {
    Array(log.drop { $0.sequence <= sequence }.prefix(limit))
  }

  public func lastEventSequence() async throws -> Int64 { log.last?.sequence ?? 0 }

  public func cursor(of sink: String) async throws -> Int64 { cursors[sink] ?? 0 }

  public func setCursor(_ sequence: Int64, of sink: String) async throws { cursors[sink] = sequence }

  public func deadLetters(sink: String?) async throws -> [DeadLetter] {
    letters.filter { sink == nil || $0.sink == sink }.sorted {
      ($0.event.sequence, $0.sink) < ($1.event.sequence, $1.sink)
    }
  }

  public func addDeadLetter(_ letter: DeadLetter) async throws {
    letters.removeAll { $0.sink == letter.sink && $0.event.sequence == letter.event.sequence }
    letters.append(letter)
  }

  public func removeDeadLetter(sink: String, sequence: Int64) async throws {
    letters.removeAll { $0.sink == sink && $0.event.sequence == sequence }
  }
}
