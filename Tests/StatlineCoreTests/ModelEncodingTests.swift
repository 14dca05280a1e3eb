import Foundation
import StatlineCore
import Testing

@Suite struct ModelEncodingTests {
  static let game = Game(
    id: "ncaa:1", sport: .lacrosseMen, status: .live, period: 2, clock: "07:15", date: "2025-02-01",
    away: TeamLine(team: TeamRef(id: "ncaa:10", name: "Air Force"), score: 3, periodScores: [2, 1]),
    home: TeamLine(team: TeamRef(name: "Lafayette"), score: 4, periodScores: [1, 3]))

  @Test func unknownValuesEncodeAsExplicitNulls() throws {
    let json = try Batch(games: [Self.game]).jsonString()
    #expect(json.contains("\"venue\" : null"))
    #expect(json.contains("\"abbreviation\" : null"))
    #expect(json.contains("\"attendance\" : null"))
    #expect(!json.contains("\"venue\" : \"\""))
  }

  @Test func keysAreSortedAndOutputIsStable() throws {
    let batch = Batch(source: "s", parser: "p", url: "https://x/y", games: [Self.game])
    let first = try batch.jsonString()
    #expect(first == (try batch.jsonString()))
    let keys = first.split(separator: "\n").prefix(10).compactMap { line -> String? in
      guard let quote = line.firstIndex(of: "\""), line.hasPrefix("  \"") else { return nil }
      return String(line[quote...].dropFirst().prefix { $0 != "\"" })
    }
    #expect(keys == keys.sorted())
    #expect(first.hasSuffix("}\n"))
    #expect(first.contains("https://x/y"), "slashes are not escaped")
  }

  @Test func batchRoundTrips() throws {
    let batch = Batch(
      source: "s", parser: "p", games: [Self.game], teams: [Team(id: "ncaa:10", name: "Air Force")],
      boxScores: [
        BoxScore(
          gameId: "ncaa:1", away: TeamBox(totals: ["goals": 3]),
          home: TeamBox(players: [PlayerLine(name: "Owen Duffy", number: "7", stats: ["goals": 4])]))
      ],
      plays: [Play(gameId: "ncaa:1", sequence: 1, period: 1, side: .home, type: .goal, text: "GOAL")],
      warnings: ["w"])
    let decoded = try JSONDecoder().decode(Batch.self, from: try batch.jsonData())
    #expect(decoded == batch)
  }

  @Test func missingOptionalKeysDecodeAsNil() throws {
    let json = #"{"name": "Owen Duffy", "stats": {"goals": 2}}"#
    let player = try JSONDecoder().decode(PlayerLine.self, from: Data(json.utf8))
    #expect(player == PlayerLine(name: "Owen Duffy", stats: ["goals": 2]))
    let encoded = String(decoding: try JSONEncoder().encode(player), as: UTF8.self)
    #expect(encoded.contains("\"number\":null"))
  }

  @Test func playTypesAndStatusesUseContractNames() throws {
    #expect(PlayType.groundBall.rawValue == "groundBall")
    #expect(PlayType.allCases.count == 15)
    #expect(PlayType.score.rawValue == "score", "a basket, a free throw, a run: added for the sports beyond lacrosse")
    #expect(
      GameStatus.allCases.map(\.rawValue) == [
        "scheduled", "live", "final", "postponed", "cancelled", "suspended", "unknown",
      ])
    #expect(StatKey.lacrosse.count == 20)
  }
}
