import CompressNIO
import Foundation
import NIOCore
import StatlineCore
import StatlineSQLite
import Testing

/// `GET /v1/boxscores` (issue 54): a day's box scores, or a list's, in one answer, through a real
/// HTTP client against the real server, over the store `ReadAPITests` writes.
@Suite(.serialized) struct BoxScoresAPITests {
  typealias API = ReadAPITests

  static func entries(_ answer: API.Answer) -> [String: [String: Any]] {
    answer.json["boxScores"] as? [String: [String: Any]] ?? [:]
  }

  static func missing(_ answer: API.Answer) -> [String: String] { answer.json["missing"] as? [String: String] ?? [:] }

  @Test func aDaysBoxScoresComeInOneAnswerKeyedByGame() async throws {
    let (path, _) = try await API.store()
    try await API.withServer(path) { base in
      let day = try await API.get(base + "/v1/boxscores?date=2026-03-07&sport=lacrosse-men")
      #expect(day.status == 200 && day.headers["content-type"] == "application/json; charset=utf-8")
      #expect(day.json["date"] as? String == "2026-03-07" && day.json["sport"] as? String == "lacrosse-men")
      let entries = Self.entries(day)
      #expect(Array(entries.keys) == [API.one], "the live game with a box score, by its canonical id")
      let entry = try #require(entries[API.one])
      #expect(entry["source"] as? String == "ncaa:1" && entry["status"] as? String == "live")
      #expect((entry["version"] as? Int ?? 0) > 0 && entry["freshness"] is [String: Any])
      #expect(
        Self.missing(day) == [API.final: "no box score yet"], "a final without a box score is named, not left out")
      #expect(day.headers["cache-control"]?.hasPrefix("public, max-age=5,") == true, "it holds a live game")

      // The same box score as the game's own endpoint gives.
      let single = try await API.get(base + "/v1/games/ncaa:1/boxscore").json["boxScore"]
      #expect(
        try JSONSerialization.data(withJSONObject: entry["boxScore"] as Any, options: .sortedKeys)
          == JSONSerialization.data(withJSONObject: single as Any, options: .sortedKeys))

      let today = try await API.get(base + "/v1/boxscores")
      #expect(today.json["date"] as? String == "2026-03-07", "today in New York, every sport")
      #expect(Array(Self.entries(today).keys) == [API.one])
      #expect(Set(Self.missing(today).keys) == [API.final, API.women])
      let scheduled = try await API.get(base + "/v1/boxscores?date=2026-03-08")
      #expect(
        Self.entries(scheduled).isEmpty && Self.missing(scheduled).isEmpty,
        "scheduled games are skipped: they have none"
      )
    }
  }

  @Test func aListOfIdsIsAnsweredByTheIdsAsAsked() async throws {
    let (path, _) = try await API.store()
    try await API.withServer(path) { base in
      let list = try await API.get(
        base + "/v1/boxscores?ids=ncaa:1,statbroadcast%3A640301,ncaa:nope,ncaa:9,\(API.one),ncaa:1")
      #expect(list.status == 200)
      let entries = Self.entries(list)
      #expect(Set(entries.keys) == ["ncaa:1", API.one], "a source id and its canonical id alike; a repeat once")
      let box = entries["ncaa:1"]?["boxScore"] as? [String: Any]
      #expect(box?["gameId"] as? String == API.one, "named by the canonical game")
      #expect(
        Self.missing(list) == [
          "statbroadcast:640301": "no box score yet",
          "ncaa:nope": "no such game in the store (ids look like statbroadcast:640301)",
          "ncaa:9": "scheduled: no box score yet",
        ])
      #expect(list.json["date"] is NSNull && list.json["sport"] is NSNull)
    }
  }

  @Test func badListsAreProblemsNamingTheLimit() async throws {
    let (path, _) = try await API.store()
    try await API.withServer(path) { base in
      let many = (0...100).map { "ncaa:\($0)" }.joined(separator: ",")
      let tooMany = try await API.get(base + "/v1/boxscores?ids=" + many)
      #expect(tooMany.status == 400 && tooMany.headers["content-type"]?.hasPrefix("application/problem+json") == true)
      #expect((tooMany.json["detail"] as? String)?.contains("ids= lists 101 games; at most 100") == true)
      let hundred = (0..<100).map { "game:2026-03-07:lacrosse-men:ncaa-t-ncaa-\($0)-a~ncaa-t-ncaa-\($0)-h" }
      #expect(
        try await API.get(base + "/v1/boxscores?ids=" + hundred.joined(separator: ",")).status == 200,
        "100 canonical ids fit in the query")
      let empty = try await API.get(base + "/v1/boxscores?ids=ncaa:1,,ncaa:2")
      #expect(empty.status == 400 && (empty.json["detail"] as? String)?.contains("'ids'") == true)
      let both = try await API.get(base + "/v1/boxscores?ids=ncaa:1&date=2026-03-07")
      #expect(both.status == 400 && (both.json["detail"] as? String)?.contains("no date= or sport=") == true)
      #expect(try await API.get(base + "/v1/boxscores?date=7-3-2026").status == 400)
      #expect(try await API.get(base + "/v1/boxscores?sport=Lacrosse").status == 400)
      #expect(try await API.get(base + "/v1/boxscores?game=ncaa:1").status == 400, "an unknown parameter")
    }
  }

  @Test func aPreloadIsNotModifiedUntilOneOfItsGamesChanges() async throws {
    let (path, writer) = try await API.store()
    try await API.withServer(path) { base in
      let url = base + "/v1/boxscores?date=2026-03-07&sport=lacrosse-men"
      let first = try await API.get(url)
      let etag = try #require(first.headers["etag"])
      let board = try await API.get(base + "/v1/scoreboard?date=2026-03-07")
      // The store moves elsewhere: a game on another day.
      _ = try await writer.write(
        Batch(games: [
          Game(
            id: "ncaa:20", sport: .lacrosseMen, status: .scheduled, date: "2026-03-10",
            away: TeamLine(team: TeamRef(id: "ncaa:t-x", name: "X")),
            home: TeamLine(team: TeamRef(id: "ncaa:t-y", name: "Y")))
        ]))
      #expect(
        try await API.get(
          base + "/v1/scoreboard?date=2026-03-07", headers: ["If-None-Match": board.headers["etag"] ?? ""]
        )
        .status == 200, "the store did move: answers that carry its version changed")
      #expect(try await API.get(url, headers: ["If-None-Match": etag]).status == 304, "none of the day's games changed")

      // A box score of the day changes.
      let box = BoxScore(
        gameId: "ncaa:1",
        away: TeamBox(players: [PlayerLine(name: "Ann Lee", stats: [StatKey.goals: 2, StatKey.assists: 1])]),
        home: TeamBox(players: [PlayerLine(name: "Bo Day", stats: [StatKey.goals: 1])]))
      _ = try await writer.write(Batch(boxScores: [box]))
      let changed = try await API.get(url, headers: ["If-None-Match": etag])
      #expect(changed.status == 200 && changed.headers["etag"] != etag)
      let before = Self.entries(first)[API.one]?["version"] as? Int ?? 0
      #expect((Self.entries(changed)[API.one]?["version"] as? Int ?? 0) > before, "the entry's version moved")
      let players =
        ((Self.entries(changed)[API.one]?["boxScore"] as? [String: Any])?["away"] as? [String: Any])?[
          "players"] as? [[String: Any]]
      #expect((players?.first?["stats"] as? [String: Any])?["assists"] as? Int == 1)

      // Compressed when asked, with its own ETag, and revalidated the same way.
      let zipped = try await API.get(url, headers: ["Accept-Encoding": "gzip"])
      #expect(zipped.headers["content-encoding"] == "gzip" && zipped.body.count < changed.body.count)
      var buffer = ByteBuffer(bytes: zipped.body)
      var unzipped = try buffer.decompress(with: .gzip())
      #expect(unzipped.readBytes(length: unzipped.readableBytes) == Array(changed.body))
      #expect(
        try await API.get(url, headers: ["Accept-Encoding": "gzip", "If-None-Match": zipped.headers["etag"] ?? ""])
          .status == 304)
    }
  }
}
