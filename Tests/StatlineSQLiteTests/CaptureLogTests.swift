import Foundation
import StatlineCore
import StatlineSQLite
import Testing

@Suite struct CaptureLogTests {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-\(UUID()).sqlite").path
  let start = Date(timeIntervalSince1970: 1_771_200_000)

  func page(_ n: Int) -> Page {
    Page(
      url: "https://stats.test/\(n)", status: 200, headers: ["Content-Type": "text/html", "ETag": "\"\(n)\""],
      body: Data("<html>\(n) \u{0}\u{FF}</html>".utf8), fetchedAt: start, file: nil)
  }

  @Test func aCaptureKeepsThePageTheRequestAndTheError() async throws {
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let store = try SQLiteStore(path: path)
    let error = StatlineError(
      .validation, "scores disagree", source: "ncaa", parser: "box", location: "https://stats.test/1")
    let id = try await store.capture(page(1), error: error, at: start)
    let capture = try #require(try await store.capture(id: id))
    #expect(capture.page == page(1))
    #expect(capture.summary.error == error.description)
    #expect(capture.summary.parser == "box")
    #expect(capture.summary.capturedAt == start)
    #expect(try await store.capture(id: 999) == nil)
  }

  @Test func listingIsNewestFirstAndPruningKeepsTheNewestAndRecent() async throws {
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let store = try SQLiteStore(path: path)
    for n in 1...6 {
      _ = try await store.capture(
        page(n), error: StatlineError(.wrongPage, "bad \(n)"), at: start.addingTimeInterval(Double(n) * 86_400))
    }
    #expect(
      try await store.captures(limit: 3).map(\.url) == [
        "https://stats.test/6", "https://stats.test/5", "https://stats.test/4",
      ])
    #expect(try await store.pruneCaptures(keep: 4, olderThan: start) == 2)
    #expect(try await store.pruneCaptures(keep: 10, olderThan: start.addingTimeInterval(4.5 * 86_400)) == 2)
    #expect(try await store.captures(limit: 10).map(\.url) == ["https://stats.test/6", "https://stats.test/5"])
  }
}
