import Foundation
import StatlineCore

/// `GET /v1/boxscores`: many games' box scores in one answer, for an app that preloads a day
/// (architecture.md#read-api). The games are a day's (`date=`, `sport=`: the live, final and
/// suspended ones; scheduled, postponed and cancelled games have none) or a list (`ids=`, at most
/// `maximumIds`, canonical or source ids). Its body holds no store-wide version: it is the same,
/// and so is its ETag, until one of its games (or how fresh one is) changes, so a client that
/// preloaded answers a 304 while the rest of the store moves.
struct BoxScoresAnswer: Encodable {
  @NullEncoded var date: String?
  @NullEncoded var sport: Sport?
  /// By game id: the canonical id for a day, the id as asked for a list.
  var boxScores: [String: BoxScoreEntry]
  /// Games of the request that have no box score to give, by the same ids, and why.
  var missing: [String: String]
}

/// One game's box score in a batch.
struct BoxScoreEntry: Encodable {
  /// The box score of the game's first source (by precedence) that has one, on its sides.
  var boxScore: BoxScore
  /// The source game it comes from.
  var source: String
  var status: GameStatus
  /// The store version this entry last changed at (its game's record or the box score shown):
  /// a client holding an older one has an older copy.
  var version: Int64
  var freshness: Freshness
}

extension ReadAPI {
  /// The most ids `ids=` takes.
  static let maximumIds = 100

  func boxScores(_ text: String?, stamp: StoreStamp) async throws -> ResponseCache.Entry {
    let query = try APIQuery(text, allowed: ["date", "sport", "ids"], maximumLength: APIQuery.maximumListLength)
    var requested: [(key: String, game: Game)] = []
    var missing: [String: String] = [:]
    var date: String?
    var sport: Sport?
    var dayEnds: Date?
    if let list = query["ids"] {
      guard query["date"] == nil, query["sport"] == nil else {
        throw Problem(
          title: "Bad parameter", status: 400,
          detail: "ids= lists the games itself: it takes no date= or sport= (ask for a day with date= and sport= alone)"
        )
      }
      for id in try Self.ids(list) {
        if let game = try await reader.game(id: id) {
          requested.append((id, game))
        } else {
          missing[id] = "no such game in the store (ids look like statbroadcast:640301)"
        }
      }
    } else {
      sport = try Self.sport(query)
      date = try Self.date(query)
      if date == nil { dayEnds = nextMidnight() }
      let day = try await reader.games(sport: sport, date: date ?? today())
      date = date ?? today()
      requested = day.filter { ![.scheduled, .postponed, .cancelled].contains($0.status) }.map { ($0.id, $0) }
    }
    let games = requested.map(\.game)
    let stored = try await reader.boxScores(gameIds: Array(Set(games.flatMap { $0.sources ?? [$0.id] })))
    let versions = try await reader.gameVersions(ids: Array(Set(games.map(\.id))))
    let freshness = try await freshness(of: games, stamp: stamp)
    var entries: [String: BoxScoreEntry] = [:]
    for (key, game) in requested {
      guard let (box, source, version) = Self.boxScore(of: game, from: stored) else {
        missing[key] = game.status == .scheduled ? "scheduled: no box score yet" : "no box score yet"
        continue
      }
      entries[key] = BoxScoreEntry(
        boxScore: box, source: source, status: game.status, version: max(version, versions[game.id] ?? 0),
        freshness: freshness.byGame[game.id]
          ?? Freshness(changedAt: nil, polledAt: nil, target: nil, cadence: nil, stale: true, reason: .unwatched))
    }
    return entry(
      BoxScoresAnswer(date: date, sport: sport, boxScores: entries, missing: missing), live: games,
      expires: Self.earliest(freshness.expires, dayEnds))
  }

  /// `ids=`: comma-separated ids, each once, at most `maximumIds`.
  static func ids(_ list: String) throws(Problem) -> [String] {
    let ids = list.split(separator: ",", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard !ids.contains(where: \.isEmpty) else {
      throw Problem.badParameter("ids", list, expected: "game ids separated by commas, none empty")
    }
    guard ids.count <= maximumIds else {
      throw Problem(
        title: "Too many ids", status: 400,
        detail:
          "ids= lists \(ids.count) games; at most \(maximumIds) are answered at once (ask for the rest in another request, or for the day with date=)"
      )
    }
    var seen = Set<String>()
    return ids.filter { seen.insert($0).inserted }
  }
}
