import Foundation
import StatlineCanonical
import StatlineCore

/// The canonical merge of a batch (architecture.md#canonical-games) as rounds of reads: each
/// round names the games it wants (`wanted`), the store answers them (`read`), and when no round
/// is left the batch is merged (`result`). The reads are the store's; the rounds, the same for
/// every store, are here.
///
/// 1. A batch's source games equal to the records this process remembers (but for the stamp)
///    are only stamped (`CanonicalStep.Stamping`).
/// 2. When the memory is the store's (`trustsMemory`), a lone game placed in a canonical game
///    that holds it alone is merged from memory, without a read (the usual live poll).
/// 3. Otherwise: the canonical games the pending games could belong to and the pending games
///    themselves (a game placed before, with the same teams, reads only its canonical game),
///    further numbers for teams that met more than four times within a day either side, the
///    canonical games the pending games were placed in before and no answer carried (a game
///    whose teams changed may leave one: `CanonicalStep.mergeMatching` takes it out), then the
///    source games the candidates hold that no answer carried.
struct MergeRounds {
  private enum Stage {
    case candidates(first: Bool)
    case formers
    case members
  }

  private let step: CanonicalStep
  private let time: Date
  private var batch: Batch
  private var stamping: CanonicalStep.Stamping
  private var pending: [Game]
  private var unplaced: [Game]
  private var further: [Game] = []
  private var numbers = 1...CanonicalStep.meetings
  private var stage = Stage.candidates(first: true)
  private var reads = MergeReads()
  /// The ids the next round reads; nil once the batch is merged.
  private(set) var wanted: [String]?

  init(
    _ batch: Batch, at time: Date, step: CanonicalStep, trustsMemory: Bool,
    remembered: ((RecentRecords) -> Void) -> Void
  ) {
    self.step = step
    self.time = time
    self.batch = batch
    var stamping = CanonicalStep.Stamping([]) { _ in nil }
    var alone: [String: StoredGame]?
    if step.merges, !batch.games.isEmpty {
      remembered { recent in
        stamping = CanonicalStep.Stamping(batch.games) { recent.game($0) }
        if trustsMemory { alone = Self.heldAlone(stamping.pending, placed: stamping.placed, in: recent) }
      }
    }
    self.stamping = stamping
    pending = stamping.pending
    unplaced = pending.filter { stamping.placed[$0.id] == nil }
    guard step.merges, !pending.isEmpty else {
      if step.merges { self.batch.games = stamping.games }
      return
    }
    if let alone, let merge = step.mergeAlone(pending, candidates: alone.values.map(\.game).filter(\.isCanonical)) {
      self.stamping.stamp(merge.sources)
      self.batch.games = self.stamping.games + merge.canonical
      reads.found = alone
      return
    }
    wanted =
      CanonicalStep.placedIds(stamping.placed) + step.candidateIds(of: unplaced, numbers: numbers) + pending.map(\.id)
  }

  /// The batch merged and what was read to merge it; nil while a round is wanted.
  var result: (batch: Batch, reads: MergeReads)? { wanted == nil ? (batch, reads) : nil }

  /// Takes the store's answer to `wanted` and works out the next round, or the merge.
  mutating func read(_ answer: [String: StoredGame]) {
    guard let asked = wanted else { return }
    reads.found.merge(answer) { first, _ in first }
    for id in asked where reads.found[id] == nil { reads.absent.insert(id) }
    switch stage {
    case .candidates(let first):
      let looked = first ? unplaced : further
      further = step.unfinished(looked, found: Set(answer.keys), upTo: numbers.upperBound)
      if !further.isEmpty {
        numbers = CanonicalStep.next(after: numbers)
        stage = .candidates(first: false)
        wanted = step.candidateIds(of: further, numbers: numbers)
        return
      }
      let formers = unread(pending.compactMap { reads.found[$0.id]?.game.canonicalId })
      if !formers.isEmpty {
        stage = .formers
        wanted = formers
        return
      }
      fallthrough
    case .formers:
      let members = unread(step.memberIds(of: pending, candidates: candidates))
      if !members.isEmpty {
        stage = .members
        wanted = members
        return
      }
    case .members:
      break
    }
    merge()
  }

  private var candidates: [Game] { reads.found.values.map(\.game).filter(\.isCanonical) }

  /// The ids no round has answered yet, each once, in order.
  private func unread(_ ids: [String]) -> [String] {
    var seen: Set<String> = []
    return ids.filter { reads.found[$0] == nil && !reads.absent.contains($0) && seen.insert($0).inserted }
  }

  private mutating func merge() {
    var stored: [String: CanonicalStep.StoredSource] = [:]
    for (id, found) in reads.found { stored[id] = .init(game: found.game, changedAt: found.changedAt) }
    let (sources, merged) = step.merge(pending, candidates: candidates, stored: stored, at: time)
    stamping.stamp(sources)
    batch.games = stamping.games + merged
    // A canonical game it makes that was not looked up (a game without a date: its own id).
    for game in merged where reads.found[game.id] == nil { reads.absent.insert(game.id) }
    wanted = nil
  }

  /// The usual live poll, from memory: one game, placed before in a canonical game that holds
  /// it alone, both as this process last wrote them (with their hashes). Nil otherwise.
  private static func heldAlone(_ pending: [Game], placed: [String: String], in recent: RecentRecords)
    -> [String: StoredGame]?
  {
    guard pending.count == 1, let game = pending.first, let canonicalId = placed[game.id],
      let held = recent.game(game.id), let heldHash = recent.rememberedHash(.game, game.id, .game(held)),
      let record = recent.game(canonicalId), record.sources == [game.id],
      let recordHash = recent.rememberedHash(.game, canonicalId, .game(record))
    else { return nil }
    return [
      game.id: StoredGame(game: held, hash: heldHash, changedAt: nil),
      canonicalId: StoredGame(game: record, hash: recordHash, changedAt: nil),
    ]
  }
}
