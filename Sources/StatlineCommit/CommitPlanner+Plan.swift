import Foundation
import StatlineCanonical
import StatlineCore

/// The planner's steps in order, with the store's reads between them: once for a store that
/// answers synchronously, once for one that answers over a network. The steps themselves are
/// `CommitPlanner`'s and `MergeRounds`'s; only their order is written twice.
extension CommitPlanner {
  /// Plans the write of a screened batch (`screened`), polled at `time`.
  public func plan(_ batch: Batch, at time: Date, on reads: inout some CommitReads) throws(StatlineError)
    -> CommitPlan
  {
    let (merged, mergeReads) = try canonicalized(batch, at: time, on: &reads)
    // Looked up in the memory the store lends (PostgreSQL's under its lock), encoded outside it.
    let rows = try rows(of: merged, known: reads.remembered { $0.unchangedHashes(of: merged) })
    let asked = unread(rows, reads: mergeReads)
    let answer = asked.isEmpty ? [:] : try reads.records(of: asked, games: derivesEvents)
    let stored = stored(answer, reads: mergeReads)
    let changes = try changes(rows, stored: stored)
    let tied = changes.derivesEvents(self) ? changes.tiedGames : []
    let recentEvents = tied.isEmpty ? [:] : try reads.recentEvents(of: tied)
    return plan(changes, of: merged, rows: rows, stored: stored, reads: mergeReads, recentEvents: recentEvents)
  }

  /// Plans the write of a screened batch, its reads answered asynchronously.
  public func plan(_ batch: Batch, at time: Date, on reads: inout some AsyncCommitReads) async throws -> CommitPlan {
    let (merged, mergeReads) = try await canonicalized(batch, at: time, on: &reads)
    // Looked up in the memory the store lends (PostgreSQL's under its lock), encoded outside it.
    let rows = try rows(of: merged, known: reads.remembered { $0.unchangedHashes(of: merged) })
    let asked = unread(rows, reads: mergeReads)
    let answer = asked.isEmpty ? [:] : try await reads.records(of: asked, games: derivesEvents)
    let stored = stored(answer, reads: mergeReads)
    let changes = try changes(rows, stored: stored)
    let tied = changes.derivesEvents(self) ? changes.tiedGames : []
    let recentEvents = tied.isEmpty ? [:] : try await reads.recentEvents(of: tied)
    return plan(changes, of: merged, rows: rows, stored: stored, reads: mergeReads, recentEvents: recentEvents)
  }

  /// The batch with its source games stamped and the canonical games they change appended
  /// (`MergeRounds`), and what was read to merge it; on the merge's meter.
  public func canonicalized(_ batch: Batch, at time: Date, on reads: inout some CommitReads) throws(StatlineError)
    -> (batch: Batch, reads: MergeReads)
  {
    guard canonical.merges else { return (batch, MergeReads()) }
    return try canonical.meter.measure { () throws(StatlineError) in
      var rounds = MergeRounds(
        batch, at: time, step: canonical, trustsMemory: reads.trustsMemory,
        remembered: { body in reads.remembered(body) })
      while let wanted = rounds.wanted { rounds.read(try reads.games(wanted)) }
      return rounds.result ?? (batch, MergeReads())
    }
  }

  /// `canonicalized`, its reads answered asynchronously.
  public func canonicalized(_ batch: Batch, at time: Date, on reads: inout some AsyncCommitReads) async throws
    -> (batch: Batch, reads: MergeReads)
  {
    guard canonical.merges else { return (batch, MergeReads()) }
    var rounds = MergeRounds(
      batch, at: time, step: canonical, trustsMemory: reads.trustsMemory,
      remembered: { body in reads.remembered(body) })
    while let wanted = rounds.wanted { rounds.read(try await reads.games(wanted)) }
    return rounds.result ?? (batch, MergeReads())
  }
}
