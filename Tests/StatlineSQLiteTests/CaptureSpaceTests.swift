import Foundation
import StatlineCore
import Testing

@testable import StatlineSQLite

/// Pruning captures gives their space back to the filesystem: a store made now shrinks when its
/// captures are pruned (before, pruning never shrank the file).
@Suite struct CaptureSpaceTests {
  static func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }

  @Test func prunedCapturesGiveTheirSpaceBack() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("captures-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let store = try SQLiteStore(path: path)
    let start = Date(timeIntervalSince1970: 1_771_200_000)
    for n in 1...20 {
      let page = Page(url: "https://stats.test/\(n)", body: Data(repeating: UInt8(n), count: 1_000_000))
      _ = try await store.capture(page, error: StatlineError(.wrongPage, "bad"), at: start)
    }
    try await store.checkpoint()
    let full = Self.size(path)
    #expect(full > 19_000_000, "\(full)")
    #expect(
      try await store.pruneCaptures(keep: 500, olderThan: start.addingTimeInterval(-1), maxBytes: 2_000_000) == 18)
    try await store.checkpoint()
    let pruned = Self.size(path)
    #expect(pruned < 4_000_000, "the file shrank from \(full) to \(pruned) bytes")
  }
}

extension SQLiteStore {
  fileprivate func checkpoint() throws { try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
}
