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
  /// The markers, lower-cased, one after another.
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

  /// Each marker is looked for at its rarest byte pair (its anchor), not at its first byte:
  /// "<t" or "ch" start thousands of places in a stats page, "-v" or "cc" few.
  /// Anchor pair (lower-cased) → the markers anchored there, and where in each.
  private static let anchors: [Int: [(marker: Int, offset: Int)]] = {
    let rarity = ByteSearch.rarity
    var byPair: [Int: [(marker: Int, offset: Int)]] = [:]
    for (marker, bound) in needles.bounds.enumerated() where bound.end - bound.start >= 2 {
      let offsets = 0..<(bound.end - bound.start - 1)
      let offset = offsets.max { a, b in
        let (x, y) = (needles.bytes[bound.start + a], needles.bytes[bound.start + b])
        let (x2, y2) = (needles.bytes[bound.start + a + 1], needles.bytes[bound.start + b + 1])
        return rarity(x) + rarity(x2) < rarity(y) + rarity(y2)
      }!
      let pair = Int(needles.bytes[bound.start + offset]) << 8 | Int(needles.bytes[bound.start + offset + 1])
      byPair[pair, default: []].append((marker, offset))
    }
    return byPair
  }()

  @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

  /// The index of the marker that starts first in the first 64 KiB, matched case-insensitively.
  /// The anchor pairs in every letter case, as one bit per byte pair: the scan tests raw bytes
  /// and lower-cases only where a pair is set.
  private static let anyCasePairs: [UInt64] = {
    var bits = [UInt64](repeating: 0, count: 1024)
    func cases(_ byte: UInt8) -> [UInt8] { byte &- 0x61 < 26 ? [byte, byte - 0x20] : [byte] }
    for pair in anchors.keys {
      for first in cases(UInt8(pair >> 8)) {
        for second in cases(UInt8(pair & 0xFF)) {
          let raw = Int(first) << 8 | Int(second)
          bits[raw >> 6] |= 1 << UInt64(raw & 63)
        }
      }
    }
    return bits
  }()

  /// The index of the marker that starts first in the first 64 KiB, matched case-insensitively;
  /// nil for a body that opens as a JSON object or array (after white space and a byte-order
  /// mark): a challenge or a wall is an HTML page, and a JSON answer that quotes a marker's
  /// words (a story about Cloudflare) is content.
  static func firstMarker(in body: Data) -> Int? {
    guard !opensAsJSON(body) else { return nil }
    let byPair = anchors
    let (needle, bounds) = (needles.bytes, needles.bounds)
    let longest = bounds.map { $0.end - $0.start }.max() ?? 0
    return body.withUnsafeBytes { raw -> Int? in
      let bytes = raw.bindMemory(to: UInt8.self)
      let count = min(bytes.count, 64 << 10)
      guard count >= 2 else { return nil }
      return anyCasePairs.withUnsafeBufferPointer { bits -> Int? in
        var best: (start: Int, marker: Int)?
        var previous = Int(bytes[0])
        var index = 1
        while index < count {
          let current = Int(bytes[index])
          let pair = previous << 8 | current
          previous = current
          index += 1
          guard bits[pair >> 6] & (1 << UInt64(pair & 63)) != 0 else { continue }
          // The pair starts at index - 2; a marker starting after one already found cannot come first.
          let at = index - 2
          if let found = best, at > found.start + longest { break }
          for (marker, offset) in byPair[Int(lower(UInt8(pair >> 8))) << 8 | Int(lower(UInt8(pair & 0xFF)))] ?? [] {
            let bound = bounds[marker]
            let length = bound.end - bound.start
            let start = at - offset
            guard start >= 0, start + length <= count, start < best?.start ?? Int.max else { continue }
            var matched = 0
            while matched < length && lower(bytes[start + matched]) == needle[bound.start + matched] { matched += 1 }
            if matched == length { best = (start, marker) }
          }
        }
        return best?.marker
      }
    }
  }

  static func opensAsJSON(_ body: Data) -> Bool {
    body.withUnsafeBytes { raw in
      var index = raw.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      while index < raw.count, [0x20, 0x09, 0x0A, 0x0D].contains(raw[index]) { index += 1 }
      return index < raw.count && (raw[index] == UInt8(ascii: "{") || raw[index] == UInt8(ascii: "["))
    }
  }

  /// Scans the body for challenge markers and keeps what it found with the page, so that the
  /// later checks of the same page (the poller's, the pipeline's) do not scan its body again.
  public static func scan(_ page: inout Page) {
    if page.challengeScan.marker == nil { page.challengeScan.marker = .some(firstMarker(in: page.body)) }
  }

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
    if let index = page.challengeScan.marker ?? firstMarker(in: page.body) {
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
