/// A batch that passed validation: made only by `BatchValidator.screening` (a page's batch, its
/// refused records left out) or `init(validating:)`. A poll's commit carries one
/// (`PollCommit(screened:)`), and the commit planner does not validate it again.
///
/// Taking whole records out keeps it screened: the page was checked whole, and what is left is
/// a part of what passed (the kinds its parser is the authority for, a calendar without the
/// games their own pages follow). Checking the part again against less of the page (a box
/// score without its game) could only refuse what the page's own word allowed.
public struct ScreenedBatch: Sendable, Equatable {
  public let batch: Batch

  init(checked batch: Batch) { self.batch = batch }

  /// A batch checked now (`BatchValidator.validate`): a broken one throws.
  public init(validating batch: Batch, everyPlay: Bool = false) throws(StatlineError) {
    try BatchValidator.validate(batch, everyPlay: everyPlay)
    self.batch = batch
  }

  /// Only the records of `kinds`.
  public func keeping(_ kinds: Set<StoreChange.Kind>) -> ScreenedBatch { ScreenedBatch(checked: batch.keeping(kinds)) }

  /// Without the games `ids` names (their plays and box scores stay: each was checked with them).
  public func withoutGames(_ ids: Set<String>) -> ScreenedBatch {
    var kept = batch
    kept.games.removeAll { ids.contains($0.id) }
    return ScreenedBatch(checked: kept)
  }

  /// The same records, stamped with the address they were polled at.
  public func polled(at url: String?) -> ScreenedBatch {
    var stamped = batch
    stamped.url = url
    return ScreenedBatch(checked: stamped)
  }
}
