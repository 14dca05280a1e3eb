/// Identical concurrent requests share one fetch and its result (DESIGN.md §1, as ncaa-api does).
public actor SingleFlight<Key: Hashable & Sendable, Value: Sendable> {
  private var inFlight: [Key: Task<Value, any Error>] = [:]
  /// How many callers joined a fetch already in flight instead of starting their own.
  public private(set) var joined = 0

  public init() {}

  public func run(_ key: Key, _ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    if let task = inFlight[key] {
      joined += 1
      return try await task.value
    }
    let task = Task { try await operation() }
    inFlight[key] = task
    defer { inFlight[key] = nil }
    return try await task.value
  }
}
