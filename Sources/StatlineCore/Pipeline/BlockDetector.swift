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

  private static let loweredMarkers: [[UInt8]] = challengeMarkers.map { Array($0.marker.lowercased().utf8) }

  /// For each byte value, the markers whose first (lower-cased) byte it is.
  private static let markersByFirstByte: [[Int]] = {
    var table = [[Int]](repeating: [], count: 256)
    for (index, marker) in loweredMarkers.enumerated() { table[Int(marker[0])].append(index) }
    return table
  }()

  @inline(__always) private static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

  /// The first marker found in the first 64 KiB, compared ASCII-case-insensitively in one pass
  /// over the bytes: markers are ASCII, so nothing is decoded or copied. This runs on every
  /// fetched page, and a copy plus one scan per marker cost as much as the HTTP client.
  static func firstMarker(in body: Data) -> Int? {
    body.withUnsafeBytes { raw -> Int? in
      let bytes = raw.bindMemory(to: UInt8.self)
      let count = min(bytes.count, 64 << 10)
      var index = 0
      while index < count {
        let candidates = markersByFirstByte[Int(lower(bytes[index]))]
        if !candidates.isEmpty {
          for marker in candidates {
            let needle = loweredMarkers[marker]
            guard index + needle.count <= count else { continue }
            var offset = 1
            while offset < needle.count && lower(bytes[index + offset]) == needle[offset] { offset += 1 }
            if offset == needle.count { return marker }
          }
        }
        index += 1
      }
      return nil
    }
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
