import Foundation
import StatlineCore
import StatlineSQLite
import Testing

/// A neutral-site game whose feeds disagree on who is home: the box score and the plays the API
/// shows come from the StatCrew feed, which has the sides the other way, and are turned to the
/// canonical game's sides (through a real client).
struct ReversedSourceAPITests {
  static let canonicalId = "game:2026-03-07:lacrosse-men:725~726"

  @Test func theBoxScoreAndPlaysOfAFeedWithTheSidesSwappedAreShownOnTheGamesSides() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("reversed-\(UUID()).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let store = try SQLiteStore(path: path)
    // ncaa.com: Army West Point at Navy. StatCrew: Navy the visitor, Army home; Navy leads 1-0.
    var board = Game(
      id: "ncaa:com-7", sport: .lacrosseMen, status: .live, period: 1, date: "2026-03-07", neutralSite: true,
      away: TeamLine(team: TeamRef(name: "Army West Point"), score: 0),
      home: TeamLine(team: TeamRef(name: "Navy"), score: 1))
    board.clock = "09:30"
    let feed = Game(
      id: "statbroadcast:7", sport: .lacrosseMen, status: .live, period: 1, clock: "09:00", date: "2026-03-07",
      neutralSite: true, away: TeamLine(team: TeamRef(name: "NAVY"), score: 1),
      home: TeamLine(team: TeamRef(name: "Army"), score: 0))
    let goal = Play(
      gameId: "statbroadcast:7", sequence: 1, period: 1, clock: "09:00", side: .away, type: .goal, text: "GOAL by Cy",
      player: "Cy", awayScore: 1, homeScore: 0)
    let box = BoxScore(
      gameId: "statbroadcast:7", away: TeamBox(players: [PlayerLine(name: "Cy", stats: [StatKey.goals: 1])]),
      home: TeamBox(players: [PlayerLine(name: "Dee", stats: [StatKey.saves: 4])]))
    _ = try await store.write(Batch(games: [board]))
    _ = try await store.write(Batch(games: [feed], boxScores: [box], plays: [goal]))

    try await ReadAPITests.withServer(path) { base in
      let answer = try await ReadAPITests.get(base + "/v1/games/\(Self.canonicalId)").json
      let game = try #require(answer["game"] as? [String: Any], "\(answer.keys)")
      let home = (game["home"] as? [String: Any])?["team"] as? [String: Any]
      #expect(home?["name"] as? String == "Navy", "the canonical sides: ncaa.com's, the schedule's")
      #expect(game["reversedSources"] as? [String] == ["statbroadcast:7"])

      let boxed = try await ReadAPITests.get(base + "/v1/games/\(Self.canonicalId)/boxscore")
      #expect(boxed.status == 200 && boxed.json["source"] as? String == "statbroadcast:7")
      let shown = try #require(boxed.json["boxScore"] as? [String: Any])
      func names(_ side: String) -> [String] {
        ((shown[side] as? [String: Any])?["players"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
      }
      #expect(names("home") == ["Cy"] && names("away") == ["Dee"], "Navy's scorer on Navy's side")
      #expect(shown["gameId"] as? String == Self.canonicalId)

      let plays = try await ReadAPITests.get(base + "/v1/games/\(Self.canonicalId)/plays").json
      let play = try #require((plays["plays"] as? [[String: Any]])?.first)
      #expect(play["side"] as? String == "home" && play["player"] as? String == "Cy")
      #expect(play["homeScore"] as? Int == 1 && play["awayScore"] as? Int == 0)
      #expect(play["gameId"] as? String == Self.canonicalId)
    }
  }
}
