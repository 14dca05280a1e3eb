import Foundation
import StatlineCore

/// Writes each event as one line of JSON (sorted keys, the same JSON the API serves) to
/// standard output or appends it to a file.
public final class JSONLinesSink: EventSink, @unchecked Sendable {
  public let name: String
  public let filter: EventFilter
  private let handle: FileHandle
  private let lock = NSLock()

  /// Standard output.
  public init(name: String = "jsonl", filter: EventFilter = .all) {
    self.name = name
    self.filter = filter
    handle = FileHandle.standardOutput
  }

  /// Appends to `path`, creating it when missing.
  public init(name: String = "jsonl", path: String, filter: EventFilter = .all) throws(StatlineError) {
    self.name = name
    self.filter = filter
    if !FileManager.default.fileExists(atPath: path) {
      guard FileManager.default.createFile(atPath: path, contents: nil) else {
        throw StatlineError(
          .configuration, "the jsonl sink cannot create \(path)", hint: "check that the folder exists and is writable")
      }
    }
    guard let handle = FileHandle(forWritingAtPath: path) else {
      throw StatlineError(
        .configuration, "the jsonl sink cannot open \(path) for writing", hint: "check its permissions")
    }
    handle.seekToEndOfFile()
    self.handle = handle
  }

  public func deliver(_ event: ChangeEvent) async throws {
    var line = try event.jsonLine()
    line.append(0x0A)
    try lock.withLock {
      do {
        try handle.write(contentsOf: line)
      } catch {
        throw EventDeliveryError("writing \(name): \(error)", retryable: true)
      }
    }
  }
}
