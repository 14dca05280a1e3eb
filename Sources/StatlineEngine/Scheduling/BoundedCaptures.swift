import Foundation
import StatlineCore

/// The job's capture log: a failed page is kept up to `maxPageBytes` (its start: a page that
/// failed is nearly always told by its first bytes), and a page cut so says it, in its error
/// (`statline captures list`) and in the header `x-statline-truncated` (its whole size), so a
/// replay of it is never taken for the page itself. Six 15 MB pages that failed once added 90
/// MB to the store in one `once`.
public struct BoundedCaptures: CaptureLog {
  public static let truncatedHeader = "x-statline-truncated"

  let log: any CaptureLog
  public let maxPageBytes: Int

  public init(_ log: any CaptureLog, maxPageBytes: Int) {
    self.log = log
    self.maxPageBytes = maxPageBytes
  }

  public func capture(_ page: Page, error: StatlineError, at time: Date) async throws -> Int64 {
    guard page.body.count > maxPageBytes else { return try await log.capture(page, error: error, at: time) }
    var kept = page
    kept.body = page.body.prefix(maxPageBytes)
    kept.headers[Self.truncatedHeader] = String(page.body.count)
    var noted = error
    noted.reason += " [captured truncated: the first \(maxPageBytes) of \(page.body.count) bytes]"
    return try await log.capture(kept, error: noted, at: time)
  }

  public func captures(limit: Int) async throws -> [CaptureSummary] { try await log.captures(limit: limit) }
  public func capture(id: Int64) async throws -> Capture? { try await log.capture(id: id) }
  public func pruneCaptures(keep: Int, olderThan: Date, maxBytes: Int64) async throws -> Int {
    try await log.pruneCaptures(keep: keep, olderThan: olderThan, maxBytes: maxBytes)
  }
}
