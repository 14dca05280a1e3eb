import Foundation
import StatlineCanonical
import StatlineCore

/// The one owner of what a write does (architecture.md#a-poll), whichever store runs it: the
/// batch validated once, its source games merged into their canonical games, its records
/// encoded and hashed, compared with what the store holds, numbered, and the changed canonical
/// games' events derived (`ScoreDiffer`). A store answers the planner's reads (`CommitReads`,
/// `AsyncCommitReads`) and writes the plan in one unit of work.
public struct CommitPlanner: Sendable {
  /// How source games become canonical games.
  public let canonical: CanonicalStep
  /// False only in benchmarks that measure what deriving events costs (`bench cycle --no-events`).
  public let derivesEvents: Bool

  public init(canonical: CanonicalStep = .standard, derivesEvents: Bool = true) {
    self.canonical = canonical
    self.derivesEvents = derivesEvents
  }

  /// The seeded registry and no plugin's feeds (`CanonicalStep.standard`), deriving events.
  public static let standard = CommitPlanner()

  /// For a store opened to read only: it never plans a write.
  public static let readOnly = CommitPlanner(canonical: .readOnly, derivesEvents: false)

  /// The batch checked (`BatchValidator`: a batch that breaks the contract is refused whole,
  /// before anything is read or written) and its rankings' teams resolved.
  public func screened(_ batch: Batch) throws(StatlineError) -> Batch {
    try BatchValidator.validate(batch)
    return canonical.resolvingRankings(batch)
  }

  /// A poll's batch made ready: one the pipeline screened (`PollCommit.isScreened`) is not
  /// validated again (an empty one is still refused); any other is, as `screened(_:)`.
  public func screened(_ poll: PollCommit) throws(StatlineError) -> Batch? {
    guard let batch = poll.batch else { return nil }
    guard poll.isScreened else { return try screened(batch) }
    if batch.isEmpty { try BatchValidator.validate(batch) }
    return canonical.resolvingRankings(batch)
  }

  /// The batch's records as rows, each hashed (`known`: the hash of a record equal to the one
  /// this process remembers, `RecentRecords.unchangedHashes`; its JSON is then not made).
  func rows(of batch: Batch, known: [Int64?]) throws(StatlineError) -> [PlannedRow] {
    var rows: [PlannedRow] = []
    rows.reserveCapacity(known.count)
    for (index, cached) in known.enumerated() {
      let (kind, id, record) = StoreRecord.record(at: index, of: batch)
      if let cached {
        rows.append(PlannedRow(kind: kind, id: id, record: record, hash: cached, json: nil))
        continue
      }
      rows.append(
        try metered(kind, id) { () throws(StatlineError) in
          PlannedRow(try RecordRow(kind: kind, id: id, record: record))
        })
    }
    return rows
  }

  /// The rows whose stored copies the store must be asked for: those the merge did not read.
  func unread(_ rows: [PlannedRow], reads: MergeReads) -> [PlannedRow] {
    rows.filter { row in
      row.kind != .game || (reads.found[row.id] == nil && !reads.absent.contains(row.id))
    }
  }

  /// What each row is compared with: the store's answer, and the games the merge read as it
  /// read them.
  func stored(_ answer: [RecordKey: StoredRecord], reads: MergeReads) -> [RecordKey: StoredRecord] {
    var stored = answer
    for (id, found) in reads.found { stored[RecordKey(.game, id)] = StoredRecord(hash: found.hash, game: found.game) }
    for id in reads.absent { stored[RecordKey(.game, id)] = nil }
    return stored
  }

  /// The rows that differ from `stored`, numbered from 1, and the games and weeks the events
  /// are derived from.
  func changes(_ rows: [PlannedRow], stored: [RecordKey: StoredRecord]) throws(StatlineError) -> Changes {
    var changes = Changes()
    for row in rows {
      let previous = stored[row.key]
      if previous?.hash == row.hash { continue }
      let encoded = try metered(row.kind, row.id) { () throws(StatlineError) in try row.encoded() }
      changes.rows.append(encoded)
      let number = Int64(changes.rows.count)
      // Events speak of canonical games only: a goal two sources report is one goal.
      if case .game(let game) = row.record, game.isCanonical {
        let before = derivesEvents ? previous?.game : nil
        changes.games.append(ScoreDiffer.ChangedGame(current: game, previous: before, version: number))
      }
      if case .ranking(let ranking) = row.record, previous == nil {
        changes.published.append(ScoreDiffer.PublishedRanking(ranking: ranking, version: number))
      }
    }
    return changes
  }

  /// A write's changed rows and what its events come from.
  struct Changes {
    var rows: [RecordRow] = []
    var games: [ScoreDiffer.ChangedGame] = []
    var published: [ScoreDiffer.PublishedRanking] = []

    /// Whether events are to be derived at all.
    func derivesEvents(_ planner: CommitPlanner) -> Bool {
      planner.derivesEvents && !(games.isEmpty && published.isEmpty)
    }

    /// The games whose previous version is tied: the differ asks who led last only for them.
    var tiedGames: [String] {
      var ids: [String] = []
      for change in games {
        guard let previous = change.previous, previous.away.score == previous.home.score,
          !ids.contains(change.current.id)
        else { continue }
        ids.append(change.current.id)
      }
      return ids
    }
  }

  /// The plan: the changes and their events, numbered from 1.
  func plan(
    _ changes: Changes, of batch: Batch, rows: [PlannedRow], stored: [RecordKey: StoredRecord], reads: MergeReads,
    recentEvents: [String: [ChangeEvent]]
  ) -> CommitPlan {
    var events: [ChangeEvent] = []
    if changes.derivesEvents(self) {
      events = ScoreDiffer.events(of: changes.games, published: changes.published, batch: batch, after: 0) { id in
        ScoreDiffer.lastLeader(newestFirst: recentEvents[id] ?? [])
      }
    }
    return CommitPlan(
      rows: rows, changed: changes.rows, events: events, stored: stored, reads: reads)
  }

  /// Remembers the rows a committed plan encoded (a row whose hash came from memory is
  /// remembered already), those of canonical games on the merge's meter.
  public func remember(_ plan: CommitPlan, in recent: inout RecentRecords) {
    for row in plan.rows where row.json != nil {
      metered(row.kind, row.id) { recent.remember(row.kind, row.id, row.record, hash: row.hash) }
    }
  }

  /// `body` on the merge's meter (`CanonicalStep.meter`) when it works on a canonical game: what
  /// a store does only because it merges.
  public func metered<Result, Failure: Error>(
    _ kind: StoreChange.Kind, _ id: String, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    guard let meter = canonical.meter, kind == .game, id.hasPrefix(Game.canonicalPrefix) else { return try body() }
    return try meter.measure(body)
  }
}
