import Foundation

/// Recognises answers that are not content: access walls, bot challenges, refusals and error
/// statuses. Such a page is reported (`.blocked` or `.wrongPage`), never parsed, never solved.
///
/// Runs before any parser, so every plugin gets it; plugins add site-specific checks of their own.
public enum BlockDetector {
  /// Markers of bot challenges and walls, matched case-insensitively in the first 64 KiB.
  public static let challengeMarkers: [(marker: String, reason: String)] = [
    ("bm-verify", "an Akamai bot-manager challenge (bm-verify)"),
    ("/_sec/verify", "an Akamai bot-manager challenge (/_sec/verify)"),
    ("triggerInterstitialChallenge", "an Akamai interstitial challenge"),
    ("akamai_validation", "an Akamai validation page"),
    ("request_quota_reached", "a request-quota page"),
    ("Pardon Our Interruption", "a bot-challenge page (\"Pardon Our Interruption\")"),
    ("cf-chl-", "a Cloudflare challenge"),
    ("challenge-platform", "a Cloudflare challenge"),
    ("<title>Just a moment...</title>", "a Cloudflare challenge"),
    ("<title>Access Denied</title>", "an access-denied wall (\"Access Denied\")"),
  ]

  /// Headers whose presence means the server refused the request.
  public static let refusalHeaders: [(name: String, value: String, reason: String)] = [
    ("x-sb-rejected", "1", "the server refused the request (X-SB-Rejected)")
  ]

  public static let blockingStatuses: [Int: String] = [
    401: "login required", 403: "access forbidden", 407: "proxy authentication required",
    429: "rate limited", 451: "unavailable for legal reasons",
  ]

  /// The lower-cased markers laid end to end, with where each starts and ends.
  private static let needles: (bytes: [UInt8], bounds: [(start: Int, end: Int)]) = {
    var bytes: [UInt8] = []
    var bounds: [(Int, Int)] = []
    for (marker, _) in challengeMarkers {
      let start = bytes.count
      bytes += Array(marker.lowercased().utf8)
      bounds.append((start, bytes.count))
    }
    return (bytes, bounds)
  }()

  /// For each byte value, the range of `candidates` holding the markers that start with it.
  private static let firstByte: (ranges: [(start: Int, end: Int)], candidates: [Int]) = {
    var ranges = [(start: Int, end: Int)](repeating: (0, 0), count: 256)
    var candidates: [Int] = []
    for value in 0..<256 {
      let start = candidates.count
      for (index, bound) in needles.bounds.enumerated() where Int(needles.bytes[bound.start]) == value {
        candidates.append(index)
      }
      ranges[value] = (start, candidates.count)
    }
    return (ranges, candidates)
  }()

  @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

  /// A bit per pair of (lower-cased) bytes that starts a marker: most positions of a page are
  /// ruled out by one lookup.
  private static let bigrams: [UInt64] = {
    var bits = [UInt64](repeating: 0, count: 1024)
    for bound in needles.bounds where bound.end - bound.start >= 2 {
      let pair = Int(needles.bytes[bound.start]) << 8 | Int(needles.bytes[bound.start + 1])
      bits[pair >> 6] |= 1 << UInt64(pair & 63)
    }
    return bits
  }()

  /// The first marker found in the first 64 KiB, compared ASCII-case-insensitively in one pass
  /// over the bytes: markers are ASCII, so nothing is decoded or copied. This runs on every
  /// fetched page and before every parse, so the tables are flat arrays, and a bigram bitmask
  /// rules out most positions before any marker is compared.
  static func firstMarker(in body: Data) -> Int? {
    let (pairs, needle, bounds) = (bigrams, needles.bytes, needles.bounds)
    let (ranges, candidates) = (firstByte.ranges, firstByte.candidates)
    return body.withUnsafeBytes { raw -> Int? in
      let bytes = raw.bindMemory(to: UInt8.self)
      let count = min(bytes.count, 64 << 10)
      var index = 0
      while index + 1 < count {
        defer { index += 1 }
        let pair = Int(lower(bytes[index])) << 8 | Int(lower(bytes[index + 1]))
        guard pairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { continue }
        let range = ranges[Int(lower(bytes[index]))]
        for marker in candidates[range.start..<range.end] {
          let bound = bounds[marker]
          let length = bound.end - bound.start
          guard index + length <= count else { continue }
          var offset = 1
          while offset < length && lower(bytes[index + offset]) == needle[bound.start + offset] { offset += 1 }
          if offset == length { return marker }
        }
      }
      return nil
    }
  }

  /// `check`, refined by a site's own check (`ParserEntry.check`): a wall or challenge is
  /// reported as such; otherwise the site's reading wins (a GraphQL 400 that means a stale
  /// hash, a login page served with 200), else the general one.
  public static func check(_ page: Page, site: ((Page) -> StatlineError?)?) -> StatlineError? {
    let general = check(page)
    if let general, general.kind == .blocked { return general }
    return site?(page) ?? general
  }

  /// The error for a page that is no content, or nil for a page that may be parsed.
  public static func check(_ page: Page) -> StatlineError? {
    let hint =
      "a blocked target is reported and backed off, never forced: slow down, or check access by hand"
    for refusal in refusalHeaders where page.header(refusal.name) == refusal.value {
      return StatlineError(.blocked, refusal.reason, hint: hint)
    }
    if let index = firstMarker(in: page.body) {
      let reason = challengeMarkers[index].reason
      return StatlineError(.blocked, "the page is \(reason), not content (HTTP \(page.status))", hint: hint)
    }
    if let reason = blockingStatuses[page.status] {
      return StatlineError(.blocked, "HTTP \(page.status): \(reason)", hint: hint)
    }
    if !(200..<300).contains(page.status) {
      return StatlineError(
        .wrongPage, "HTTP \(page.status) is an error answer, not a page to parse",
        hint: "check the URL; the scheduler retries server errors with backoff")
    }
    return nil
  }
}
