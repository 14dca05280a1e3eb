/// ESPN's JSON gives counts (points, a period's score) as numbers with a fraction (`1479.0`).
enum ESPNNumber {
  /// The whole number `value` rounds to, or nil when no `Int` is that number (`1e300`): never a
  /// trap on what a feed sends.
  static func whole(_ value: Double) -> Int? { Int(exactly: value.rounded()) }
}
