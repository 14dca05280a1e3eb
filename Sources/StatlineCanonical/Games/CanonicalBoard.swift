import Foundation
import StatlineCore

/// The canonical layer in memory: source games added one by one, each placed (`GameMatcher`) and
/// its canonical game merged again (`GameMerger`). `statline replay --merge` shows pages through
/// it; a store keeps the same state in its tables.
public struct CanonicalBoard: Sendable {
  public let merger: GameMerger
  public private(set) var entries: [String: CanonicalGameEntry] = [:]
  public private(set) var merged: [String: MergedGame] = [:]
  private var sources: [String: SourceGame] = [:]
  private var placement: [String: String] = [:]

  public init(merger: GameMerger) { self.merger = merger }

  /// Adds (or replaces) a source game's record, seen at `time`; returns its canonical game as
  /// merged now, and the one before (nil when new).
  @discardableResult
  public mutating func add(_ game: Game, at time: Date) -> (current: MergedGame, previous: MergedGame?)? {
    var source = SourceGame(game: game, registry: merger.registry, feeds: merger.feeds, liveChangedAt: time)
    if let held = sources[game.id], !Self.liveFactsDiffer(held.game, game) {
      source.liveChangedAt = held.liveChangedAt
    }
    sources[game.id] = source
    let id: String
    if let known = placement[game.id], entries[known]?.pair == source.pair {
      id = known
    } else {
      // Its teams were corrected: the game it was in loses it (and goes when it holds no other).
      if let left = placement[game.id] {
        entries[left]?.members.removeAll { $0.gameId == game.id }
        if let rest = entries[left]?.members.compactMap({ sources[$0.gameId] }), !rest.isEmpty {
          merged[left] = merger.merge(id: left, sources: rest, previous: merged[left])
        } else {
          entries[left] = nil
          merged[left] = nil
        }
      }
      let candidates = entries.values.filter { $0.sport == game.sport && $0.pair == source.pair }
      switch GameMatcher.place(source, among: candidates) {
      case .join(let joined):
        id = joined
        entries[joined]?.members.append(.init(game, feed: source.feed))
      case .create(let entry):
        id = entry.id
        entries[entry.id] = entry
      }
      placement[game.id] = id
    }
    let members = entries[id]?.members.compactMap { sources[$0.gameId] } ?? [source]
    let previous = merged[id]
    guard let current = merger.merge(id: id, sources: members, previous: previous) else { return nil }
    merged[id] = current
    return (current, previous)
  }

  /// The canonical id a source game was placed in.
  public func canonicalId(of gameId: String) -> String? { placement[gameId] }

  /// Status, score, period or clock differ: what makes a record's live facts change.
  public static func liveFactsDiffer(_ a: Game, _ b: Game) -> Bool {
    a.status != b.status || a.period != b.period || a.clock != b.clock || a.away.score != b.away.score
      || a.home.score != b.home.score
  }
}
