import Foundation
import StatlineApp
import StatlineCore
import StatlineEngine
import StatlineLoopback
import StatlineTesting
import Synchronization
import Testing

/// A live game whose page jumps its score, polled as a user runs the job: a score beyond what the
/// sport allows is a refused record, named, the stored score untouched and no goal derived; a
/// jump within it but larger than one poll can tell without plays is one `game.scoreJumped`.
/// (0 to 2,000,000 was two million `game.goal` events: 199 s, 3.5 GB, a 1.47 GB store.)
@Suite(.serialized) struct ScoreJumpTests {
  /// ESPN's lacrosse day with its live game (Navy at Duke, 6-7 in the 3rd) at Duke's `home` score,
  /// the 3rd quarter carrying what the score adds.
  static func page(home: Int) throws -> Data {
    let url = PackageRoot.file("Fixtures/ESPN/espn-scoreboard/mens-lacrosse-day/page.json")
    var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    var events = try #require(json["events"] as? [[String: Any]])
    let index = try #require(events.firstIndex { $0["id"] as? String == "401700003" })
    var competition = try #require((events[index]["competitions"] as? [[String: Any]])?.first)
    var competitors = try #require(competition["competitors"] as? [[String: Any]])
    let duke = try #require(competitors.firstIndex { $0["homeAway"] as? String == "home" })
    competitors[duke]["score"] = String(home)
    var lines = try #require(competitors[duke]["linescores"] as? [[String: Any]])
    lines[2]["value"] = Double(home - 5)
    lines[2]["displayValue"] = String(home - 5)
    competitors[duke]["linescores"] = lines
    competition["competitors"] = competitors
    events[index]["competitions"] = [competition]
    json["events"] = events
    return try JSONSerialization.data(withJSONObject: json)
  }

  @Test func anImpossibleScoreIsRefusedAndABigJumpIsOneEvent() async throws {
    let served = Mutex(try Self.page(home: 7))
    let server = try await LoopbackServer.start { request in
      request.uri == "/robots.txt"
        ? .respond(status: 404)
        : .bytes(status: 200, headers: ["Content-Type": "application/json"], body: served.withLock { $0 })
    }
    defer { Task { try? await server.stop() } }
    let folder = try JobCommandTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("s.sqlite").path
    var config = JobConfig()
    config.targets = [
      .init(
        url: "\(server.baseURL)/apis/site/v2/sports/lacrosse/mens-college-lacrosse/scoreboard?dates=20260314",
        parser: "espn-scoreboard", role: .game)
    ]
    let clock = SteppingClock()
    let runtime = try await JobRuntime(config: config, storePath: store, clock: clock, report: { _ in })
    // One poll each time, a minute apart on the job's clock (the live game is due every 30 s).
    func poll() async throws -> PollReport {
      clock.advance(by: .seconds(60))
      let reports = try await runtime.scheduler.runOnce(configured: runtime.targets)
      return try #require(reports.first)
    }
    func stored() async throws -> (score: Int?, events: [ChangeEvent]) {
      let game = try await runtime.store.game(id: "espn:401700003")
      return (game?.home.score, try await runtime.store.events(since: 0, limit: 10_000))
    }

    _ = try await poll()
    let first = try await stored()
    #expect(first.score == 7)

    served.withLock { $0 = try! Self.page(home: 2_000_007) }
    let refused = try await poll()
    #expect(
      refused.partial == [
        "refused: game espn:401700003: home score 2000007 is beyond the 99 a lacrosse-men side can score"
      ],
      "\(refused.partial)")
    let afterRefusal = try await stored()
    #expect(afterRefusal.score == 7, "the refused score is not stored")
    #expect(afterRefusal.events.count == first.events.count, "no event from a refused score")

    served.withLock { $0 = try! Self.page(home: 30) }
    #expect(try await poll().events == [.scoreJumped: 1])
    let jumped = try await stored()
    #expect(jumped.score == 30)
    let new = Array(jumped.events.dropFirst(first.events.count))
    #expect(new.map(\.type) == [.scoreJumped], "\(new.map(\.type))")
    #expect(new.first?.previous?.homeScore == 7 && new.first?.homeScore == 30 && new.first?.details["goals"] == "23")
    await runtime.shutdown()
  }
}
