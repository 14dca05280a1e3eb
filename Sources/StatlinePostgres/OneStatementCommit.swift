import Foundation
import PostgresNIO
import StatlineCommit
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
  /// The changed rows and their events, numbered from 1.
  var rows = ChangedRows()
  var written = 0
  var states = States()

  /// A commit of nothing but states.
  init() {}

  /// The commit of `plan`.
  ///
  /// - Parameter holding: every record is held to the hash the plan was worked out against
  ///   (and every game the merge read, to what it read). False under the store's version lock
  ///   (`write`, the canonical ids' assignment): what the plan read cannot change before it
  ///   runs, so it holds nothing and always writes.
  init(_ plan: CommitPlan, holding: Bool, encode: (ChangeEvent) throws(StatlineError) -> String)
    throws(StatlineError)
  {
    for (offset, row) in plan.changed.enumerated() { rows.append(row, version: Int64(offset + 1)) }
    try rows.append(plan.events, encode: encode)
    written = plan.changed.count
    guard holding else { return }
    var rowGames: Set<String> = []
    for row in plan.rows {
      let hash = plan.stored[row.key]?.hash
      switch row.kind {
      case .game:
        games.append(row.id, hash)
        rowGames.insert(row.id)
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
    // The games the merge read are held as it read them.
    for (id, found) in plan.reads.found where !rowGames.contains(id) { games.append(id, found.hash) }
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
    let answer = try await connection.query(
      """
      SELECT statline_commit(\(lease?.worker), \(lease?.target), \(Int32(written)), \(time.timeIntervalSince1970),
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
    /// Committed: what it wrote, and the plan (the canonical games the merge made included),
    /// for `remember`.
    case written(StoreWrite, plan: CommitPlan?)
    /// The lease passed to another worker: nothing was written.
    case leaseLost
    /// Another writer changed the same records each time it tried: the caller commits under
    /// the locks.
    case gaveUp
  }

  /// Commits a poll in one statement (see `OneStatementCommit`).
  ///
  /// Each try plans the batch against the store as it is now (`CommitPlanner`: its source games
  /// merged into their canonical games, the rows that differ, their events), and holds every
  /// record and every game the merge read to the hash it read (a canonical game it found
  /// absent, to absent): another worker's write to one of them in between makes the statement
  /// write nothing, and the try is worked out again.
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
        var (commit, plan) = try await self.workedOut(
          prepared.batch, at: prepared.time, remembered: remembered, on: connection)
        remembered = false
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
          return .written(
            plan?.write(version: version) ?? StoreWrite(written: 0, unchanged: 0, version: version), plan: plan)
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

  /// A commit worked out against the store as it is now (the statement's first half): the plan
  /// of a screened batch (`CommitPlanner`), every record and every game the merge read held as
  /// it was read.
  ///
  /// - Parameter remembered: take the stored hashes from what this process wrote, not a read.
  func workedOut(_ batch: Batch?, at time: Date, remembered: Bool, on connection: PostgresConnection) async throws
    -> (OneStatementCommit, CommitPlan?)
  {
    guard let batch else { return (OneStatementCommit(), nil) }
    var reads = PostgresReads(store: self, connection: connection, trustsMemory: remembered)
    let plan = try await planner.plan(batch, at: time, on: &reads)
    return (try OneStatementCommit(plan, holding: true, encode: encodeEvent), plan)
  }
}
