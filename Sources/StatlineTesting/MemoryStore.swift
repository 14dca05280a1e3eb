import Foundation
import StatlineCommit
import StatlineCore

/// A deterministic in-memory `Store`, for tests and as the reference the contract suite checks.
public actor MemoryStore: ScheduleStore, EventLog, StoreReader {
  private struct Key: Hashable {
    var kind: StoreChange.Kind
    var id: String
  }

  private var current: [Key: StoreChange] = [:]
  /// The hash of each record's JSON (`RecordRow`), as every store keeps.
  private var hashes: [Key: Int64] = [:]
  /// Every record written, as a store remembers what it wrote (this store's memory is all of it).
  private var recent = RecentRecords(limit: .max)
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
  /// Each team's logo state and image (`LogoStore`).
  var logos: [String: (state: LogoState, image: Data?)] = [:]

  private let planner: CommitPlanner
  public nonisolated let eventBell = EventBell()

  /// - Parameter planner: by default the seeded registry and the plugins' feeds (`TestFeeds`).
  public init(planner: CommitPlanner = TestFeeds.planner) { self.planner = planner }

  public func write(_ batch: Batch) async throws -> StoreWrite {
    eventBell.ring(after: try write(try planner.screened(batch), at: Date()))
  }

  /// Writes a batch made ready by the planner (`CommitPlanner.screened`).
  private func write(_ batch: Batch, at time: Date) throws -> StoreWrite {
    let plan = try planned(batch, at: time)
    let (rows, events) = plan.numbered(afterVersion: version, sequence: Int64(log.count))
    for (row, version) in rows {
      let key = Key(kind: row.kind, id: row.id)
      current[key] = StoreChange(version: version, kind: row.kind, id: row.id, record: row.record)
      hashes[key] = row.hash
      if row.kind == .game { gameTimes[row.id] = time }
    }
    version += Int64(rows.count)
    log += events
    planner.remember(plan, in: &recent)
    return plan.write(version: version)
  }

  /// The batch planned against the store as it is (`CommitPlanner`, as every store).
  private func planned(_ batch: Batch, at time: Date) throws -> CommitPlan {
    var reads = Reads(current: current, hashes: hashes, recent: recent, gameTimes: gameTimes, log: log)
    return try planner.plan(batch, at: time, on: &reads)
  }

  /// The planner's reads, answered from the store's tables.
  private struct Reads: CommitReads {
    let current: [Key: StoreChange]
    let hashes: [Key: Int64]
    let recent: RecentRecords
    let gameTimes: [String: Date]
    let log: [ChangeEvent]

    var trustsMemory: Bool { true }

    func remembered<Value>(_ body: (RecentRecords) -> Value) -> Value { body(recent) }

    func games(_ ids: [String]) -> [String: StoredGame] {
      var found: [String: StoredGame] = [:]
      for id in ids {
        let key = Key(kind: .game, id: id)
        if case .game(let game)? = current[key]?.record, let hash = hashes[key] {
          found[id] = StoredGame(game: game, hash: hash, changedAt: gameTimes[id])
        }
      }
      return found
    }

    func records(of rows: [PlannedRow], games: Bool) -> [RecordKey: StoredRecord] {
      var stored: [RecordKey: StoredRecord] = [:]
      for row in rows {
        let key = Key(kind: row.kind, id: row.id)
        guard let hash = hashes[key] else { continue }
        let game: Game? = if games, case .game(let old)? = current[key]?.record, old.isCanonical { old } else { nil }
        stored[row.key] = StoredRecord(hash: hash, game: game)
      }
      return stored
    }

    func recentEvents(of gameIds: [String]) -> [String: [ChangeEvent]] {
      var result: [String: [ChangeEvent]] = [:]
      for id in gameIds { result[id] = log.reversed().filter { $0.gameId == id } }
      return result
    }
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
    if let batch = try planner.screened(poll) {
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
      guard case .game(let game) = change.record, game.isCanonical, !game.isRetired,
        sport == nil || game.sport == sport,
        date == nil || game.date == date
      else { return nil }
      return game
    }.sorted { $0.id < $1.id }
  }

  public func games(team: String, datePrefix: String?) async throws -> [Game] {
    current.values.compactMap { change -> Game? in
      guard case .game(let game) = change.record, game.isCanonical, !game.isRetired,
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

  public func boxScores(gameIds: [String]) async throws -> [String: StoredBoxScore] {
    var result: [String: StoredBoxScore] = [:]
    for id in gameIds {
      guard let change = current[Key(kind: .boxScore, id: id)], case .boxScore(let box) = change.record else {
        continue
      }
      result[id] = StoredBoxScore(box, version: change.version)
    }
    return result
  }

  public func gameVersions(ids: [String]) async throws -> [String: Int64] {
    var result: [String: Int64] = [:]
    for id in ids { result[id] = current[Key(kind: .game, id: id)]?.version }
    return result
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
