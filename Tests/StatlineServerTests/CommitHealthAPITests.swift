import Foundation
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// With the job in the process (`run --serve`), commits the store refuses (a full disk) make
/// `/readyz` unready and are trouble in `/v1/status`, though the store itself cannot record
/// them; one accepted commit clears them.
@Suite struct CommitHealthAPITests {
  @Test func refusedCommitsMakeTheServerUnreadyAndShowAsTrouble() async throws {
    let (path, _) = try await ReadAPITests.store()
    let reader = try SQLiteStore(readOnlyPath: path)
    let target = try #require(try await reader.targets().first)
    let health = CommitHealth()
    var configuration = ReadAPI.Configuration()
    configuration.commitHealth = health
    let api = ReadAPI(reader: reader, configuration: configuration, now: { ReadAPITests.now })
    #expect(await api.respond(APIRequest(method: "GET", path: "/readyz")).status == 200)

    let at = ReadAPITests.now.addingTimeInterval(-20)
    health.refused(
      target.id, error: "store error: database or disk is full [/var/lib/statline.sqlite]", at: at,
      lastSucceeded: target.lastSucceeded)
    let ready = await api.respond(APIRequest(method: "GET", path: "/readyz"))
    #expect(ready.status == 503 && ready.headers["retry-after"] == "30")
    let problem = String(decoding: ready.body, as: UTF8.self)
    #expect(problem.contains("the store refused the last commit of 1 target(s)") && problem.contains("(store error)"))
    #expect(!problem.contains("disk is full"), "a kind, never the text (it can quote a path or a page)")

    let status = await api.respond(APIRequest(method: "GET", path: "/v1/status"))
    let json = try #require(try JSONSerialization.jsonObject(with: Data(status.body)) as? [String: Any])
    #expect((json["targets"] as? [String: Int])?["failing"] == 1, "\(json)")
    let trouble = try #require((json["trouble"] as? [[String: Any]])?.first)
    #expect(trouble["target"] as? String == target.id && trouble["outcome"] as? String == "failed")
    #expect(trouble["errorKind"] as? String == "store error" && trouble["consecutiveFailures"] as? Int == 1)

    health.accepted(target.id)
    #expect(await api.respond(APIRequest(method: "GET", path: "/readyz")).status == 200)
  }
}
