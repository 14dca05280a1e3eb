import StatlineCore

/// A write worked out against what the store holds (`CommitPlanner`): the rows that differ and
/// the events they give, numbered from 1. The store writes the changed rows at its version plus
/// their numbers and the events at its last sequence plus theirs (`numbered`), in one unit of
/// work; PostgreSQL's `statline_commit` adds them under its lock.
public struct CommitPlan: Sendable {
  /// Every row of the batch as written (its source games stamped with their canonical ids, the
  /// canonical games they change appended), changed or not.
  public var rows: [PlannedRow]
  /// The rows that differ from the store's copies, in order: the n-th is written at the
  /// store's version + n.
  public var changed: [RecordRow]
  /// The events of the changed records, sequences 1… and versions as the changed rows'
  /// numbers (the store adds its last sequence and version).
  public var events: [ChangeEvent]
  /// What each row was worked out against (a key left out: the store held none).
  public var stored: [RecordKey: StoredRecord]
  /// What the canonical merge read.
  public var reads: MergeReads

  public var unchanged: Int { rows.count - changed.count }

  /// How many events of each kind.
  public var eventCounts: [ChangeEvent.Kind: Int] {
    events.reduce(into: [:]) { counts, event in counts[event.type, default: 0] += 1 }
  }

  /// The changed rows with their versions and the events with their sequences, numbered after
  /// the store's `version` and last event `sequence`.
  public func numbered(afterVersion version: Int64, sequence: Int64) -> (
    rows: [(row: RecordRow, version: Int64)], events: [ChangeEvent]
  ) {
    let rows = changed.enumerated().map { (row: $0.element, version: version + Int64($0.offset + 1)) }
    let events = events.map { event in
      event.numbered(
        sequence: sequence + event.sequence, version: version + event.version, source: event.source,
        parser: event.parser)
    }
    return (rows, events)
  }

  /// What the store writes when the plan commits.
  public func write(version: Int64) -> StoreWrite {
    StoreWrite(written: changed.count, unchanged: unchanged, version: version, events: eventCounts)
  }
}

/// What the canonical merge read: each game it found with its hash, and the ids it looked up
/// and found absent (a canonical game it makes without looking it up included). A store that
/// is not its data's only writer holds them at commit (PostgreSQL: `statline_commit`).
public struct MergeReads: Sendable {
  public var found: [String: StoredGame] = [:]
  public var absent: Set<String> = []

  public init() {}
}
