import Foundation
import StatlineApp
import StatlineCore
import StatlineSQLite
import StatlineTesting
import Testing

/// One job writes a SQLite store: a second is refused at start, naming the process that holds
/// it, while readers and one-shot commands stay welcome; the lock goes with the job.
@Suite struct WriterLockTests {
  static func folder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("writer-lock-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  @Test func aSecondJobIsRefusedAndReadersAreWelcome() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s.sqlite").path
    let location = try StoreLocation(path)
    let job = try await location.open(job: true)
    do {
      _ = try await location.open(job: true)
      Issue.record("a second job opened the store")
    } catch {
      #expect(error.reason.contains("already written by another job (process \(getpid())"), "\(error)")
      #expect(error.location == path && error.hint?.contains("serve") == true)
    }
    _ = try await location.openReader()
    _ = try await location.open()  // a command such as `events redeliver`
    await job.close()
    let next = try await location.open(job: true)
    await next.close()
  }

  /// `statline once` on a store a job holds stops before it asks any site, and says who holds it.
  @Test func onceOnAStoreAJobHoldsIsRefusedNamingTheProcess() async throws {
    let folder = try Self.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("s.sqlite").path
    let job = try await StoreLocation(path).open(job: true)
    defer { Task { await job.close() } }
    let file = folder.appendingPathComponent("statline.yml")
    try "targets:\n  - url: http://127.0.0.1:9/archive/1.xml\n    parser: statbroadcast-game-xml\n".write(
      to: file, atomically: true, encoding: .utf8)
    let output = try CommandRunner.run(["once", "--config", file.path, "--store", path])
    #expect(output.status != 0)
    #expect(output.stderr.contains("already written by another job (process \(getpid())"), "\(output.stderr)")
    let status = try CommandRunner.run(["status", "--store", path])
    #expect(status.status == 0, "a reader is welcome: \(status.stderr)")
  }
}
