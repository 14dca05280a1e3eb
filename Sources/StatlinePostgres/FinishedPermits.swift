import NIOCore
import StatlineCore

/// Request slots (`host_permits` rows) this process has finished and not yet deleted: the next
/// `statline_commit` or `statline_reserve` deletes them in the same statement, and a timer
/// `lateFinish` (`HostSlot.lateFinish`) after the first one deletes whatever is left (a slot whose request
/// led to no commit, such as a robots.txt fetch).
struct FinishedPermits {
  private var ids: [String] = []
  private var timerSet = false

  /// Adds a finished slot's id; true when the caller must set the timer.
  mutating func add(_ id: String) -> Bool {
    ids.append(id)
    defer { timerSet = true }
    return !timerSet
  }

  /// The ids to delete now (the list is then empty).
  mutating func take() -> [String] {
    defer { ids = [] }
    return ids
  }

  /// The timer fired: the ids left to delete.
  mutating func timerFired() -> [String] {
    timerSet = false
    return take()
  }

  /// Puts back ids whose statement failed (their timer deletes them); true: set the timer.
  mutating func putBack(_ returned: [String]) -> Bool {
    guard !returned.isEmpty else { return false }
    ids += returned
    defer { timerSet = true }
    return !timerSet
  }
}

extension PostgresStore {
  /// Gives back the slot with this worker's next statement, or after `lateFinish`.
  public func finishLater(_ slot: HostSlot) async throws {
    guard let id = slot.id else { return }
    if finished.withLock({ $0.add(id) }) { setFinishTimer() }
  }

  /// The finished slots' ids for a statement about to run; `returnFinished` if it fails.
  func takeFinished() -> [String] { finished.withLock { $0.take() } }

  /// Finished ids whose statement failed: the timer deletes them.
  func returnFinished(_ ids: [String]) {
    if finished.withLock({ $0.putBack(ids) }) { setFinishTimer() }
  }

  private func setFinishTimer() {
    executor.loop.scheduleTask(in: TimeAmount(lateFinish)) { [self] in
      let ids = finished.withLock { $0.timerFired() }
      guard !ids.isEmpty else { return }
      Task(executorPreference: executor) { await self.deletePermits(ids) }
    }
  }

  /// Deletes finished slots at once (the timer, and `close`). A failure is logged: the slots
  /// lapse at their expiry anyway.
  func deletePermits(_ ids: [String]) async {
    do {
      try await perform("cannot give back \(ids.count) request slots") { connection in
        try await connection.query("DELETE FROM host_permits WHERE id = ANY(\(ids))", logger: logger)
      }
    } catch {
      logger.warning("\(error.description) (the slots lapse at their expiry)")
    }
  }
}
