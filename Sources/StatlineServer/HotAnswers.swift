import Foundation
import NIOCore
import StatlineCore

/// The cached answers the event loop can send by itself, without a task, an actor or the
/// router: every answer `ReadAPI` served from its cache for the store stamp it trusts now, with
/// its headers made. `HotAnswerHandler` answers a request from here when its answer is present
/// and the stamp is still trusted; anything else (a miss, a stamp to read again, a 406, a method
/// that is not GET or HEAD) goes on to Hummingbird and `ReadAPI`, which publishes what it serves.
/// The answers are byte for byte those `ReadAPI` gives (the `Date` header aside).
final class HotAnswers: Sendable {
  /// One representation of an answer (plain or gzipped): the start of its response for a 200
  /// and a 304 (status line and headers up to the `Date` header, which is added when sent), and
  /// its body.
  struct Representation: Sendable {
    var ok: ByteBuffer
    var notModified: ByteBuffer
    var body: ByteBuffer
  }

  struct Answer: Sendable {
    var plainTag: String
    var gzipTag: String
    var plain: Representation
    /// Nil: the body is sent as it is to every client (too small, or it does not compress).
    var gzip: Representation?
    /// Whether gzip was tried: if not, a client asking for it goes to `ReadAPI`, which tries.
    var gzipChecked: Bool
    /// When a game of the answer turns stale.
    var expires: Date?
    /// Where a 200 and a 304 of it are counted (nil: no metrics).
    var series: (ok: ServerMetrics.RequestSeries, notModified: ServerMetrics.RequestSeries)?
  }

  /// What the handler sends: the response's start, then `Date` and `Server`, then the body.
  struct Reply {
    var start: ByteBuffer
    var body: ByteBuffer?
    var series: ServerMetrics.RequestSeries?
  }

  private struct State {
    var stamp = StoreStamp(version: -1, schedule: -1)
    var trustedUntil: ContinuousClock.Instant?
    var answers: [String: Answer] = [:]
  }

  private let state = Locked(State())
  let limit: Int
  let serverName: String

  init(limit: Int = 2_000, serverName: String = "Statline") {
    self.limit = limit
    self.serverName = serverName
  }

  /// The store's stamp as read at some instant, trusted until `until`. A newer stamp empties
  /// the table; an older one (a slow request's read) changes nothing.
  func trust(_ stamp: StoreStamp, until: ContinuousClock.Instant) {
    state.withLock { state in
      if stamp != state.stamp {
        guard stamp.version >= state.stamp.version, stamp.schedule >= state.stamp.schedule else { return }
        state.stamp = stamp
        state.answers.removeAll(keepingCapacity: true)
        state.trustedUntil = until
      } else if state.trustedUntil.map({ $0 < until }) ?? true {
        state.trustedUntil = until
      }
    }
  }

  /// Whether the answer of `key` is already here for `stamp` (with gzip tried, if `gzip`).
  func holds(_ key: String, stamp: StoreStamp, gzip: Bool) -> Bool {
    state.withLock { state in
      guard state.stamp == stamp, let answer = state.answers[key] else { return false }
      return !gzip || answer.gzipChecked
    }
  }

  /// Keeps `answer` under `ReadAPI`'s key (path, `?`, query) and, for a key without a query,
  /// under the path alone too: the request target as a client sends it, looked up as it is.
  func publish(_ answer: Answer, for key: String, stamp: StoreStamp) {
    state.withLock { state in
      guard state.stamp == stamp else { return }
      if state.answers.count >= limit, state.answers[key] == nil { state.answers.removeAll(keepingCapacity: true) }
      state.answers[key] = answer
      if key.utf8.last == UInt8(ascii: "?") { state.answers[String(key.dropLast())] = answer }
    }
  }

  /// The answer to a GET or HEAD of `target` (the request target as sent), if the event loop
  /// can give it: a cached answer under a trusted stamp, not turned stale. `gzip` is whether the
  /// client accepts gzip; `ifNoneMatch` its `If-None-Match`.
  func reply(
    to target: String, head: Bool, gzip: Bool, ifNoneMatch: String?, at instant: ContinuousClock.Instant, date: Date
  ) -> Reply? {
    let found = state.withLock { state -> Answer? in
      guard let until = state.trustedUntil, instant < until else { return nil }
      return state.answers[target]
    }
    guard let answer = found else { return nil }
    if let expires = answer.expires, date >= expires { return nil }
    var representation = answer.plain
    if gzip {
      guard answer.gzipChecked else { return nil }
      if let gzip = answer.gzip { representation = gzip }
    }
    if let ifNoneMatch,
      ReadAPI.matches(ifNoneMatch, etag: answer.plainTag) || ReadAPI.matches(ifNoneMatch, etag: answer.gzipTag)
    {
      return Reply(start: representation.notModified, body: nil, series: answer.series?.notModified)
    }
    return Reply(start: representation.ok, body: head ? nil : representation.body, series: answer.series?.ok)
  }
}

extension HotAnswers.Answer {
  /// The answer of a cache entry, with the headers `ReadAPI` and Hummingbird give it.
  init(_ entry: ResponseCache.Entry, route: String, metrics: ServerMetrics?) {
    let plainTag = entry.etag
    let gzipTag = entry.gzipEtag
    self.plainTag = plainTag
    self.gzipTag = gzipTag
    plain = HotAnswers.Representation(
      body: entry.body, etag: plainTag, cacheControl: entry.cacheControl, encoding: nil)
    gzip = entry.gzipped.map {
      HotAnswers.Representation(body: $0, etag: gzipTag, cacheControl: entry.cacheControl, encoding: "gzip")
    }
    gzipChecked = entry.gzipChecked
    expires = entry.expires
    series = metrics.map {
      (ok: $0.series(route: route, status: 200), notModified: $0.series(route: route, status: 304))
    }
  }
}

extension HotAnswers.Representation {
  /// The response starts as the slow path writes them: the status line, the answer's own
  /// headers by name, then the length.
  init(body: [UInt8], etag: String, cacheControl: String, encoding: String?) {
    var ok: [(String, String)] = [("cache-control", cacheControl)]
    if let encoding { ok.append(("content-encoding", encoding)) }
    ok += [("content-type", "application/json; charset=utf-8"), ("etag", etag), ("vary", "Accept-Encoding")]
    ok.append(("Content-Length", String(body.count)))
    let notModified = [("cache-control", cacheControl), ("etag", etag), ("vary", "Accept-Encoding")]
    self.init(
      ok: Self.start("200 OK", ok), notModified: Self.start("304 Not Modified", notModified),
      body: ByteBuffer(bytes: body))
  }

  static func start(_ status: String, _ headers: [(String, String)]) -> ByteBuffer {
    var text = "HTTP/1.1 \(status)\r\n"
    for (name, value) in headers { text += "\(name): \(value)\r\n" }
    return ByteBuffer(string: text)
  }
}
