/// Telling a record whose id was seen before on its page, against the ids seen so far (a page's
/// records, the teams a scoreboard has listed): compared one by one while there are fewer than
/// 32 (a game and its teams, a board's few games: no id hashed, nothing allocated, for a check
/// that nearly always passes), through a set, filled once, past that.
public struct RepeatedIds: Sendable {
  @usableFromInline var set: Set<String> = []

  public init() {}

  /// Whether `id` is among `earlier`, the ids seen so far in order (each earlier call's `id`
  /// among them, or repeated). `id` counts as seen from now on. Inlinable: specialized where it
  /// is called, the key is read directly (generic, a key path was applied through the runtime).
  @inlinable
  public mutating func contains<Earlier: Collection>(
    _ id: String, among earlier: Earlier, _ key: (Earlier.Element) -> String
  ) -> Bool {
    guard earlier.count >= 32 else { return earlier.contains { key($0) == id } }
    if set.isEmpty { set = Set(earlier.lazy.map(key)) }
    return !set.insert(id).inserted
  }
}
