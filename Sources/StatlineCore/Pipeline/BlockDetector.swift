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

  /// The first 64 KiB with ASCII letters lower-cased: markers are ASCII, so no decoding is needed.
  /// This runs on every fetched page; String decoding and `contains` cost 5× the HTTP client.
  private static func lowercasedHead(_ body: Data) -> [UInt8] {
    body.prefix(64 << 10).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
  }

  private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard let first = needle.first, needle.count <= haystack.count else { return needle.isEmpty }
    return haystack.withUnsafeBufferPointer { hay in
      needle.withUnsafeBufferPointer { pin in
        var index = 0
        let last = hay.count - pin.count
        while index <= last {
          if hay[index] == first {
            var offset = 1
            while offset < pin.count && hay[index + offset] == pin[offset] { offset += 1 }
            if offset == pin.count { return true }
          }
          index += 1
        }
        return false
      }
    }
  }

  /// The error for a page that is no content, or nil for a page that may be parsed.
  public static func check(_ page: Page) -> StatlineError? {
    let hint =
      "a blocked target is reported and backed off, never forced: slow down, or check access by hand"
    for refusal in refusalHeaders where page.header(refusal.name) == refusal.value {
      return StatlineError(.blocked, refusal.reason, hint: hint)
    }
    let head = lowercasedHead(page.body)
    for (index, needle) in loweredMarkers.enumerated() where contains(head, needle) {
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
