import CompressNIO
import NIOCore

/// Answers computed for the current store version, by path and query: thousands of phones asking
/// for one scoreboard cost one query. Bounded; emptied when the store's version moves.
actor ResponseCache {
  struct Entry: Sendable {
    var body: [UInt8]
    var cacheControl: String
    /// The body gzipped, for clients that ask (made once, when the entry is cached).
    var gzipped: [UInt8]? = nil
  }

  private var version: Int64 = -1
  private var entries: [String: Entry] = [:]
  let limit: Int

  init(limit: Int = 2_000) { self.limit = limit }

  func entry(_ key: String, version: Int64) -> Entry? {
    guard version == self.version else { return nil }
    return entries[key]
  }

  func store(_ entry: Entry, for key: String, version: Int64) {
    if version != self.version {
      // A newer version makes every answer stale; an older one (a slow request) is not kept.
      guard version > self.version else { return }
      self.version = version
      entries.removeAll(keepingCapacity: true)
    }
    if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
    entries[key] = entry
  }
}

extension ResponseCache.Entry {
  /// The entry with its gzipped body, when the body is worth compressing.
  func withGzip(minimumSize: Int) -> ResponseCache.Entry {
    guard body.count >= minimumSize else { return self }
    var buffer = ByteBuffer(bytes: body)
    guard var compressed = try? buffer.compress(with: .gzip()), compressed.readableBytes < body.count else {
      return self
    }
    var entry = self
    entry.gzipped = compressed.readBytes(length: compressed.readableBytes)
    return entry
  }
}
