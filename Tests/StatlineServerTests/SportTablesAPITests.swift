import Foundation
import StatlineCore
import StatlineSQLite
import Testing

/// Leaders and standings of a sport other than lacrosse, through a real client: the sport's
/// scoring column by default, its own keys only, and a season that spans New Year (August to
/// July), as a basketball season does.
struct SportTablesAPITests {
  static func store() async throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("sports-\(UUID()).sqlite").path
    let store = try SQLiteStore(path: path)
    func game(_ id: String, _ date: String, _ away: Int, _ home: Int) -> Batch {
      let game = Game(
        id: "ncaa:\(id)", sport: .basketballMen, status: .final, period: 2, date: date,
        away: TeamLine(team: TeamRef(id: "ncaa:t-duke", name: "Duke"), score: away),
        home: TeamLine(team: TeamRef(id: "ncaa:t-unc", name: "North Carolina"), score: home))
      let box = BoxScore(
        gameId: game.id,
        away: TeamBox(players: [PlayerLine(name: "Cooper Flagg", stats: ["points": away, "rebounds": 9])]),
        home: TeamBox(players: [PlayerLine(name: "RJ Davis", stats: ["points": home, "rebounds": 4])]))
      return Batch(games: [game], boxScores: [box])
    }
    // December and February of the 2025-26 season, and a game of the season before.
    _ = try await store.write(game("1", "2025-12-06", 80, 70))
    _ = try await store.write(game("2", "2026-02-07", 75, 78))
    _ = try await store.write(game("3", "2025-03-08", 60, 90))
    return path
  }

  @Test func basketballLeadersAreInPointsOverASeasonThatSpansNewYear() async throws {
    let path = try await Self.store()
    defer { try? FileManager.default.removeItem(atPath: path) }
    try await ReadAPITests.withServer(path) { base in
      let leaders = try await ReadAPITests.get(base + "/v1/leaders?sport=basketball-men&season=2026")
      #expect(leaders.status == 200 && leaders.json["stat"] as? String == "points", "the sport's scoring column")
      let rows = try #require(leaders.json["leaders"] as? [[String: Any]])
      #expect(
        rows.first?["player"] as? String == "Cooper Flagg" && rows.first?["value"] as? Int == 155, "Dec. and Feb.")
      #expect(rows.first { $0["player"] as? String == "RJ Davis" }?["value"] as? Int == 148)
      let rebounds = try await ReadAPITests.get(base + "/v1/leaders?sport=basketball-men&season=2026&stat=rebounds")
      #expect((rebounds.json["leaders"] as? [[String: Any]])?.first?["value"] as? Int == 18)
      let wrong = try await ReadAPITests.get(base + "/v1/leaders?sport=basketball-men&stat=goals")
      #expect(wrong.status == 400 && (wrong.json["detail"] as? String)?.contains("threePointersMade") == true)
      let table = try await ReadAPITests.get(base + "/v1/standings?sport=basketball-men&season=2026")
      let standings = try #require(table.json["standings"] as? [[String: Any]])
      #expect(
        standings.map { $0["wins"] as? Int } == [1, 1], "one win each in 2025-26; March 2025 is the season before")
    }
  }
}
