import Foundation
import StatlineApp
import StatlineCore
import StatlineLoopback
import StatlineTesting
import Testing

@testable import StatlineApp
@testable import StatlineBench

/// `bench latency`'s site: each game's two sources score at the known times, are read by their
/// parsers as one canonical game, and the site notes when it first served each goal.
struct LatencySiteTests {
  static func get(_ uri: String, _ headers: [String: String] = [:]) -> LoopbackServer.Request {
    LoopbackServer.Request(method: "GET", uri: uri, headers: headers)
  }

  static func body(_ behavior: LoopbackServer.Behavior) -> (status: Int, body: String, etag: String?) {
    switch behavior {
    case .respond(let status, let headers, let body): (status, body, headers["ETag"])
    default: (behavior.status, "", nil)
    }
  }

  @Test func bothSourcesOfAGameScoreAtTheKnownTimesAndMakeOneCanonicalGame() async throws {
    let site = LatencySite(games: 3, firstGoal: 10, goalEvery: 20, goalsPerGame: 3)
    #expect(site.goalTime(0, 1) == 10 && site.goalTime(1, 1) > 16 && site.goalTime(1, 2) == site.goalTime(1, 1) + 20)
    let registry = try BuiltinPlugins.registry()
    let store = MemoryStore()
    let after = site.goalTime(1, 2) + 0.5
    for (path, parser) in [
      (LatencySite.statCrewPath(1), "statbroadcast-game-xml"), (LatencySite.gameCentrePath(1), "ncaa-gql-game"),
    ] {
      #expect(Self.body(site.route(Self.get(path), seconds: 5)).status == 200)
      let answer = Self.body(site.route(Self.get(path), seconds: after))
      #expect(answer.status == 200)
      let page = Page(url: "http://127.0.0.1:9" + path, body: Data(answer.body.utf8))
      let batch = try PagePipeline.run(page, with: try registry.select(for: page, parser: parser))
      let game = try #require(batch.games.first)
      #expect(game.status == .live && (game.away.score ?? 0) + (game.home.score ?? 0) == 2, "\(parser)")
      #expect(site.gameIndex(ofSourceId: game.id) == 1, "\(game.id)")
      _ = try await store.write(batch)
      let unchanged = site.route(Self.get(path, ["if-none-match": answer.etag ?? ""]), seconds: after + 1)
      #expect(unchanged.status == 304)
    }
    #expect(site.firstServed(1, 2) == after && site.firstServed(1, 3) == nil)
    let canonical = try await store.games(sport: nil, date: nil)
    #expect(canonical.count == 1 && canonical.first?.sources?.count == 2)
    #expect(Self.body(site.route(Self.get("/game/700009.xml"), seconds: 1)).status == 404)
  }
}
