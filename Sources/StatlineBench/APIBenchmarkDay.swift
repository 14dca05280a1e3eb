import Foundation
import StatlineApp
import StatlineCore
import StatlineSQLite
import StatlineServer

/// The read API benchmark's data (architecture.md#quality-bars): a 60-game day (live and final games, each with
/// a box score of 2 × 24 players and 80 plays) in a store, and the API's own answer bytes for
/// the scoreboard and one box score written as static files, so that nginx serves exactly what
/// the API does.
struct APIBenchmarkDay {
  static let date = "2026-03-07"
  static let games = 60

  /// Writes `store.sqlite` and `static/` under `folder`; returns the paths the API and the
  /// static peer answer, with the API's ETags.
  static func prepare(in folder: URL) async throws -> [(api: String, file: String, etag: String)] {
    let storePath = folder.appendingPathComponent("store.sqlite").path
    let store = try await write(games: games, to: storePath)
    let api = ReadAPI(
      reader: store, registry: try BuiltinPlugins.teamRegistry(), now: { Date(timeIntervalSince1970: 1_772_913_600) })
    let staticFolder = folder.appendingPathComponent("static")
    try FileManager.default.createDirectory(at: staticFolder, withIntermediateDirectories: true)
    var answers: [(api: String, file: String, etag: String)] = []
    for (path, query, file) in [
      ("/v1/scoreboard", "date=\(date)", "scoreboard.json"), ("/v1/games/ncaa:6300001/boxscore", nil, "boxscore.json"),
    ] {
      let answer = await api.respond(APIRequest(method: "GET", path: path, query: query))
      guard answer.status == 200 else {
        throw StatlineError(.io, "the benchmark's \(path) answered \(answer.status)")
      }
      try Data(answer.body).write(to: staticFolder.appendingPathComponent(file))
      answers.append((path + (query.map { "?" + $0 } ?? ""), file, answer.headers["etag"] ?? ""))
    }
    return answers
  }

  /// A store at `storePath` (made afresh) holding a day of `games` games.
  static func write(games: Int, to storePath: String) async throws -> SQLiteStore {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: storePath + suffix) }
    let store = try SQLiteStore(path: storePath)
    var batch = Batch(source: "bench", parser: "bench")
    for index in 0..<games {
      let live = index % 3 != 0
      let id = "ncaa:\(6_300_000 + index)"
      let away = TeamRef(id: "ncaa:team-\(1000 + 2 * index)", name: "Visitors \(index)", abbreviation: "V\(index)")
      let home = TeamRef(id: "ncaa:team-\(1001 + 2 * index)", name: "Hosts \(index)", abbreviation: "H\(index)")
      batch.games.append(
        Game(
          id: id, sport: index % 2 == 0 ? .lacrosseMen : .lacrosseWomen, status: live ? .live : .final,
          period: live ? 3 : 4, clock: live ? "07:\(10 + index % 50)" : nil, date: date,
          startTime: "2026-03-07T\(12 + index % 8):00:00-05:00", venue: "Stadium \(index)",
          away: TeamLine(team: away, score: 5 + index % 7, periodScores: [2, 1, 2 + index % 7] + (live ? [] : [0])),
          home: TeamLine(team: home, score: 6 + index % 5, periodScores: [1, 3, 2 + index % 5] + (live ? [] : [0]))))
      /// Goals add up to the score, as the validator demands: one each for the first players.
      func players(_ side: String, goals: Int) -> TeamBox {
        TeamBox(
          players: (1...24).map { number in
            PlayerLine(
              name: "\(side) Player \(number)", number: String(number), position: ["A", "M", "D", "G"][number % 4],
              stats: [
                StatKey.goals: number <= goals ? 1 : 0, StatKey.assists: number % 3, StatKey.shots: number % 6 + 1,
              ])
          })
      }
      let game = batch.games[batch.games.count - 1]
      batch.boxScores.append(
        BoxScore(
          gameId: id, away: players("Away", goals: game.away.score ?? 0),
          home: players("Home", goals: game.home.score ?? 0)))
      batch.plays += (1...80).map {
        Play(gameId: id, sequence: $0, period: 1 + $0 / 25, clock: "10:00", type: .shot, text: "Shot by Player \($0)")
      }
    }
    _ = try await store.write(batch)
    return store
  }
}
