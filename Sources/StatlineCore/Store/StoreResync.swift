/// A delta-sync cursor from before the store's records were renamed (the migration that gave
/// every game its canonical id): the client must sync again from 0. The read API answers it
/// with `410 Gone`.
public struct StoreResync: Error, Sendable, Equatable, CustomStringConvertible {
  /// The version the client asked from, and the first version it can ask from (or 0).
  public var cursor: Int64
  public var floor: Int64

  public init(cursor: Int64, floor: Int64) {
    self.cursor = cursor
    self.floor = floor
  }

  public var description: String {
    "the delta-sync cursor \(cursor) is from before the store renamed its games to canonical ids "
      + "(version \(floor)); sync again from 0"
  }
}
