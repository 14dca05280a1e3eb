import Foundation

/// The live page at `GET /` (`live.html` beside this file): the scoreboard for a person, updated
/// from the event stream, each game opening to its box score and plays, and the operator's
/// status panel. Plain HTML and a small script: nothing to build.
enum LivePage {
  static let bytes: [UInt8] = {
    guard let url = Bundle.module.url(forResource: "live", withExtension: "html"),
      let data = try? Data(contentsOf: url)
    else { return Array("<!doctype html><title>Statline</title><p>The live page is missing from this build.".utf8) }
    return Array(data)
  }()

  static func response(head: Bool) -> APIResponse {
    APIResponse(
      status: 200,
      headers: [
        "content-type": "text/html; charset=utf-8", "cache-control": "no-cache",
        "content-length": String(bytes.count),
        "content-security-policy": "default-src 'self'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
      ], body: head ? [] : bytes)
  }
}
