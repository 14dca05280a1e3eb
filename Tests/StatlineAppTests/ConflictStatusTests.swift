import Foundation
import StatlineApp
import StatlineCore
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

/// Two sources' finals of one game that disagree are shown to the operator: in `statline status`
/// and in `GET /v1/status` (the kept final, and the other).
@Suite struct ConflictStatusTests {
  static func final(_ id: String, _ away: Int, _ home: Int) -> Game {
    Game(
      id: id, sport: .lacrosseMen, status: .final, period: 4, date: "2026-03-14",
      away: TeamLine(team: TeamRef(name: id.hasPrefix("espn") ? "Army Black Knights" : "Army"), score: away),
      home: TeamLine(team: TeamRef(name: "Navy"), score: home))
  }

  @Test func aFinalConflictIsListedByStatusAndTheAPI() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("conflict-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let store = try SQLiteStore(path: path, planner: TestFeeds.planner)
    _ = try await store.write(Batch(games: [Self.final("statbroadcast:1", 9, 8)]))
    _ = try await store.write(Batch(games: [Self.final("espn:401", 8, 8)]))
    let game = "game:2026-03-14:lacrosse-men:725~726"

    let output = try CommandRunner.run(["status", "--store", path])
    #expect(output.status == 0, "\(output.stderr)")
    #expect(
      output.stdout.contains("1 games whose sources disagree on the final (the first is shown):"), "\(output.stdout)")
    #expect(output.stdout.contains("\(game)  9-8 (statbroadcast:1)  8-8 (espn:401)"), "\(output.stdout)")

    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path))
    let answer = await api.respond(APIRequest(method: "GET", path: "/v1/status"))
    let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
    let conflicts = json?["conflicts"] as? [[String: Any]]
    #expect(conflicts?.count == 1 && conflicts?.first?["game"] as? String == game)
    #expect(
      conflicts?.first?["kept"] as? String == "statbroadcast:1" && conflicts?.first?["otherScore"] as? String == "8-8")
  }
}
