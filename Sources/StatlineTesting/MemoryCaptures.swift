import Foundation
import StatlineCore

/// Captures kept in memory, for tests that assert what the poller saved.
public actor MemoryCaptures: CaptureLog {
  public private(set) var saved: [(page: Page, error: StatlineError)] = []

  public init() {}

  public func capture(_ page: Page, error: StatlineError, at time: Date) -> Int64 {
    saved.append((page, error))
    return Int64(saved.count)
  }

  public func captures(limit: Int) -> [CaptureSummary] { [] }
  public func capture(id: Int64) -> Capture? { nil }
  public func pruneCaptures(keep: Int, olderThan: Date, maxBytes: Int64) -> Int { 0 }
}
