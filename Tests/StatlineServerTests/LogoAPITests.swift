import AsyncHTTPClient
import Foundation
import NIOHTTP1
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// `GET /v1/teams/{id}/logo` (issue 54): a school's logo from Statline's own host, through a real
/// HTTP client against the real server, over a SQLite store holding what the keeper saved.
@Suite(.serialized) struct LogoAPITests {
  typealias API = ReadAPITests

  static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52])
  static let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 1 1\"/>".utf8)
  static let fetched = Date(timeIntervalSince1970: 1_772_900_000)

  /// North Carolina (a page showed its logo, downloaded), Duke (shown by ESPN, not downloaded
  /// yet), Army (an SVG), Virginia (no page showed one), and a club no registry knows (a logo
  /// URL, never served).
  static func store() async throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("logos-\(UUID()).sqlite").path
    let store = try SQLiteStore(path: path)
    _ = try await store.write(
      Batch(teams: [
        Team(
          id: "ncaa:org-457", name: "North Carolina", sport: .lacrosseMen, ncaaOrgId: "457",
          logoURL: "https://stats.ncaa.org/logos/457.png"),
        Team(
          id: "espn:team-150", name: "Duke Blue Devils", sport: .lacrosseMen, logoURL: "https://cdn.example/150.png"),
        Team(
          id: "ncaa:org-725", name: "Army", sport: .lacrosseMen, ncaaOrgId: "725",
          logoURL: "https://cdn.example/725.svg"),
        Team(id: "ncaa:org-193", name: "Duke", sport: .lacrosseWomen, ncaaOrgId: "193"),
        Team(id: "ncaa:org-746", name: "Virginia", sport: .lacrosseWomen, ncaaOrgId: "746"),
        Team(id: "genericHTML:team-x", name: "A Club Nobody Knows", logoURL: "https://club.example/logo.png"),
      ]))
    for (team, url, type, bytes) in [
      ("team:457", "https://stats.ncaa.org/logos/457.png", "image/png", png),
      ("team:725", "https://cdn.example/725.svg", "image/svg+xml", svg),
    ] {
      try await store.saveLogo(
        LogoState(
          teamId: team, sourceURL: url, sha256: String(repeating: "ab", count: 32), contentType: type,
          etag: "\"upstream\"", fetchedAt: fetched, fetchedFrom: url, checkedAt: fetched, nextAttemptAt: fetched),
        image: bytes)
    }
    return path
  }

  @Test func aStoredLogoIsServedWithItsTypeHashAndCaching() async throws {
    let path = try await Self.store()
    try await API.withServer(path) { base in
      for id in ["team:457", "ncaa:org-457", "ncaa%3Aorg-457"] {
        let logo = try await API.get(base + "/v1/teams/\(id)/logo", headers: ["Accept": "image/*"])
        #expect(logo.status == 200 && logo.body == Self.png, "by \(id)")
        #expect(logo.headers["content-type"] == "image/png" && logo.headers["content-length"] == "16")
        #expect(logo.headers["etag"] == "\"\(String(repeating: "ab", count: 16))\"", "the bytes' hash, not upstream's")
        #expect(
          logo.headers["cache-control"] == "public, max-age=86400, stale-while-revalidate=604800, stale-if-error=604800"
        )
        #expect(logo.headers["x-content-type-options"] == "nosniff")
        #expect(logo.headers["last-modified"] == "Sat, 07 Mar 2026 16:13:20 GMT")
        #expect(logo.headers["content-security-policy"] == nil, "only an SVG needs one")
      }
      let etag = "\"\(String(repeating: "ab", count: 16))\""
      let again = try await API.get(base + "/v1/teams/team:457/logo", headers: ["If-None-Match": etag])
      #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag)
      let head = try await API.get(base + "/v1/teams/team:457/logo", method: .HEAD)
      #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == "16")

      let svg = try await API.get(base + "/v1/teams/team:725/logo")
      #expect(svg.status == 200 && svg.body == Self.svg && svg.headers["content-type"] == "image/svg+xml")
      #expect(svg.headers["content-security-policy"] == "default-src 'none'; style-src 'unsafe-inline'; sandbox")
    }
  }

  @Test func aTeamWithoutAStoredLogoIsA404ThatSaysWhy() async throws {
    let path = try await Self.store()
    try await API.withServer(path) { base in
      let waiting = try await API.get(base + "/v1/teams/espn:team-150/logo")
      #expect(waiting.status == 404 && waiting.headers["content-type"]?.hasPrefix("application/problem+json") == true)
      #expect(waiting.headers["retry-after"] == "3600")
      #expect((waiting.json["detail"] as? String)?.contains("team:193 has no logo stored yet") == true)
      let unknown = try await API.get(base + "/v1/teams/team:999999/logo")
      #expect(unknown.status == 404 && (unknown.json["detail"] as? String)?.contains("no school 'team:999999'") == true)
      let club = try await API.get(base + "/v1/teams/genericHTML:team-x/logo")
      #expect(club.status == 404, "a team that is no school has no logo served")
      let query = try await API.get(base + "/v1/teams/team:457/logo?size=64")
      #expect(query.status == 400)
    }
  }

  @Test func aSchoolNamesItsLogoOnceAPageShowsOne() async throws {
    let path = try await Self.store()
    try await API.withServer(path) { base in
      let unc = try await API.get(base + "/v1/teams/team:457").json["team"] as? [String: Any]
      #expect(unc?["logo"] as? String == "/v1/teams/team:457/logo")
      let duke = try await API.get(base + "/v1/teams/team:193").json["team"] as? [String: Any]
      #expect(duke?["logo"] as? String == "/v1/teams/team:193/logo", "named before it is downloaded")
      let list = try await API.get(base + "/v1/teams?sport=lacrosse-women").json["teams"] as? [[String: Any]]
      let virginia = list?.first { $0["id"] as? String == "team:746" }
      #expect(virginia != nil && virginia?["logo"] == nil, "no page showed Virginia a logo")
      let club = try await API.get(base + "/v1/teams/genericHTML:team-x").json["team"] as? [String: Any]
      #expect(club?["logo"] == nil && club?["logoURL"] as? String == "https://club.example/logo.png")
    }
  }

  @Test func theDocumentDescribesTheRouteAndATeamsLogoFields() async throws {
    typealias JSON = OpenAPITests.JSON
    let path = try await Self.store()
    try await API.withServer(path) { base in
      let document = try JSONDecoder().decode(JSON.self, from: try await API.get(base + "/openapi.json").body)
      let route = document["paths"]?["/v1/teams/{id}/logo"]?["get"]?["responses"]
      #expect(route?["200"]?["content"]?["image/*"] != nil && route?["304"] != nil && route?["404"] != nil)
      let schema = JSON.object(["$ref": .string("#/components/schemas/TeamAnswer")])
      for id in ["team:457", "genericHTML:team-x"] {
        let answer = try await API.get(base + "/v1/teams/\(id)")
        let problems = OpenAPITests.check(
          try JSONDecoder().decode(JSON.self, from: answer.body), schema, document, at: id)
        #expect(answer.status == 200 && problems.isEmpty, "\(problems.prefix(5))")
      }
    }
  }
}
