import Foundation
import StatlineApp
import StatlineCore
import StatlineLoopback
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

/// A page with one unreadable goal, polled as a user runs the job: the game, its other plays and
/// the goal (unread) are stored, and every view an operator has says the poll was partial.
@Suite(.serialized) struct PartialPollTests {
  @Test func aPartialPollIsStoredCapturedAndShownEverywhere() async throws {
    let page = try Data(contentsOf: PackageRoot.file("Fixtures/NCAA/ncaa-stats-contest-pbp/unreadable-goal/page.html"))
    let server = try await LoopbackServer.start { request in
      request.uri == "/robots.txt"
        ? .respond(status: 404)
        : .bytes(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: page)
    }
    defer { Task { try? await server.stop() } }
    let folder = try JobCommandTests.folder()
    let store = folder.appendingPathComponent("s.sqlite").path
    let config = folder.appendingPathComponent("statline.yml")
    try """
    store: \(store)
    targets:
      - url: \(server.baseURL)/contests/6500103/play_by_play
        parser: ncaa-stats-contest-pbp
        role: game
    """.write(to: config, atomically: true, encoding: .utf8)

    let once = try CommandRunner.run(["once", "--config", config.path])
    #expect(once.status == 0, "a partial poll stored what it could: \(once.stdout)\(once.stderr)")
    #expect(once.stdout.contains("partial (1 refused or unread)"), "\(once.stdout)")

    let status = try CommandRunner.run(["status", "--store", store])
    #expect(status.stdout.contains("1 stored partially"), "\(status.stdout)")
    let captures = try CommandRunner.run(["captures", "list", "--store", store])
    #expect(captures.stdout.contains("partial page"), "\(captures.stdout)")

    let reader = try SQLiteStore(readOnlyPath: store)
    let plays = try await reader.plays(gameId: "ncaa:6500103", after: 0, limit: 100)
    #expect(plays.contains { $0.isUnread && $0.type == .goal && $0.player == nil })
    let answer = await ReadAPI(reader: reader).respond(APIRequest(method: "GET", path: "/v1/status"))
    let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any] ?? [:]
    #expect((json["targets"] as? [String: Int])?["partial"] == 1, "\(json)")
    let trouble = json["trouble"] as? [[String: Any]] ?? []
    #expect(
      trouble.first?["errorKind"] as? String == "partial page" && trouble.first?["outcome"] as? String == "stored")
  }
}
