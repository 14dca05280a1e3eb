import Foundation
import StatlineApp
import Testing

@testable import StatlineBench

/// The events benchmark runs and measures what it says (its numbers are the README's, not a test's).
@Suite struct EventsBenchmarkTests {
  @Test func theDifferAndTheWebhookBenchmarksRun() async throws {
    let differ = EventsBenchmark.differ(polls: 200)
    #expect(differ.callsPerSecond > 0 && differ.eventsPerSecond >= differ.callsPerSecond)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("events-bench-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let webhook = try await EventsBenchmark.webhook(count: 40, storePath: path)
    #expect(webhook.verified >= 40 && webhook.perSecond > 0)
  }
}
