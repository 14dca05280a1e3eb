import Foundation
import StatlineCore
import StatlineLoopback

/// `bench serve --log`: one line per request, for the cluster test to check from the site's side.
final class RequestLog: @unchecked Sendable {
  private let lock = NSLock()
  private let handle: FileHandle

  init(path: String) throws {
    _ = FileManager.default.createFile(atPath: path, contents: nil)
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw StatlineError(.io, "cannot write the request log", location: path)
    }
    self.handle = handle
  }

  func append(_ uri: String, _ behavior: LoopbackServer.Behavior) {
    let millis = Int64((Date().timeIntervalSince1970 * 1000).rounded())
    let line = "\(millis)\t\(uri)\t\(behavior.status)\n"
    lock.withLock { handle.write(Data(line.utf8)) }
  }
}
