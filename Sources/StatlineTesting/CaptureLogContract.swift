import Foundation
import StatlineCore
import Testing

/// The capture half of a store: a capture keeps the page, the request and the error whole
/// (bytes that are not text included); listing is newest first; pruning keeps the newest and
/// the recent.
public enum CaptureLogContract {
  public static func check(
    _ make: () async throws -> any CaptureLog, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await aCaptureKeepsThePageTheRequestAndTheError(try await make(), sourceLocation)
    try await listingIsNewestFirstAndPruningKeepsTheNewestAndRecent(try await make(), sourceLocation)
    try await pruningKeepsTheNewestPagesThatFitTheBytes(try await make(), sourceLocation)
  }

  static let start = Date(timeIntervalSince1970: 1_771_200_000)

  static func page(_ n: Int) -> Page {
    Page(
      url: "https://stats.test/\(n)", status: 200, headers: ["Content-Type": "text/html", "ETag": "\"\(n)\""],
      body: Data("<html>\(n) \u{0}\u{FF}</html>".utf8) + Data([0xC3, 0x28, 0x00]), fetchedAt: start, file: nil)
  }

  static func aCaptureKeepsThePageTheRequestAndTheError(_ store: any CaptureLog, _ location: SourceLocation)
    async throws
  {
    let error = StatlineError(
      .validation, "scores disagree", source: "ncaa", parser: "box", location: "https://stats.test/1")
    let id = try await store.capture(page(1), error: error, at: start)
    let capture = try #require(try await store.capture(id: id), sourceLocation: location)
    #expect(capture.page == page(1), "the bytes as fetched, invalid UTF-8 and NUL included", sourceLocation: location)
    #expect(capture.summary.error == error.description, sourceLocation: location)
    #expect(capture.summary.parser == "box" && capture.summary.source == "ncaa", sourceLocation: location)
    #expect(capture.summary.capturedAt == start, sourceLocation: location)
    #expect(try await store.capture(id: id + 999) == nil, sourceLocation: location)
  }

  static func listingIsNewestFirstAndPruningKeepsTheNewestAndRecent(
    _ store: any CaptureLog, _ location: SourceLocation
  ) async throws {
    for n in 1...6 {
      _ = try await store.capture(
        page(n), error: StatlineError(.wrongPage, "bad \(n)"), at: start.addingTimeInterval(Double(n) * 86_400))
    }
    #expect(
      try await store.captures(limit: 3).map(\.url) == [
        "https://stats.test/6", "https://stats.test/5", "https://stats.test/4",
      ], sourceLocation: location)
    #expect(try await store.pruneCaptures(keep: 4, olderThan: start) == 2, sourceLocation: location)
    #expect(
      try await store.pruneCaptures(keep: 10, olderThan: start.addingTimeInterval(4.5 * 86_400)) == 2,
      sourceLocation: location)
    #expect(
      try await store.captures(limit: 10).map(\.url) == ["https://stats.test/6", "https://stats.test/5"],
      sourceLocation: location)
  }

  /// Pages of 1,000 bytes each: a bound of 2,500 bytes keeps the newest two.
  static func pruningKeepsTheNewestPagesThatFitTheBytes(_ store: any CaptureLog, _ location: SourceLocation)
    async throws
  {
    for n in 1...5 {
      var page = page(n)
      page.body = Data(repeating: UInt8(ascii: "a"), count: 1_000)
      _ = try await store.capture(page, error: StatlineError(.wrongPage, "bad \(n)"), at: start)
    }
    #expect(
      try await store.pruneCaptures(keep: 10, olderThan: start.addingTimeInterval(-1), maxBytes: 2_500) == 3,
      sourceLocation: location)
    #expect(
      try await store.captures(limit: 10).map(\.url) == ["https://stats.test/5", "https://stats.test/4"],
      sourceLocation: location)
    #expect(
      try await store.pruneCaptures(keep: 10, olderThan: start.addingTimeInterval(-1), maxBytes: 2_000) == 0,
      "exactly at the bound: kept", sourceLocation: location)
  }
}
