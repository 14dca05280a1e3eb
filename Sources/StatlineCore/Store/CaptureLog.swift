import Foundation

/// Where pages that failed to decode, parse or validate are kept, with everything needed to
/// reproduce the failure offline (`statline replay capture:ID`).
public protocol CaptureLog: Sendable {
  /// Saves the page and the error; returns the capture's id.
  func capture(_ page: Page, error: StatlineError, at time: Date) async throws -> Int64
  /// The newest captures first.
  func captures(limit: Int) async throws -> [CaptureSummary]
  /// The saved page and what went wrong, or nil when there is no such capture.
  func capture(id: Int64) async throws -> Capture?
  /// Deletes captures beyond the newest `keep`, any older than `olderThan`, and the oldest
  /// beyond the newest whose pages add up to `maxBytes`, and gives the space back where the
  /// store can (SQLite: an incremental vacuum); returns how many.
  func pruneCaptures(keep: Int, olderThan: Date, maxBytes: Int64) async throws -> Int
}

extension CaptureLog {
  /// `pruneCaptures` with no bound on bytes.
  public func pruneCaptures(keep: Int, olderThan: Date) async throws -> Int {
    try await pruneCaptures(keep: keep, olderThan: olderThan, maxBytes: .max)
  }
}

/// One line of `statline captures list`.
public struct CaptureSummary: Sendable, Equatable, Codable {
  public var id: Int64
  public var capturedAt: Date
  public var url: String?
  public var status: Int
  public var source: String?
  public var parser: String?
  public var error: String

  public init(
    id: Int64, capturedAt: Date, url: String?, status: Int, source: String?, parser: String?, error: String
  ) {
    self.id = id
    self.capturedAt = capturedAt
    self.url = url
    self.status = status
    self.source = source
    self.parser = parser
    self.error = error
  }
}

/// A saved failure: the page as fetched and the error it gave.
public struct Capture: Sendable, Equatable {
  public var summary: CaptureSummary
  public var page: Page

  public init(summary: CaptureSummary, page: Page) {
    self.summary = summary
    self.page = page
  }
}
