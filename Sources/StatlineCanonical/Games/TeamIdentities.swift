import StatlineCore

/// Each team line's identity as a registry resolved it (`CanonicalStep.identity`): a poll asks
/// for the same few teams again and again. Bounded: emptied when it reaches `limit` entries.
final class TeamIdentities: Sendable {
  private let cache = Locked<[TeamRef: String]>([:])
  static let limit = 100_000

  func identity(of ref: TeamRef, resolving: (TeamRef) -> String) -> String {
    if let known = cache.withLock({ $0[ref] }) { return known }
    let identity = resolving(ref)
    cache.withLock { cache in
      if cache.count >= Self.limit { cache.removeAll(keepingCapacity: true) }
      cache[ref] = identity
    }
    return identity
  }
}
