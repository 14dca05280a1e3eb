import Foundation
import StatlineApp
import StatlineCore
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

/// The API over what the parsers make of real saved pages (`$STATLINE_REAL_FIXTURES`): a
/// StatCrew final, a stats.ncaa.org box score and a GraphQL play-by-play with overtime.
@Suite(.serialized) struct RealPagesAPITests {
  static let pages: [(file: String, url: String, parser: String)] = [
    (
      "statcrew/lcgame-mlax-iona-at-unc-2026-02-15-final.xml", "https://statbroadcast.com/archive/iona-unc.xml",
      "statbroadcast-game-xml"
    ),
    (
      "ncaa-stats/contest-6310104-individual-stats-mlax-final.html",
      "https://stats.ncaa.org/contests/6310104/individual_stats", "ncaa-stats-contest-box"
    ),
    ("ncaa-data/gql-pbp-mla-6599987-final-ot.json", "https://sdataprod.ncaa.com/?contestId=6599987", "ncaa-gql-pbp"),
  ]

  @Test(.enabled(if: RealPages.available, "needs $STATLINE_REAL_FIXTURES"))
  func everyGameEndpointAnswersForRealPages() async throws {
    let registry = try BuiltinPlugins.registry()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("real-api-\(UUID()).sqlite").path
    let writer = try SQLiteStore(path: path)
    var games: [Game] = []
    for page in Self.pages {
      let entry = try #require(registry.parser(id: page.parser), "\(page.parser)")
      let batch = try PagePipeline.run(try RealPages.page(page.file, url: page.url), with: entry)
      _ = try await writer.write(batch)
      games += batch.games
    }
    #expect(games.count == 3)
    try await ReadAPITests.withServer(path) { base in
      for game in games {
        let id = game.id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? game.id
        let answer = try await ReadAPITests.get(base + "/v1/games/\(id)")
        #expect(answer.status == 200, "\(game.id)")
        let decoded = try JSONDecoder().decode(
          Game.self, from: JSONSerialization.data(withJSONObject: answer.json["game"] as Any))
        #expect(decoded.isCanonical && decoded.sources?.contains(game.id) == true, "its canonical game")
        #expect(
          decoded.status == game.status && decoded.away.score == game.away.score
            && decoded.home.score == game.home.score)
        var stored = try await writer.sourceGame(id: game.id)
        stored?.canonicalId = nil
        #expect(stored == game, "the source's own record, as the parser made it")
        let freshness = answer.json["freshness"] as? [String: Any]
        #expect(freshness?["stale"] as? Bool == false, "a final does not go stale")
        let box = try await ReadAPITests.get(base + "/v1/games/\(id)/boxscore")
        let plays = try await ReadAPITests.get(base + "/v1/games/\(id)/plays?limit=1000")
        #expect(box.status == 200 || plays.status == 200, "\(game.id) has a box score or plays")
        if let date = game.date {
          let board = try await ReadAPITests.get(base + "/v1/scoreboard?date=\(date)")
          let ids = (board.json["games"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
          #expect(ids.contains(decoded.id), "\(game.id) on the scoreboard of \(date), as \(decoded.id)")
        }
      }
      let leaders = try await ReadAPITests.get(base + "/v1/leaders?sport=lacrosse-men&stat=goals&limit=5")
      let rows = leaders.json["leaders"] as? [[String: Any]] ?? []
      #expect(rows.count == 5 && (rows.first?["value"] as? Int ?? 0) >= 3, "\(rows.first ?? [:])")
      let standings = try await ReadAPITests.get(base + "/v1/standings?sport=lacrosse-men")
      #expect((standings.json["standings"] as? [Any])?.isEmpty == false)
    }
  }
}

extension RealPagesAPITests {
  /// The Texas Tech–Illinois contest on the real stats.ncaa.org scoreboard and its real
  /// play-by-play page, stored as the job stores them: both pages name the contest `ncaa:6479639`
  /// (one feed, one id), so they are one source game, and one canonical game, final at 81, with
  /// the canonical teams and the play-by-play page's plays.
  @Test(.enabled(if: RealPages.available, "needs $STATLINE_REAL_FIXTURES"))
  func theRealScoreboardAndPlayByPlayAreOneGameInTheStore() async throws {
    let registry = try BuiltinPlugins.registry()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("real-merge-\(UUID()).sqlite").path
    let writer = try SQLiteStore(path: path)
    for (file, url, parser) in [
      (
        "ncaa-stats/scoreboard-mbb-d1-2025-11-11.html",
        "https://stats.ncaa.org/season_divisions/18703/scoreboards?game_date=11/11/2025", "ncaa-stats-scoreboard"
      ),
      (
        "ncaa-stats/pbp-6479639-mbb-texastech-at-illinois.html",
        "https://stats.ncaa.org/contests/6479639/play_by_play", "ncaa-stats-contest-pbp"
      ),
    ] {
      let entry = try #require(registry.parser(id: parser))
      _ = try await writer.write(try PagePipeline.run(try RealPages.page(file, url: url), with: entry))
    }
    let game = try #require(try await writer.game(id: "ncaa:6479639"))
    #expect(game.id == "game:2025-11-11:basketball-men:301~700" && game.status == .final)
    #expect(game.away.team.name == "Texas Tech" && game.home.team.name == "Illinois" && game.home.score == 81)
    #expect(game.sources == ["ncaa:6479639"], "\(game.sources ?? [])")
    let day = try await writer.games(sport: .basketballMen, date: "2025-11-11")
    #expect(day.filter { $0.id == game.id }.count == 1, "once on the scoreboard")
    try await ReadAPITests.withServer(path) { base in
      let plays = try await ReadAPITests.get(base + "/v1/games/\(game.id)/plays?limit=5")
      #expect(plays.status == 200 && (plays.json["plays"] as? [Any])?.count == 5)
      #expect((plays.json["source"] as? String).map { game.sources?.contains($0) == true } == true)
    }
  }
}
