import Foundation
import StatlineCore
import StatlineSQLite
import StatlineServer
import Testing

/// `/v1/rankings`, `/v1/rankings/polls`, rankings in delta sync and as `ranking.published`, and
/// the primary poll's ranks on the scoreboard (issue 32).
@Suite(.serialized) struct RankingsAPITests {
  static let poll = "ncaa:com-lacrosse-men-d1-inside-lacrosse"

  /// Two weeks of a lacrosse media poll (Duke first, then Notre Dame), a coaches poll, and a
  /// game of two of its teams on 2026-03-07 whose page printed Army's rank only.
  static func write(to writer: SQLiteStore) async throws {
    func week(_ through: String, _ first: String, _ second: String) -> Ranking {
      Ranking(
        poll: poll, name: "Inside Lacrosse Men's DI Media Poll", sport: .lacrosseMen, season: 2026, edition: through,
        through: through,
        rows: [
          RankingRow(rank: 1, team: TeamRef(name: first), points: 500, firstPlaceVotes: 20, record: "4-0", previous: 2),
          RankingRow(rank: 2, team: TeamRef(name: second), points: 480, record: "4-1", previous: 1),
          RankingRow(rank: 3, team: TeamRef(name: "Nowhere State"), points: 10),
        ], othersReceivingVotes: [RankingVotes(team: TeamRef(name: "Army West Point"), points: 3)])
    }
    let coaches = Ranking(
      poll: "ncaa:com-lacrosse-men-d1-usila", name: "USILA Coaches Poll", sport: .lacrosseMen, season: 2026,
      edition: "2026-03-02", through: "2026-03-02", rows: [RankingRow(rank: 1, team: TeamRef(name: "Duke"))])
    _ = try await writer.write(Batch(source: "ncaa", parser: "p", rankings: [week("2026-02-23", "Notre Dame", "Duke")]))
    _ = try await writer.write(
      Batch(source: "ncaa", parser: "p", rankings: [week("2026-03-02", "Duke", "Notre Dame"), coaches]))
    let game = Game(
      id: "ncaa:77", sport: .lacrosseMen, status: .scheduled, date: "2026-03-07",
      away: TeamLine(team: TeamRef(name: "Duke")), home: TeamLine(team: TeamRef(name: "Army"), rank: 19))
    _ = try await writer.write(Batch(source: "ncaa", parser: "p", games: [game]))
  }

  static func withStore(_ body: (String, SQLiteStore) async throws -> Void) async throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("rankings-\(UUID()).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let writer = try SQLiteStore(path: path)
    try await write(to: writer)
    try await body(path, writer)
  }

  static func api(_ path: String, primary: [Sport: String] = [.lacrosseMen: poll]) throws -> ReadAPI {
    var configuration = ReadAPI.Configuration()
    configuration.primaryPolls = primary
    return ReadAPI(reader: try SQLiteStore(readOnlyPath: path), configuration: configuration, now: { ReadAPITests.now })
  }

  static func json(_ answer: ReadAPITests.Answer) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])
  }

  @Test func theLatestWeekOfEachPollByDefaultAndAnyWeekByNumberOrDate() async throws {
    try await Self.withStore { path, _ in
      try await ReadAPITests.withServer(api: try Self.api(path)) { base in
        let latest = try Self.json(try await ReadAPITests.get(base + "/v1/rankings?sport=lacrosse-men"))
        let weeks = try #require(latest["rankings"] as? [[String: Any]])
        #expect(
          weeks.map { $0["id"] as? String } == [
            "ncaa:com-lacrosse-men-d1-inside-lacrosse@2026/2026-03-02",
            "ncaa:com-lacrosse-men-d1-usila@2026/2026-03-02",
          ])
        let rows = try #require(weeks.first?["rows"] as? [[String: Any]])
        #expect(
          rows.map { ($0["team"] as? [String: Any])?["name"] as? String } == ["Duke", "Notre Dame", "Nowhere State"])
        #expect(
          rows.map { $0["canonicalTeamId"] as? String } == ["team:193", "team:513", nil],
          "Nowhere State resolves to no school and is kept")
        let votes = try #require(weeks.first?["othersReceivingVotes"] as? [[String: Any]])
        #expect(votes.first?["canonicalTeamId"] as? String == "team:725", "Army West Point is Army")
        let earlier = try Self.json(
          try await ReadAPITests.get(base + "/v1/rankings?poll=\(Self.poll)&season=2026&week=2026-02-23"))
        let first = try #require((earlier["rankings"] as? [[String: Any]])?.first?["rows"] as? [[String: Any]])
        #expect((first.first?["team"] as? [String: Any])?["name"] as? String == "Notre Dame")
        let missing = try await ReadAPITests.get(base + "/v1/rankings?poll=\(Self.poll)&week=2025-01-01")
        #expect(missing.status == 404)
        #expect(String(decoding: missing.body, as: UTF8.self).contains("/v1/rankings/polls"))
        let polls = try Self.json(try await ReadAPITests.get(base + "/v1/rankings/polls?sport=lacrosse-men"))
        let listed = try #require(polls["polls"] as? [[String: Any]])
        #expect(listed.map { $0["poll"] as? String } == [Self.poll, "ncaa:com-lacrosse-men-d1-usila"])
        #expect(
          (listed.first?["weeks"] as? [[String: Any]])?.map { $0["edition"] as? String } == [
            "2026-02-23", "2026-03-02",
          ])
        #expect(listed.first?["latest"] as? String == "\(Self.poll)@2026/2026-03-02")
        let none = try Self.json(try await ReadAPITests.get(base + "/v1/rankings?sport=baseball"))
        #expect((none["rankings"] as? [Any])?.isEmpty == true, "a sport without polls is an empty list, not a 404")
      }
    }
  }

  @Test func theScoreboardCarriesThePrimaryPollsRankAndThePagesRankWins() async throws {
    try await Self.withStore { path, _ in
      try await ReadAPITests.withServer(api: try Self.api(path)) { base in
        let board = try Self.json(try await ReadAPITests.get(base + "/v1/scoreboard?date=2026-03-07"))
        let game = try #require((board["games"] as? [[String: Any]])?.first)
        let away = try #require(game["away"] as? [String: Any])
        let home = try #require(game["home"] as? [String: Any])
        #expect(away["rank"] as? Int == 1, "Duke is first in the week through March 2")
        #expect(away["rankSource"] as? String == "\(Self.poll)@2026/2026-03-02")
        #expect(home["rank"] as? Int == 19 && home["rankSource"] is NSNull, "the page printed Army's rank: it wins")
        let one = try Self.json(try await ReadAPITests.get(base + "/v1/games/ncaa:77"))
        #expect(((one["game"] as? [String: Any])?["away"] as? [String: Any])?["rank"] as? Int == 1)
      }
      try await ReadAPITests.withServer(api: try Self.api(path, primary: [:])) { base in
        let board = try Self.json(try await ReadAPITests.get(base + "/v1/scoreboard?date=2026-03-07"))
        let away = try #require((board["games"] as? [[String: Any]])?.first?["away"] as? [String: Any])
        #expect(away["rank"] is NSNull, "without a primary poll, no rank is added")
      }
    }
  }

  @Test func aNewWeekIsOneChangeAndOneEventAndTheSameWeekAgainIsNeither() async throws {
    try await Self.withStore { path, writer in
      let changes = try await writer.changes(since: 0, limit: 100).filter { $0.kind == .ranking }
      #expect(changes.map(\.id).count == 3)
      let events = try await writer.events(since: 0, limit: 100).filter { $0.type == .rankingPublished }
      #expect(events.map(\.gameId) == changes.map(\.id))
      #expect(events.first?.ranking?.rows.first?.canonicalTeamId == "team:513")
      #expect(events.first?.away == nil && events.first?.status == nil)
      let again = try await writer.write(
        Batch(rankings: [try #require(changes.first.flatMap { if case .ranking(let r) = $0.record { r } else { nil } })]
        ))
      #expect(again.written == 0 && again.events.isEmpty, "a week published again unchanged is not a change")
      _ = path
    }
  }

  @Test func aPagedPollsPartsAreServedAsOneWeek() async throws {
    try await Self.withStore { path, writer in
      func part(_ number: Int?, _ rows: [RankingRow]) -> Ranking {
        Ranking(
          poll: "ncaa:com-basketball-men-d1-net", name: "NET", sport: .basketballMen, season: 2026,
          edition: "2026-02-26", through: "2026-02-26", part: number, rows: rows)
      }
      let write = try await writer.write(
        Batch(rankings: [
          part(2, [RankingRow(rank: 3, team: TeamRef(name: "Duke"))]),
          part(
            nil, [RankingRow(rank: 1, team: TeamRef(name: "Army")), RankingRow(rank: 2, team: TeamRef(name: "Navy"))]),
        ]))
      #expect(write.events == [.rankingPublished: 1], "a paged week is announced once, by its first page")
      try await ReadAPITests.withServer(api: try Self.api(path)) { base in
        let answer = try Self.json(try await ReadAPITests.get(base + "/v1/rankings?sport=basketball-men"))
        let week = try #require((answer["rankings"] as? [[String: Any]])?.first)
        #expect(week["id"] as? String == "ncaa:com-basketball-men-d1-net@2026/2026-02-26" && week["part"] is NSNull)
        #expect((week["rows"] as? [[String: Any]])?.map { $0["rank"] as? Int } == [1, 2, 3])
      }
    }
  }
}
