import Foundation
import PostgresNIO
import StatlineCore

/// A poll's commit as one statement, `statline_commit` (migrations 4, 5 and 7), instead of a transaction
/// of six or seven round trips.
///
/// What the store holds under the batch's ids is read first, without a lock (or taken from what
/// this process remembers writing, for a target it left untouched: `CommittedTargets`), and the
/// rows that differ and their events are worked out here, numbered from 1. The function then takes the
/// lease's row (the fence) and the version row, as the transaction does, checks that every
/// record is still as it was read, and writes: versions and event sequences are the locked
/// ones plus those numbers, so they become visible in the order they were handed out, as
/// before. When a record changed in between (another worker wrote it), it writes nothing and
/// says so, and the commit is worked out again.
struct OneStatementCommit {
  /// What the commit was worked out against: each record's stored hash, or that none was held.
  struct Held {
    var ids: [String] = []
    var hashes: [Int64] = []
    var held: [Bool] = []

    mutating func append(_ id: String, _ stored: Int64?) {
      ids.append(id)
      hashes.append(stored ?? 0)
      held.append(stored != nil)
    }
  }

  /// The states to write: the polled target's (overwritten; its lease given back) and the
  /// targets it discovered (only when new). A missing value is NaN or "" (never a real one).
  struct States {
    var ids: [String] = []
    var urls: [String] = []
    var sources: [String] = []
    var parsers: [String] = []
    var roles: [String] = []
    var due: [Double] = []
    var outcomes: [String] = []
    var succeeded: [Double] = []
    var json: [String] = []
    var etags: [String] = []
    var modified: [String] = []
    var bodyHashes: [String] = []
    var overwrite: [Bool] = []

    mutating func append(_ state: TargetState, json: String, overwrite: Bool) {
      ids.append(state.id)
      urls.append(state.target.url)
      sources.append(state.target.source)
      parsers.append(state.target.parser)
      roles.append(state.target.role.rawValue)
      due.append(state.nextDue?.timeIntervalSince1970 ?? .nan)
      outcomes.append(state.outcome.rawValue)
      succeeded.append(state.lastSucceeded?.timeIntervalSince1970 ?? .nan)
      self.json.append(json)
      etags.append(state.etag ?? "")
      modified.append(state.lastModified ?? "")
      bodyHashes.append(state.bodyHash.map { String(Int64(bitPattern: $0)) } ?? "")
      self.overwrite.append(overwrite)
    }
  }

  var games = Held()
  var teams = Held()
  var boxScores = Held()
  var rankings = Held()
  var playGames: [String] = []
  var playSequences: [Int32] = []
  var playHashes: [Int64] = []
  var playsHeld: [Bool] = []
  var plan = PostgresStore.WritePlan()
  var states = States()

  init(
    rows: [PostgresStore.PendingRow], stored: [PostgresStore.RecentKey: (hash: Int64, game: Game?)],
    plan: PostgresStore.WritePlan
  ) {
    self.plan = plan
    for row in rows {
      let hash = stored[PostgresStore.RecentKey(kind: row.kind, id: row.id)]?.hash
      switch row.kind {
      case .game: games.append(row.id, hash)
      case .team: teams.append(row.id, hash)
      case .boxScore: boxScores.append(row.id, hash)
      case .ranking: rankings.append(row.id, hash)
      case .play:
        playGames.append(row.gameId)
        playSequences.append(Int32(clamping: row.sequence))
        playHashes.append(hash ?? 0)
        playsHeld.append(hash != nil)
      }
    }
  }

  /// A commit under the store's version lock (`write`, the canonical ids' assignment): what it
  /// was worked out against cannot change before it runs, so it holds nothing and always writes.
  init(locked plan: PostgresStore.WritePlan) {
    self.plan = plan
  }

  /// What the function answers: the new version, or why nothing was written.
  enum Outcome {
    case written(version: Int64)
    case leaseLost
    case changedMeanwhile
  }

  /// - Parameters:
  ///   - tag: the tag stored with the leased target's state (`CommittedTargets`).
  ///   - permits: finished request slots to delete in the same statement (`FinishedPermits`).
  func call(
    lease: Lease?, tag: Int64?, permits: [String], at time: Date, on connection: PostgresConnection, logger: Logger
  ) async throws -> Outcome {
    let rows = plan.rows
    let answer = try await connection.query(
      """
      SELECT statline_commit(\(lease?.worker), \(lease?.target), \(Int32(plan.written)), \(time.timeIntervalSince1970),
        \(tag), \(permits)::text[],
        \(games.ids)::text[], \(games.hashes)::bigint[], \(games.held)::bool[],
        \(teams.ids)::text[], \(teams.hashes)::bigint[], \(teams.held)::bool[],
        \(boxScores.ids)::text[], \(boxScores.hashes)::bigint[], \(boxScores.held)::bool[],
        \(playGames)::text[], \(playSequences)::int[], \(playHashes)::bigint[], \(playsHeld)::bool[],
        \(rankings.ids)::text[], \(rankings.hashes)::bigint[], \(rankings.held)::bool[],
        \(rows.games.ids)::text[], \(rows.games.versions)::bigint[], \(rows.games.hashes)::bigint[],
        \(rows.games.sports)::text[], \(rows.games.statuses)::text[], \(rows.games.dates)::text[],
        \(rows.games.awayTeams)::text[], \(rows.games.homeTeams)::text[], \(rows.games.json)::text[],
        \(rows.teams.ids)::text[], \(rows.teams.versions)::bigint[], \(rows.teams.hashes)::bigint[],
        \(rows.teams.json)::text[],
        \(rows.boxScores.ids)::text[], \(rows.boxScores.versions)::bigint[], \(rows.boxScores.hashes)::bigint[],
        \(rows.boxScores.json)::text[],
        \(rows.plays.games)::text[], \(rows.plays.sequences)::int[], \(rows.plays.versions)::bigint[],
        \(rows.plays.hashes)::bigint[], \(rows.plays.json)::text[],
        \(rows.rankings.ids)::text[], \(rows.rankings.versions)::bigint[], \(rows.rankings.hashes)::bigint[],
        \(rows.rankings.json)::text[],
        \(rows.events.sequences)::bigint[], \(rows.events.versions)::bigint[], \(rows.events.games)::text[],
        \(rows.events.types)::text[], \(rows.events.json)::text[],
        \(states.ids)::text[], \(states.urls)::text[], \(states.sources)::text[], \(states.parsers)::text[],
        \(states.roles)::text[], \(states.due)::float8[], \(states.outcomes)::text[], \(states.succeeded)::float8[],
        \(states.json)::text[], \(states.etags)::text[], \(states.modified)::text[], \(states.bodyHashes)::text[],
        \(states.overwrite)::bool[])
      """, logger: logger
    ).collect().first?.decode(Int64.self)
    switch answer {
    case -1: return .leaseLost
    case -2: return .changedMeanwhile
    case let version?: return .written(version: version)
    case nil: throw StatlineError(.store, "statline_commit returned nothing")
    }
  }
}

extension PostgresStore {
  /// How often a commit is worked out again when records change under it before it takes
  /// the locks; then it takes them first (`write`), which always succeeds.
  static let optimisticTries = 3

  /// What a commit in one statement did.
  enum OneStatementResult {
    /// Committed: what it wrote, and the rows (the canonical games the merge made included),
    /// for `remember`.
    case written(StoreWrite, rows: [PendingRow])
    /// The lease passed to another worker: nothing was written.
    case leaseLost
    /// Another writer changed the same records each time it tried: the caller commits under
    /// the locks.
    case gaveUp
  }

  /// Commits a poll in one statement (see `OneStatementCommit`).
  ///
  /// Each try merges the batch's source games into their canonical games first
  /// (`canonicalized`), and holds every game the merge read to the hash it read (a canonical
  /// game it found absent, to absent): another worker's write to one of them in between makes
  /// the statement write nothing, and the try is worked out again.
  func commitInOneStatement(_ prepared: PreparedCommit, of poll: PollCommit, lease: Lease?) async throws
    -> OneStatementResult
  {
    let what = lease.map { "cannot commit the poll of \($0.target)" } ?? "cannot commit the poll"
    // A target this process left as it is now: its first try trusts what this process wrote
    // (a record it never wrote counts as absent) instead of reading the store.
    var remembered = lease.map { lease in committed.withLock { $0.takeUntouched(lease.target) } } ?? false
    let tag = CommittedTargets.newTag()
    // The finished request slots go with the first statement: it deletes them whatever it answers.
    var permits = takeFinished()
    defer { returnFinished(permits) }
    let result: OneStatementResult = try await perform(what) { connection -> OneStatementResult in
      for _ in 0..<Self.optimisticTries {
        var (commit, rows) = try await self.workedOut(
          poll.batch, rows: prepared.rows, at: prepared.time, remembered: remembered, on: connection)
        remembered = false
        let plan = commit.plan
        for (state, json) in prepared.states {
          commit.states.append(state, json: json, overwrite: lease == nil || state.id == lease?.target)
        }
        let outcome = try await commit.call(
          lease: lease, tag: lease == nil ? nil : tag, permits: permits, at: prepared.time, on: connection,
          logger: self.logger)
        permits = []
        switch outcome {
        case .leaseLost: return .leaseLost
        case .changedMeanwhile: continue
        case .written(let version):
          let write = StoreWrite(
            written: plan.written, unchanged: rows.count - plan.written, version: version, events: plan.events)
          return .written(write, rows: rows)
        }
      }
      return .gaveUp
    }
    if let lease {
      var state: TargetState?
      if case .written = result { state = prepared.states.first { $0.state.id == lease.target }?.state }
      committed.withLock { $0.committed(lease.target, state: state, tag: tag) }
    }
    return result
  }

  /// A commit worked out against the store as it is now (the statement's first half): the
  /// batch's source games merged into their canonical games, the rows that differ from the
  /// stored ones, their events, and every game the merge read held as it read it. Returns the
  /// rows the commit writes or finds unchanged (the canonical games included).
  ///
  /// - Parameter remembered: take the stored hashes from what this process wrote, not a read.
  func workedOut(
    _ batch: Batch?, rows: [PendingRow], at time: Date, remembered: Bool, on connection: PostgresConnection
  ) async throws -> (OneStatementCommit, [PendingRow]) {
    var (rows, batch, reads) = (rows, batch, CanonicalReads())
    if let polled = batch, !polled.games.isEmpty {
      let merged = try await canonicalized(polled, at: time, remembered: remembered, on: connection)
      (rows, batch, reads) = (try pending(merged.batch), merged.batch, merged.reads)
    }
    var plan = WritePlan()
    var stored: [RecentKey: (hash: Int64, game: Game?)] = [:]
    if !rows.isEmpty {
      stored = remembered ? rememberedHashes(rows) : try await storedHashes(rows, on: connection)
      // The games the merge read are held as it read them.
      for (id, found) in reads.found { stored[RecentKey(kind: .game, id: id)] = (found.hash, found.game) }
      for id in reads.absent { stored[RecentKey(kind: .game, id: id)] = nil }
      plan = try await changes(rows, of: batch, stored: stored, on: connection)
    }
    var commit = OneStatementCommit(rows: rows, stored: stored, plan: plan)
    let rowIds = Set(rows.lazy.filter { $0.kind == .game }.map(\.id))
    for (id, found) in reads.found where !rowIds.contains(id) { commit.games.append(id, found.hash) }
    return (commit, rows)
  }

  /// What this process last wrote or read under each row's id, as `storedHashes` answers.
  func rememberedHashes(_ rows: [PendingRow]) -> [RecentKey: (hash: Int64, game: Game?)] {
    recent.withLock { recent in
      var stored: [RecentKey: (hash: Int64, game: Game?)] = [:]
      for row in rows {
        guard let hash = recent.rememberedHash(row.kind, row.id, row.record) else { continue }
        stored[RecentKey(kind: row.kind, id: row.id)] = (hash, row.kind == .game ? recent.game(row.id) : nil)
      }
      return stored
    }
  }
}
