import Foundation
import Logging
import StatlineCore
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

@testable import StatlineApp

/// The operator's side of the device registry: a key's hash made from standard input, the
/// devices counted from the store, the hashes read from the configuration (a bad one named),
/// and the routes mounted only when a hash is configured.
@Suite struct DevicesCommandTests {
  static func store() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("devices-\(UUID()).sqlite").path
    _ = try SQLiteStore(path: path)
    return path
  }

  @Test func aKeyIsHashedFromStandardInputNeverFromAnArgument() throws {
    let output = try CommandRunner.run(["devices", "hash-key"], input: Data("k-secret\n".utf8))
    #expect(output.status == 0 && output.stdout == DeviceKeys.hash("k-secret") + "\n", "\(output.stderr)")
    #expect(!output.stdout.contains("k-secret"))
    let empty = try CommandRunner.run(["devices", "hash-key"], input: Data())
    #expect(empty.status == 64 && empty.stderr.contains("no key on standard input"), "\(empty.stderr)")
  }

  @Test func theStoresDevicesAreCountedByKind() async throws {
    let path = try Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let registry = try SQLiteDeviceRegistry(path: path)
    _ = try await registry.upsertDevice(DeviceRegistryContract.device(String(repeating: "a", count: 64), teams: []))
    _ = try await registry.upsertDevice(
      DeviceRegistryContract.device(String(repeating: "b", count: 64), teams: [], kind: .fcm))
    let output = try CommandRunner.run(["devices", "--store", path])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.stdout.contains("2 devices") && output.stdout.contains("apns: 1") && output.stdout.contains("fcm: 1"))
  }

  @Test func aFileOfDevicesIsImportedWholeOrNotAtAll() async throws {
    let path = try Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("import-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let apns = String(repeating: "ab", count: 32)
    let good = folder.appendingPathComponent("devices.jsonl")
    try """
    {"kind": "apns", "token": "\(apns.uppercased())", "topic": "com.example.scores", "teams": ["Duke"]}

    {"kind": "fcm", "token": "fcm-token-1", "tokenType": "installation", "topic": "com.example.scores", "teams": ["team:457"], "alerts": ["final"]}
    """.write(to: good, atomically: true, encoding: .utf8)
    let imported = try CommandRunner.run(["devices", "import", good.path, "--store", path])
    #expect(imported.status == 0, "\(imported.stderr)")
    #expect(imported.stdout.contains("imported 2 devices") && imported.stdout.contains("2 new"), "\(imported.stdout)")
    let registry = try SQLiteDeviceRegistry(path: path)
    let iPhone = try #require(try await registry.device(id: Device.id(kind: .apns, token: apns)))
    #expect(iPhone.teams == ["team:193"] && iPhone.token == apns, "a school's name resolved, the token as stored")
    let android = try #require(try await registry.device(id: Device.id(kind: .fcm, token: "fcm-token-1")))
    #expect(android.tokenType == .installation && android.alerts == [.final])
    let again = try CommandRunner.run(["devices", "import", good.path, "--store", path])
    #expect(again.stdout.contains("0 new, 2 registered again"), "\(again.stdout)")

    // A bad line anywhere: named by its number and field, and nothing of the file is stored.
    let bad = folder.appendingPathComponent("bad.jsonl")
    try """
    {"kind": "apns", "token": "\(String(repeating: "c", count: 64))", "topic": "com.example.scores", "teams": ["Duke"]}
    {"kind": "apns", "token": "\(String(repeating: "d", count: 64))", "topic": "com.example.scores", "teams": ["Nowhere State"]}
    """.write(to: bad, atomically: true, encoding: .utf8)
    let refused = try CommandRunner.run(["devices", "import", bad.path, "--store", path])
    #expect(refused.status != 0)
    #expect(
      refused.stderr.contains("bad.jsonl:2: teams") && refused.stderr.contains("Nowhere State")
        && refused.stderr.contains("nothing was imported"), "\(refused.stderr)")
    #expect(try await registry.deviceCounts()[.apns] == 1, "the good first line was not stored either")
    let empty = folder.appendingPathComponent("empty.jsonl")
    try "\n\n".write(to: empty, atomically: true, encoding: .utf8)
    let none = try CommandRunner.run(["devices", "import", empty.path, "--store", path])
    #expect(none.status != 0 && none.stderr.contains("holds no device"), "\(none.stderr)")
  }

  @Test func suspendedDevicesAreCountedAndListedWithWhyAndTheirTokensCut() async throws {
    let path = try Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let registry = try SQLiteDeviceRegistry(path: path)
    let tokens = ["a", "b", "c"].map { String(repeating: $0, count: 63) + "9" }
    var ids: [String] = []
    for token in tokens {
      ids.append(try await registry.upsertDevice(DeviceRegistryContract.device(token, teams: [])).device.id)
    }
    _ = try await registry.suspendDevice(
      id: ids[0], .init(kind: .disabled, why: "APNs 410 Unregistered", since: "2026-03-09T00:00:00Z"))
    _ = try await registry.suspendDevice(
      id: ids[1], .init(kind: .quarantined, why: "BadDeviceToken: a sandbox token?", since: "2026-03-09T01:00:00Z"))

    let counted = try CommandRunner.run(["devices", "count", "--store", path])
    #expect(counted.stdout.contains("disabled: 1") && counted.stdout.contains("quarantined: 1"), "\(counted.stdout)")
    let listed = try CommandRunner.run(["devices", "list", "--store", path])
    #expect(listed.status == 0, "\(listed.stderr)")
    #expect(
      listed.stdout.contains("APNs 410 Unregistered") && listed.stdout.contains("BadDeviceToken: a sandbox token?"))
    #expect(!listed.stdout.contains(tokens[0]) && listed.stdout.contains("…" + tokens[0].suffix(8)), "never whole")
    #expect(!listed.stdout.contains(ids[2]), "a live device is not listed")
    let status = try CommandRunner.run(["status", "--store", path])
    #expect(
      status.stdout.contains("devices: apns 3, apns-liveactivity 0, fcm 0, apns-channel 0; 1 disabled, 1 quarantined"),
      "\(status.stdout)")
    #expect(status.stdout.contains("push outbox: 0 alerts to send"))
    let quarantined = try CommandRunner.run(["devices", "list", "--state", "quarantined", "--store", path])
    #expect(quarantined.stdout.contains(ids[1]) && !quarantined.stdout.contains(ids[0]))
  }

  @Test func theConfigurationHoldsHashesAndABadOneIsNamed() throws {
    let hash = DeviceKeys.hash("k")
    let targets = "targets:\n  - url: https://stats.example.edu/1.xml\n    parser: statbroadcast-game-xml\n"
    let config = try JobConfigReader.parse(targets + "api:\n  deviceKeys: [\(hash)]\n")
    #expect(config.deviceKeyHashes == [hash])
    let error = #expect(throws: StatlineError.self) {
      try JobConfigReader.parse(targets + "api:\n  deviceKeys: [the-key-itself]\n", file: "statline.yml")
    }
    #expect(error?.reason.contains("api.deviceKeys") == true || error?.context?.contains("api.deviceKeys") == true)
    #expect(error?.description.contains("sha256:") == true, "\(String(describing: error))")
    let path = try Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let serve = try CommandRunner.run(["serve", "--store", path, "--port", "0", "--device-key-hash", "plain"])
    #expect(serve.status == 64 && serve.stderr.contains("'plain' is not a key hash"), "\(serve.stderr)")
  }

  @Test func theRoutesAreMountedOnlyWhenAHashIsConfigured() async throws {
    let path = try Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let logger = Logger(label: "test")
    let teams = try BuiltinPlugins.teamRegistry()
    #expect(try await DeviceService.open(store: StoreLocation(path), hashes: [], teams: teams, logger: logger) == nil)
    let service = try #require(
      try await DeviceService.open(
        store: StoreLocation(path), hashes: [DeviceKeys.hash("k")], teams: teams, logger: logger))
    #expect(service.routes.path == "/v1/devices")
    await service.close()
  }
}
