import Foundation
import PostgresNIO
import StatlineCore

/// The records of one commit that differ from the store's copies, and the events derived from
/// them, as columns: the arrays `statline_commit` (the store's one writer) takes, so a commit's
/// records cost one round trip however many tables they touch.
struct ChangedRows {
  var games = GameColumns()
  var teams = RecordColumns()
  var boxScores = RecordColumns()
  var plays = PlayColumns()
  var rankings = RecordColumns()
  var events = EventColumns()

  struct GameColumns {
    var ids: [String] = []
    var versions: [Int64] = []
    var hashes: [Int64] = []
    var sports: [String] = []
    var statuses: [String] = []
    /// "" for none (a date is `YYYY-MM-DD` and a team id is namespaced: never empty).
    var dates: [String] = []
    var awayTeams: [String] = []
    var homeTeams: [String] = []
    var json: [String] = []
  }

  struct RecordColumns {
    var ids: [String] = []
    var versions: [Int64] = []
    var hashes: [Int64] = []
    var json: [String] = []

    mutating func append(_ id: String, _ version: Int64, _ hash: Int64, _ json: String) {
      ids.append(id)
      versions.append(version)
      hashes.append(hash)
      self.json.append(json)
    }
  }

  struct PlayColumns {
    var games: [String] = []
    var sequences: [Int32] = []
    var versions: [Int64] = []
    var hashes: [Int64] = []
    var json: [String] = []
  }

  struct EventColumns {
    var sequences: [Int64] = []
    var versions: [Int64] = []
    var games: [String] = []
    var types: [String] = []
    var json: [String] = []
  }

  mutating func append(_ derived: [ChangeEvent], encode: (ChangeEvent) throws(StatlineError) -> String)
    throws(StatlineError)
  {
    for event in derived {
      events.sequences.append(event.sequence)
      events.versions.append(event.version)
      events.games.append(event.gameId)
      events.types.append(event.type.rawValue)
      events.json.append(try encode(event))
    }
  }

  mutating func append(_ row: RecordRow, version: Int64) {
    let json = row.json
    switch row.record {
    case .game(let game):
      games.ids.append(row.id)
      games.versions.append(version)
      games.hashes.append(row.hash)
      games.sports.append(game.sport.rawValue)
      games.statuses.append(game.status.rawValue)
      games.dates.append(game.date ?? "")
      games.awayTeams.append(game.away.team.id ?? "")
      games.homeTeams.append(game.home.team.id ?? "")
      games.json.append(json)
    case .team: teams.append(row.id, version, row.hash, json)
    case .boxScore: boxScores.append(row.id, version, row.hash, json)
    case .ranking: rankings.append(row.id, version, row.hash, json)
    case .play:
      plays.games.append(row.gameId)
      plays.sequences.append(Int32(clamping: row.sequence))
      plays.versions.append(version)
      plays.hashes.append(row.hash)
      plays.json.append(json)
    }
  }
}
