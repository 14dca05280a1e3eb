import CSQLite
import Foundation
import StatlineCore
import StatlineSQLite
import StatlineTesting
import Testing

/// A store whose file lost part of its schema, and a store on a read-only filesystem.
@Suite(.serialized) struct DamagedStoreTests {
  static func game() -> Game {
    Game(
      id: "ncaa:1", sport: .lacrosseMen, status: .final, period: 4,
      away: TeamLine(team: TeamRef(id: "ncaa:t1", name: "Duke"), score: 3),
      home: TeamLine(team: TeamRef(id: "ncaa:t2", name: "Navy"), score: 4))
  }

  /// Runs SQL on the file behind the store's back.
  static func damage(_ path: String, _ sql: String) {
    var handle: OpaquePointer?
    #expect(sqlite3_open(path, &handle) == SQLITE_OK)
    #expect(sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK)
    sqlite3_close(handle)
  }

  @Test(arguments: [
    ("DROP TABLE plays", "lacks table plays"), ("ALTER TABLE teams DROP COLUMN hash", "lacks column teams.hash"),
  ])
  func aStoreMissingPartOfItsSchemaIsReportedAsDamaged(_ sql: String, _ missing: String) async throws {
    let path = SQLiteStoreTests.temporaryPath()
    defer { SQLiteStoreTests.remove(path) }
    _ = try await SQLiteStore(path: path).write(Batch(games: [Self.game()]))
    Self.damage(path, sql)
    for open in [{ _ = try SQLiteStore(path: path) }, { _ = try SQLiteStore(readOnlyPath: path) }]
      as [() throws -> Void]
    {
      do {
        try open()
        Issue.record("a damaged store must be refused")
      } catch let error as StatlineError {
        #expect(error.reason.contains("the store is damaged") && error.reason.contains(missing), "\(error)")
        #expect(error.hint?.contains("backup") == true)
      }
    }
    for command in [["migrate", "--store", path], ["serve", "--store", path, "--port", "0"]] {
      let output = try CommandRunner.run(command)
      #expect(output.status != 0 && output.stderr.contains("the store is damaged"), "\(command[0]): \(output.stderr)")
    }
  }

  /// Bind-mounts `source` read-only at `target` (root only; false where the machine will not).
  static func mountReadOnly(_ source: String, at target: String) -> Bool {
    func run(_ arguments: [String]) -> Bool {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/mount")
      process.arguments = arguments
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { return false }
      process.waitUntilExit()
      return process.terminationStatus == 0
    }
    return run(["--bind", source, target]) && run(["-o", "remount,bind,ro", target])
  }

  static func unmount(_ target: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/umount")
    process.arguments = [target]
    try? process.run()
    process.waitUntilExit()
  }

  static let canMount: Bool = {
    let probe = FileManager.default.temporaryDirectory.appendingPathComponent("statline-mount-probe-\(UUID())").path
    try? FileManager.default.createDirectory(atPath: probe, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: probe) }
    guard mountReadOnly(probe, at: probe) else { return false }
    unmount(probe)
    return true
  }()

  @Test(.enabled(if: canMount, "needs root to bind-mount a folder read-only (CI runs as root)"))
  func aStoreOnAReadOnlyFilesystemIsRead() async throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("statline-ro-\(UUID())")
    let source = root.appendingPathComponent("source").path
    let target = root.appendingPathComponent("mounted").path
    try FileManager.default.createDirectory(atPath: source, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    do {
      let store = try SQLiteStore(path: source + "/s.sqlite")
      _ = try await store.write(Batch(games: [Self.game()]))
    }
    #expect(Self.mountReadOnly(source, at: target))
    defer { Self.unmount(target) }
    let reader = try SQLiteStore(readOnlyPath: target + "/s.sqlite")
    #expect(try await reader.game(id: "ncaa:1")?.home.score == 4)
    #expect(!FileManager.default.fileExists(atPath: target + "/s.sqlite-shm"), "nothing written beside it")
  }
}
