import Foundation
import StatlineCanonical
import StatlineCore

/// `GET /v1/teams/{id}/logo` (architecture.md#team-logos): a school's logo as the keeper
/// downloaded it, from Statline's own host, by its canonical id or any of its source ids. The
/// bytes' hash is the ETag and the answer may be kept for a day; an SVG goes out with a
/// sandboxing `Content-Security-Policy` and `nosniff`, so even a browser opening it alone runs
/// nothing.
extension ReadAPI {
  /// How long a logo may be kept, and served stale while it is checked again.
  static let logoCacheControl = "public, max-age=86400, stale-while-revalidate=604800, stale-if-error=604800"

  /// The logo route's team id, when `segments` are `v1/teams/{id}/logo`.
  static func logoTeam(_ segments: [String]) -> String? {
    segments.count == 4 && segments[0] == "v1" && segments[1] == "teams" && segments[3] == "logo" ? segments[2] : nil
  }

  func teamLogo(id: String, request: APIRequest) async throws -> APIResponse {
    _ = try APIQuery(request.query, allowed: [])
    let school: String
    if let known = registry.team(id: id) {
      school = known.id
    } else if let stored = try await reader.team(id: id), let resolved = registry.resolve(SourceTeam(stored))?.team {
      school = resolved.id
    } else {
      throw Problem.notFound(
        "no school '\(id.prefix(120))' in the registry or the store (ids look like team:457 or ncaa:team-594020)")
    }
    guard let logo = try await reader.teamLogo(teamId: school) else {
      var problem = Problem.notFound(
        "\(school) has no logo stored yet: the job downloads the logos its pages show when logos are enabled (logos.enabled in the configuration), and retries failed ones later"
      )
      problem.retryAfter = 3600
      throw problem
    }
    let etag = "\"\(logo.sha256.prefix(32))\""
    var headers = [
      "etag": etag, "cache-control": Self.logoCacheControl, "content-type": logo.contentType,
      "x-content-type-options": "nosniff",
      "last-modified": HTTPDateText.format(Int(logo.fetchedAt.timeIntervalSince1970.rounded(.down))),
    ]
    if logo.contentType == "image/svg+xml" {
      headers["content-security-policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
    }
    if let match = request.headers["if-none-match"], Self.matches(match, etag: etag) {
      headers["content-type"] = nil
      return APIResponse(status: 304, headers: headers)
    }
    headers["content-length"] = String(logo.bytes.count)
    return APIResponse(status: 200, headers: headers, body: request.method == "HEAD" ? [] : Array(logo.bytes))
  }
}
