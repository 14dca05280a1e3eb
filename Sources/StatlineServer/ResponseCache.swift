import CompressNIO
import Foundation
import NIOCore
import StatlineCore

/// Answers computed for the current store stamp, by path and query: thousands of phones asking
/// for one scoreboard cost one query. Bounded; emptied when the stamp moves. An answer whose
/// games turn stale at some time is not served past it.
actor ResponseCache {
  struct Entry: Sendable {
    var body: [UInt8]
    var cacheControl: String
    /// The body gzipped, for clients that ask (made once, for the first that does).
    var gzipped: [UInt8]? = nil
    /// Whether `gzipped` has been tried (a small or incompressible body stays without).
    var gzipChecked = false
    /// When a game of the answer turns stale: the answer must be computed again from then.
    var expires: Date? = nil
    /// The strong validator: a hash of the body.
    var etag: String = ""
  }

  private var stamp = StoreStamp(version: -1, schedule: -1)
  private var entries: [String: Entry] = [:]
  private var board: FreshnessBoard?
  /// The newest board built, and the schedule stamp it was built at: kept when the stamp moves,
  /// so the next board takes only the targets changed since.
  private var lastBoard: (board: FreshnessBoard, schedule: Int64)?
  let limit: Int

  init(limit: Int = 2_000) { self.limit = limit }

  func entry(_ key: String, stamp: StoreStamp, now: Date) -> Entry? {
    guard stamp == self.stamp, let entry = entries[key] else { return nil }
    if let expires = entry.expires, now >= expires { return nil }
    return entry
  }

  func store(_ entry: Entry, for key: String, stamp: StoreStamp) {
    guard moveTo(stamp) else { return }
    if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
    entries[key] = entry
  }

  /// The store stamp read last, and when (monotonic time).
  private var lastStamp: (stamp: StoreStamp, at: ContinuousClock.Instant)?

  /// The stamp read within `interval` of `now`, if any.
  func recentStamp(now: ContinuousClock.Instant, within interval: Duration) -> StoreStamp? {
    guard let lastStamp, now - lastStamp.at < interval else { return nil }
    return lastStamp.stamp
  }

  func note(_ stamp: StoreStamp, at instant: ContinuousClock.Instant) { lastStamp = (stamp, instant) }

  /// The freshness board of this stamp, if one was kept.
  func board(stamp: StoreStamp) -> FreshnessBoard? { stamp == self.stamp ? board : nil }

  func store(board: FreshnessBoard, stamp: StoreStamp) {
    guard moveTo(stamp) else { return }
    self.board = board
    if stamp.schedule >= lastBoard?.schedule ?? .min { lastBoard = (board, stamp.schedule) }
  }

  /// The newest board built, with its schedule stamp.
  func newestBoard() -> (board: FreshnessBoard, schedule: Int64)? { lastBoard }

  /// A newer stamp empties the cache; an older one (a slow request) is not kept.
  private func moveTo(_ stamp: StoreStamp) -> Bool {
    guard stamp != self.stamp else { return true }
    guard stamp.version >= self.stamp.version, stamp.schedule >= self.stamp.schedule else { return false }
    self.stamp = stamp
    entries.removeAll(keepingCapacity: true)
    board = nil
    return true
  }
}

extension ResponseCache.Entry {
  /// The entry with its ETag: a hash of the body.
  func prepared() -> ResponseCache.Entry {
    var entry = self
    entry.etag = "\"" + String(ContentHash.fnv1a(body), radix: 16) + "\""
    return entry
  }

  /// The gzipped representation's own strong ETag.
  var gzipEtag: String { String(etag.dropLast()) + "-gzip\"" }

  /// The entry with its gzipped body, when the body is worth compressing (made the first time a
  /// client asks for gzip, then kept with the entry).
  func withGzip(minimumSize: Int) -> ResponseCache.Entry {
    var entry = self
    entry.gzipChecked = true
    guard body.count >= minimumSize else { return entry }
    var buffer = ByteBuffer(bytes: body)
    guard var compressed = try? buffer.compress(with: .gzip()), compressed.readableBytes < body.count else {
      return entry
    }
    entry.gzipped = compressed.readBytes(length: compressed.readableBytes)
    return entry
  }
}
