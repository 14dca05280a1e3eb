import Foundation

/// `../shared/tools/pushfake`, the independent APNs and FCM fake (Python: its own HTTP/2, TLS and
/// JWT code), started by a test on a free port of 127.0.0.1 and stopped with SIGTERM. Found
/// through `STATLINE_PUSHFAKE` and `STATLINE_PUSHFAKE_PYTHON` (set by `scripts/test`); in CI
/// (`STATLINE_REQUIRE_PUSHFAKE=1`) a missing fake fails instead of skipping.
public final class Pushfake: Sendable {
  public let port: Int
  /// The fake's certificate authority (PEM), made at its start.
  public let authorityPEM: String
  private let process: Process
  private let folder: URL

  public static var script: String? { ProcessInfo.processInfo.environment["STATLINE_PUSHFAKE"] }
  public static var python: String? { ProcessInfo.processInfo.environment["STATLINE_PUSHFAKE_PYTHON"] }
  /// Whether the oracle tests run: the fake is there, or CI demands it (and then fails).
  public static var enabled: Bool {
    (script != nil && python != nil) || ProcessInfo.processInfo.environment["STATLINE_REQUIRE_PUSHFAKE"] == "1"
  }

  /// Starts the fake with these APNs keys (key id, team id, the public half as PEM) and topics,
  /// and for FCM a service-account JSON file's contents (its `project_id` is the project; the
  /// token endpoint is the fake's `/token`).
  public init(
    apnsKeys: [(keyId: String, teamId: String, publicKeyPEM: String)], topics: [String],
    fcmServiceAccountJSON: Data? = nil
  ) throws {
    guard let script = Self.script, let python = Self.python else {
      throw PushfakeError(
        "STATLINE_PUSHFAKE and STATLINE_PUSHFAKE_PYTHON are not set: run the tests with scripts/test, which makes the venv"
      )
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pushfake-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    var arguments = [
      script, "--port", "0", "--port-file", folder.appendingPathComponent("port").path, "--ca-file",
      folder.appendingPathComponent("ca.pem").path,
    ]
    for (index, key) in apnsKeys.enumerated() {
      let file = folder.appendingPathComponent("key\(index).pem")
      try key.publicKeyPEM.write(to: file, atomically: true, encoding: .utf8)
      arguments += ["--apns-key", "\(key.keyId):\(key.teamId):\(file.path)"]
    }
    for topic in topics { arguments += ["--topic", topic] }
    if let fcmServiceAccountJSON {
      let file = folder.appendingPathComponent("service-account.json")
      try fcmServiceAccountJSON.write(to: file)
      arguments += ["--fcm-sa-json", file.path]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.standardError
    try process.run()
    // It writes the port file once it listens (atomically); a fake that has not in 30 s failed.
    let portFile = folder.appendingPathComponent("port")
    let limit = Date().addingTimeInterval(30)
    var port: Int?
    while port == nil, Date() < limit, process.isRunning {
      port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap {
        Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
      }
      if port == nil { usleep(50_000) }
    }
    guard let port, let authority = try? String(contentsOf: folder.appendingPathComponent("ca.pem"), encoding: .utf8)
    else {
      process.terminate()
      throw PushfakeError("pushfake did not start within 30 s (its errors are above)")
    }
    self.port = port
    self.authorityPEM = authority
    self.process = process
    self.folder = folder
  }

  public var baseURL: String { "https://127.0.0.1:\(port)" }

  public func stop() {
    // SIGTERM, then up to 2 s for it to go (Foundation's `waitUntilExit` spins off the main
    // thread here), then SIGKILL.
    if process.isRunning {
      process.terminate()
      let limit = Date().addingTimeInterval(2)
      while process.isRunning, Date() < limit { usleep(20_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    try? FileManager.default.removeItem(at: folder)
  }

  deinit { stop() }
}

public struct PushfakeError: Error, CustomStringConvertible {
  public let description: String
  init(_ description: String) { self.description = description }
}
