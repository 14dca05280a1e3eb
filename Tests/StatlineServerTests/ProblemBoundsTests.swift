import Foundation
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// An error quotes what it is about, but never a request whole: a 70 KB path gets a problem of a
/// few hundred bytes, through a real HTTP client as through the API itself.
@Suite struct ProblemBoundsTests {
  @Test func aHugePathIsQuotedInPart() async throws {
    let (path, _) = try await ReadAPITests.store()
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), now: { ReadAPITests.now })
    let id = "ncaa:" + String(repeating: "9", count: 70_000)
    for route in ["/v1/games/\(id)", "/v1/games/\(id)/plays", "/v1/teams/\(id)", "/v1/\(id)"] {
      let answer = await api.respond(APIRequest(method: "GET", path: route, query: nil))
      #expect(answer.status == 404, "\(route.prefix(40))")
      #expect(answer.body.count < 2_000, "\(route.prefix(40)): \(answer.body.count) bytes")
      let problem = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
      #expect((problem?["instance"] as? String)?.hasSuffix("bytes in all)") == true)
    }
    let small = await api.respond(APIRequest(method: "GET", path: "/v1/games/ncaa:404", query: nil))
    let problem = try JSONSerialization.jsonObject(with: Data(small.body)) as? [String: Any]
    #expect(problem?["instance"] as? String == "/v1/games/ncaa:404", "a short path is quoted whole")
  }

  @Test func aHugePathOverHTTPIsAnsweredInPart() async throws {
    let (path, _) = try await ReadAPITests.store()
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), now: { ReadAPITests.now })
    try await ReadAPITests.withServer(api: api) { base in
      let answer = try await ReadAPITests.get(base + "/v1/games/ncaa:" + String(repeating: "7", count: 20_000))
      #expect(answer.status == 404, "\(answer.status)")
      #expect(answer.body.count < 2_000, "\(answer.body.count) bytes")
    }
  }
}
