import Foundation
import StatlineCore
import StatlineSQLite
import Testing

/// A page that corrected a team, through a real client: the scoreboard shows the game once,
/// delta sync carries the retired game (so the app can delete it), and the retired game's own
/// answer says where its source went, fitting the OpenAPI document.
struct RetiredGameAPITests {
  @Test func aRetiredGameIsInNoListAndDeltaSyncAndItsOwnAnswerSayWhereItWent() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("retired-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try SQLiteStore(path: path)
    func game(home: String) -> Game {
      Game(
        id: "statbroadcast:5", sport: .lacrosseMen, status: .live, period: 1, clock: "12:00", date: "2026-03-07",
        away: TeamLine(team: TeamRef(name: "Army"), score: 1), home: TeamLine(team: TeamRef(name: home), score: 0))
    }
    _ = try await store.write(Batch(games: [game(home: "Navy")]))
    let first = try #require(try await store.game(id: "statbroadcast:5")?.id)
    _ = try await store.write(Batch(games: [game(home: "Duke")]))
    let moved = try #require(try await store.game(id: "statbroadcast:5")?.id)
    #expect(first != moved)

    try await ReadAPITests.withServer(path) { base in
      let board = try await ReadAPITests.get(base + "/v1/scoreboard?sport=lacrosse-men&date=2026-03-07").json
      let listed = (board["games"] as? [[String: Any]])?.compactMap { $0["id"] as? String }
      #expect(listed == [moved], "the game once, not its ghost beside it")

      let own = try await ReadAPITests.get(base + "/v1/games/\(first)")
      #expect(own.status == 200)
      let retired = try #require(own.json["game"] as? [String: Any])
      #expect(retired["retiredInto"] as? String == moved && retired["sources"] as? [String] == [])
      let document = try JSONDecoder().decode(
        OpenAPITests.JSON.self, from: try await ReadAPITests.get(base + "/openapi.json").body)
      let schema = OpenAPITests.JSON.object(["$ref": .string("#/components/schemas/Game")])
      let answer = try JSONDecoder().decode(OpenAPITests.JSON.self, from: own.body)
      let problems = OpenAPITests.check(try #require(answer["game"]), schema, document, at: "retired game")
      #expect(problems.isEmpty, "\(problems)")

      let changes = try await ReadAPITests.get(base + "/v1/changes?since=0").json
      let records = (changes["changes"] as? [[String: Any]])?.compactMap { $0["record"] as? [String: Any] } ?? []
      #expect(records.contains { $0["id"] as? String == first && $0["retiredInto"] as? String == moved })
      #expect(records.contains { $0["id"] as? String == moved && $0["retiredInto"] == nil })
    }
  }
}
