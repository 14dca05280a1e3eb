import Foundation
import StatlineCore
import StatlineSQLite
import Testing

@testable import StatlineServer

/// `GET /v1/bundle` (issue 54): a first-launch bundle, and delta sync continuing from its
/// cursor, through a real HTTP client against the real server.
@Suite(.serialized) struct BundleAPITests {
  typealias API = ReadAPITests

  /// The records of a bundle's list, by id (JSON objects, compared as the API wrote them).
  static func byId(_ list: Any?) -> [String: NSDictionary] {
    var result: [String: NSDictionary] = [:]
    for case let record as NSDictionary in list as? [Any] ?? [] {
      if let id = record["id"] as? String { result[id] = record }
    }
    return result
  }

  /// What an app holds after installing `bundle` and applying the changes since its cursor: a
  /// changed record replaces its copy; a game or team of another sport or season, or a retired
  /// game, is not the bundle's.
  static func install(_ bundle: [String: Any], changes: [[String: Any]], sport: String, season: ClosedRange<String>)
    -> (games: [String: NSDictionary], teams: [String: NSDictionary])
  {
    var games = byId(bundle["games"])
    var teams = byId(bundle["teams"])
    for change in changes {
      guard let id = change["id"] as? String, let record = change["record"] as? NSDictionary else { continue }
      switch change["kind"] as? String {
      case "game":
        let date = record["date"] as? String ?? ""
        let inScope = record["sport"] as? String == sport && season.contains(date) && record["retiredInto"] == nil
        games[id] = inScope ? record : nil
      case "team" where record["sport"] as? String == sport: teams[id] = record
      default: break
      }
    }
    return (games, teams)
  }

  @Test func aBundleAndTheChangesSinceItsCursorHoldWhatTheStoreHolds() async throws {
    let (path, writer) = try await API.store()
    try await RankingsAPITests.write(to: writer)
    try await API.withServer(path) { base in
      let url = base + "/v1/bundle?sport=lacrosse-men&season=2026"
      let first = try await API.get(url)
      #expect(first.status == 200 && first.headers["cache-control"]?.contains("max-age=60") == true)
      let bundle = first.json
      #expect(bundle["format"] as? String == "statline-bundle" && bundle["formatVersion"] as? Int == 1)
      #expect(bundle["sport"] as? String == "lacrosse-men" && bundle["season"] as? String == "2026")
      let cursor = try #require(bundle["cursor"] as? Int)
      #expect(cursor == Int(try await writer.version()), "the store's version as the bundle was made")
      #expect(Set(Self.byId(bundle["games"]).keys).isSuperset(of: [API.one, API.final, API.nine]))
      #expect(Self.byId(bundle["games"])[API.women] == nil, "another sport's game is not in it")
      #expect(Self.byId(bundle["teams"])["ncaa:t-statbroadcast:640301-a"] != nil)
      let polls = (bundle["rankings"] as? [[String: Any]] ?? []).compactMap { $0["edition"] as? String }
      #expect(polls.sorted() == ["2026-03-02", "2026-03-02"], "each poll's latest week only")

      // After the app was built: a correction of a final, a new game, a team, another sport's game.
      var corrected = try #require(try await writer.sourceGame(id: "statbroadcast:640301"))
      corrected.home.score = 5
      corrected.canonicalId = nil
      let added = Game(
        id: "ncaa:30", sport: .lacrosseMen, status: .scheduled, date: "2026-03-14",
        away: TeamLine(team: TeamRef(id: "ncaa:t-new-a", name: "New Away")),
        home: TeamLine(team: TeamRef(id: "ncaa:t-new-h", name: "New Home")))
      var other = added
      other.id = "ncaa:31"
      other.sport = .lacrosseWomen
      _ = try await writer.write(
        Batch(
          games: [corrected, added, other], teams: [Team(id: "ncaa:t-new-a", name: "New Away", sport: .lacrosseMen)]))

      let changes = try await API.get(base + "/v1/changes?since=\(cursor)&limit=1000")
      #expect(changes.json["more"] as? Bool == false)
      let held = Self.install(
        bundle, changes: changes.json["changes"] as? [[String: Any]] ?? [], sport: "lacrosse-men",
        season: "2025-08-01"..."2026-07-31")
      let now = try await API.get(url).json
      #expect(held.games == Self.byId(now["games"]), "the same games, each as the store holds it now")
      #expect(held.teams == Self.byId(now["teams"]))
      let final = held.games[API.final]?["home"] as? [String: Any]
      #expect(final?["score"] as? Int == 5, "the correction came with the changes")
      #expect(held.games.keys.contains { ($0 as String).contains("new-a") }, "so did the new game")
      #expect((now["cursor"] as? Int ?? 0) > cursor)
    }
  }

  @Test func aBadBundleRequestIsAProblemNamingTheParameter() async throws {
    let (path, _) = try await API.store()
    try await API.withServer(path) { base in
      let season = try await API.get(base + "/v1/bundle?season=26")
      #expect(season.status == 400 && (season.json["detail"] as? String)?.contains("'season'") == true)
      #expect(try await API.get(base + "/v1/bundle?sport=Lacrosse").status == 400)
      #expect(try await API.get(base + "/v1/bundle?since=0").status == 400, "an unknown parameter")
      let today = try await API.get(base + "/v1/bundle")
      #expect(today.json["season"] as? String == "2026" && today.json["sport"] is NSNull, "today's season, every sport")
      #expect(Self.byId(today.json["games"])[API.women] != nil)
    }
  }

  @Test func theBundleIsBuiltOncePerStoreVersion() async throws {
    let (path, writer) = try await API.store()
    let api = ReadAPI(reader: try SQLiteStore(readOnlyPath: path), now: { API.now })
    let request = APIRequest(method: "GET", path: "/v1/bundle", query: "sport=lacrosse-men&season=2026")
    let first = await api.respond(request)
    #expect(first.status == 200)
    // A poll that stores nothing moves the schedule, not the version: the same bundle.
    var state = TargetState(
      target: Target(url: "https://stats.ncaa.org/contests/9/box_score", source: "ncaa", parser: "p", role: .game),
      nextDue: API.now)
    state.lastSucceeded = API.now
    _ = try await writer.commit(PollCommit(batch: nil, states: [state]))
    let again = await api.respond(request)
    #expect(again.body == first.body && again.headers["etag"] == first.headers["etag"])
    #expect(await api.bundles.body("lacrosse-men|2026", version: Int64(try await writer.version())) == first.body)
  }
}
