import Foundation
import StatlineApp
import StatlineCore
import StatlineLoopback
import StatlinePush
import StatlineSQLite

/// The push path of the latency benchmark: `devices` devices (half iPhones through the loopback
/// APNs, half Android through the loopback FCM, each following one team of the site's games)
/// registered in the job's store before it starts, and the two fakes in this process
/// (`LoopbackPushPair`). After the run, each accepted
/// push is matched to its goal through its event id.
struct LatencyPush {
  let pair: LoopbackPushPair
  var settings: PushSettings { pair.settings }
  /// Devices following each team.
  let followers: [String: Int]

  static func start(devices: Int, games: Int, storePath: String, folder: URL) async throws -> LatencyPush {
    let pair = try await LoopbackPushPair.start(folder: folder)
    _ = try SQLiteStore(path: storePath)
    let registry = try SQLiteDeviceRegistry(path: storePath)
    let teams = Array(Set(BenchSite.teams(targets: games).flatMap { [$0.away, $0.home] })).sorted()
    for index in 0..<devices {
      let (kind, token) =
        index % 2 == 0
        ? (Device.Kind.apns, String(format: "%064x", index + 1))
        : (.fcm, String(format: "fcm-%06d-", index) + String(repeating: "a", count: 40))
      _ = try await registry.upsertDevice(
        Device(
          id: Device.id(kind: kind, token: token), kind: kind, token: token, environment: .production,
          topic: "com.example.scores", teams: [teams[index % teams.count]], alerts: [.score],
          registeredAt: "2026-03-01T00:00:00Z", updatedAt: "2026-03-01T00:00:00Z",
          tokenType: kind == .fcm ? .registration : nil))
    }
    var followers: [String: Int] = [:]
    for index in 0..<devices { followers[teams[index % teams.count], default: 0] += 1 }
    return LatencyPush(pair: pair, followers: followers)
  }

  /// Each accepted push: its event id, its device's token, its API and when (Unix seconds, to
  /// the millisecond).
  func accepted() throws -> [(eventId: String, token: String, api: String, at: Double)] {
    pair.log.close()
    return try String(contentsOfFile: pair.logPath, encoding: .utf8).split(separator: "\n").compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 8, fields[1] == "accepted", let ms = Double(fields[0]) else { return nil }
      return (String(fields[5]), String(fields[3]), String(fields[2]), ms / 1000)
    }
  }

  func stop() async { await pair.stop() }
}
