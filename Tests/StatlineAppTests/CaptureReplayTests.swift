import Foundation
import StatlineApp
import StatlineCore
import StatlineFixtures
import StatlineSQLite
import StatlineTesting
import Testing

/// A captured failure replays to exactly the same error, offline.
@Suite struct CaptureReplayTests {
  @Test func replayingACaptureReproducesTheFailure() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let page = try PageLoader.load(PackageRoot.file("Fixtures/GenericHTML/ncaa-team-schedule/bot-challenge").path)
    let entry = try #require(try BuiltinPlugins.registry().parser(id: "ncaa-team-schedule"))
    var captured: StatlineError?
    do { _ = try PagePipeline.run(page, with: entry) } catch { captured = error }
    let error = try #require(captured)
    let store = try SQLiteStore(path: path)
    let id = try await store.capture(page, error: error, at: Date(timeIntervalSince1970: 1_771_200_000))

    let replay = try CommandRunner.run(["replay", "capture:\(id)", "--store", path])
    #expect(replay.status == 65)
    #expect(replay.stderr == "statline: replay failed: capture:\(id): \(error)\n")

    let list = try CommandRunner.run(["captures", "list", "--store", path])
    #expect(list.status == 0)
    #expect(list.stdout.contains("https://stats.test") == false)
    #expect(list.stdout.contains("ncaa-team-schedule  https://stats.ncaa.org/teams/614511  blocked:"))

    #expect(try CommandRunner.run(["replay", "capture:99", "--store", path]).status == 64)
    #expect(try CommandRunner.run(["replay", "capture:x", "--store", path]).status == 64)
  }

  /// A page piped in, or written to a FIFO, is read (both were refused as "permission").
  @Test func replayReadsAPipeAndStandardInput() throws {
    let page = try Data(
      contentsOf: PackageRoot.file("Fixtures/StatBroadcast/statbroadcast-game-xml/womens-final/page.xml"))
    let piped = try CommandRunner.run(
      ["replay", "/dev/stdin", "--parser", "statbroadcast-game-xml"], input: page)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout.contains("1 game, 2 teams, 1 box score"), "\(piped.stdout)")

    let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("statline-fifo-\(UUID())").path
    #expect(mkfifo(fifo, 0o600) == 0)
    defer { try? FileManager.default.removeItem(atPath: fifo) }
    let writer = Thread {
      if let handle = FileHandle(forWritingAtPath: fifo) {
        handle.write(page)
        try? handle.close()
      }
    }
    writer.start()
    let fromFIFO = try CommandRunner.run(["replay", fifo, "--parser", "statbroadcast-game-xml"])
    #expect(fromFIFO.status == 0 && fromFIFO.stdout.contains("1 game, 2 teams"), "\(fromFIFO.stderr)")

    let empty = try CommandRunner.run(["replay", "/dev/stdin", "--parser", "statbroadcast-game-xml"])
    #expect(empty.status != 0 && empty.stderr.contains("empty page"), "\(empty.stderr)")
    #expect(!empty.stderr.contains("permission"))
  }
}
