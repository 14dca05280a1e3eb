import Foundation
import Synchronization

/// What the loopback push services accepted, one line each as it happens, for a check that
/// counts deliveries from the fakes rather than from the sender's own records (the cluster
/// check): tab-separated `unix-ms`, `accepted`, the API (`apns`, `fcm`), the device token, the
/// payload's `gameId` and `eventId`, the connection (numbered per API), and the request's own
/// expiry (`apns-expiration`, or the time FCM's `ttl` runs out; `-` when it has none). A
/// connection that closes is a line `unix-ms`, `closed`, the API, `-`, `-`, `-`, the connection,
/// `-`: which connections a killed sender held, and so which answers it never read.
public final class LoopbackPushLog: Sendable {
  private let handle: Mutex<FileHandle>
  private let now: @Sendable () -> Date

  /// Appends to `path`, made empty first.
  public init(path: String, now: @escaping @Sendable () -> Date = { Date() }) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path)
    else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
    }
    self.handle = Mutex(handle)
    self.now = now
  }

  func accepted(api: String, target: String, payload: [String: Any], connection: Int, expires: Double?) {
    let game = payload["gameId"] as? String ?? "-"
    let event = payload["eventId"] as? String ?? "-"
    write(["accepted", api, target, game, event, String(connection), expires.map { String(format: "%.3f", $0) } ?? "-"])
  }

  func closed(api: String, connection: Int) {
    write(["closed", api, "-", "-", "-", String(connection), "-"])
  }

  private func write(_ fields: [String]) {
    let stamp = String(Int64((now().timeIntervalSince1970 * 1000).rounded()))
    let line = ([stamp] + fields.map { $0.replacingOccurrences(of: "\t", with: " ") }).joined(separator: "\t") + "\n"
    handle.withLock { $0.write(Data(line.utf8)) }
  }

  public func close() {
    handle.withLock { try? $0.close() }
  }
}
