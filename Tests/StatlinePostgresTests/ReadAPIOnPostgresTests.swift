import Foundation
import StatlineCore
import StatlinePostgres
import StatlineSQLite
import StatlineServer
import StatlineTesting
import Testing

/// `statline serve` reads PostgreSQL the way it reads SQLite: the same poll committed to both
/// stores gives the same answer, byte for byte, on every read endpoint, through read-only
/// connections on both sides.
@Suite(.enabled(if: TestPostgres.available, TestPostgres.skipped), .timeLimit(.minutes(2)))
struct ReadAPIOnPostgresTests {
  static let polled = Date(timeIntervalSince1970: 1_772_913_000)

  static func poll() -> PollCommit {
    let army = TeamRef(id: "t:army", name: "Army West Point")
    let navy = TeamRef(id: "t:navy", name: "Navy")
    var live = Game(
      id: "sb:1", sport: .lacrosseMen, status: .live, period: 3, clock: "06:55",
      away: TeamLine(team: army, score: 2), home: TeamLine(team: navy, score: 0))
    live.date = "2026-03-07"
    var final = Game(
      id: "sb:2", sport: .lacrosseMen, status: .final, period: 4,
      away: TeamLine(team: navy, score: 3), home: TeamLine(team: army, score: 9))
    final.date = "2026-03-01"
    let box = BoxScore(
      gameId: "sb:1", away: TeamBox(players: [PlayerLine(name: "Ann Lee", stats: [StatKey.goals: 2])]),
      home: TeamBox(players: [PlayerLine(name: "Bo Day", stats: [StatKey.goals: 0])]))
    let plays = (1...4).map {
      Play(
        gameId: "sb:1", sequence: $0, period: 1, side: .away, type: $0 < 3 ? .goal : .shot, text: "Play \($0)",
        player: "Ann Lee", awayScore: $0 < 3 ? $0 : nil, homeScore: $0 < 3 ? 0 : nil)
    }
    var batch = Batch(
      games: [live, final],
      teams: [Team(id: "t:army", name: "Army West Point", sport: .lacrosseMen), Team(id: "t:navy", name: "Navy")],
      boxScores: [box], plays: plays)
    batch.source = "statbroadcast"
    batch.parser = "statbroadcast-game-xml"
    var state = TargetState(
      target: Target(url: "https://stats.example.edu/sb1.xml", source: "statbroadcast", parser: "p", role: .game),
      nextDue: polled.addingTimeInterval(30), gameId: "sb:1")
    state.lastPolled = polled
    state.lastSucceeded = polled
    state.cadence = 30
    state.outcome = .stored
    state.games = [live]
    return PollCommit(batch: batch, states: [state])
  }

  static let paths = [
    "/v1/scoreboard?date=2026-03-07", "/v1/scoreboard?date=2026-03-07&status=live", "/v1/games/sb:1",
    "/v1/games/sb%3A2", "/v1/games/sb:1/boxscore", "/v1/games/sb:1/plays?after=1", "/v1/teams",
    "/v1/teams/t:army", "/v1/teams/t:army/games?season=2026", "/v1/leaders?sport=lacrosse-men&stat=goals&season=2026",
    "/v1/standings?sport=lacrosse-men&season=2026", "/v1/changes?since=0&limit=5", "/v1/changes?since=5",
    "/v1/events?since=0",
    "/v1/games/sb:9", "/v1/status", "/readyz",
  ]

  @Test func everyReadEndpointAnswersTheSameOnBothStores() async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("statline-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    _ = try await SQLiteStore(path: path).commit(Self.poll())
    try await TestPostgres.withStores { make in
      let writer = try await make()
      _ = try await writer.commit(Self.poll())
      let reader = try await PostgresStore.openReadOnly(writer.location)
      let now = { @Sendable in Self.polled.addingTimeInterval(10) }
      let onSQLite = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), now: now)
      let onPostgres = ReadAPI(reader: reader, now: now)
      var statuses: [String: Int] = [:]
      for target in Self.paths {
        let parts = target.split(separator: "?", maxSplits: 1).map(String.init)
        let request = APIRequest(method: "GET", path: parts[0], query: parts.count > 1 ? parts[1] : nil)
        let (expected, answered) = (await onSQLite.respond(request), await onPostgres.respond(request))
        #expect(answered.status == expected.status, "\(target)")
        #expect(
          String(decoding: answered.body, as: UTF8.self) == String(decoding: expected.body, as: UTF8.self), "\(target)")
        #expect(answered.headers["ETag"] == expected.headers["ETag"], "\(target)")
        statuses[target] = answered.status
      }
      #expect(statuses["/v1/games/sb:9"] == 404)
      #expect(
        statuses.filter { $0.value == 200 }.count == Self.paths.count - 1,
        "every other answer is a real one: \(statuses.filter { $0.value != 200 })")
      // Read-only by construction: the server refuses a write through the reader's connections.
      await #expect(throws: StatlineError.self) { try await reader.setCursor(1, of: "x") }
      await reader.close()
    }
  }
}
