import Foundation
import PostgresNIO
import StatlineCore

/// A pooled connection unused for a while may have been dropped without a word (a NAT or a
/// firewall forgets idle flows; the server's `idle_session_timeout`): a statement sent on it
/// hangs or fails, and a poll fails with it. So a connection idle longer than `after` is asked
/// `SELECT 1` first, with a `deadline`; one that does not answer in time is closed and another
/// is leased (a new one, if every idle one is gone), before the statement is sent.
public struct IdleCheck: Sendable {
  /// How long a connection may sit unused before it is checked.
  public var after: Duration
  /// How long the check may take before the connection counts as dropped.
  public var deadline: Duration

  public init(after: Duration = .seconds(60), deadline: Duration = .seconds(5)) {
    self.after = after
    self.deadline = deadline
  }
}

extension PostgresStore {
  /// `body` on a pooled connection that is known to answer (`IdleCheck`). A connection that does
  /// not is closed and held while another is leased, so the pool cannot hand it out again before
  /// its close is through.
  func leased<R: Sendable>(_ body: (PostgresConnection) async throws -> sending R, depth: Int = 0) async throws
    -> sending R
  {
    try await client.withConnection { connection in
      if try await !self.answers(connection) {
        guard depth + 1 < maxConnections else {
          throw StatlineError(
            .store, "no pooled connection to the database answers", location: location.description,
            hint: "the network to the server may be down; the next statement tries new connections")
        }
        // Used once, here, while this lease waits: never two at a time.
        nonisolated(unsafe) let again = body
        return try await self.leased(again, depth: depth + 1)
      }
      defer { self.lastUse.withLock { $0[connection.id] = .now } }
      return try await body(connection)
    }
  }

  /// False for a connection found dropped (now, or before: it is being closed).
  private func answers(_ connection: PostgresConnection) async throws -> Bool {
    let id = connection.id
    if dropped.withLock({ $0.contains(id) }) { return false }
    // A connection not used yet (the pool opens its minimum at start) counts from the store's opening.
    let last = lastUse.withLock { $0[id] } ?? openedAt
    guard ContinuousClock.now - last >= idleCheck.after else { return true }
    let (deadline, logger) = (idleCheck.deadline, logger)
    // The check and its deadline race; whichever ends first answers (a hung check ends when its
    // connection is closed).
    let answered = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let once = Locked(false)
      let finish: @Sendable (Bool) -> Void = { value in
        if once.withLock({ done in
          defer { done = true }
          return !done
        }) {
          continuation.resume(returning: value)
        }
      }
      Task { finish((try? await connection.query("SELECT 1", logger: logger)) != nil) }
      Task {
        try? await Task.sleep(for: deadline)
        finish(false)
      }
    }
    guard !answered else { return true }
    lastUse.withLock { $0[id] = nil }
    dropped.withLock { _ = $0.insert(id) }
    droppedConnections.withLock { $0 += 1 }
    logger.notice(
      "a PostgreSQL connection idle for \(ContinuousClock.now - last) did not answer in \(deadline): closed, another leased",
      metadata: ["store": "\(location)"])
    connection.close().whenComplete { _ in self.dropped.withLock { _ = $0.remove(id) } }
    return false
  }
}
