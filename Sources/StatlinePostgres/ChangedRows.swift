import Foundation
import PostgresNIO
import StatlineCore

/// The records of one commit that differ from the store's copies, and the events derived from
/// them, as columns: written in one
/// statement (each table's upsert from `unnest` of its columns, as data-modifying `WITH`
/// clauses, and the store version last), so a commit's records cost one round trip however many
/// tables they touch.
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

  mutating func append(_ row: PostgresStore.PendingRow, version: Int64) throws(StatlineError) {
    let json = try row.encoded()
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

  /// The statement: every table's upsert (a table without rows upserts none), the events, and
  /// the version.
  func upsert(version: Int64, changedAt time: Date) -> PostgresQuery {
    """
    WITH g AS (
      INSERT INTO games (id, version, hash, sport, status, date, away_team, home_team, changed_at, json)
      SELECT i, v, h, s, st, NULLIF(d, ''), NULLIF(a, ''), NULLIF(ho, ''), \(time.timeIntervalSince1970)::float8,
        j::jsonb
      FROM unnest(\(games.ids)::text[], \(games.versions)::bigint[], \(games.hashes)::bigint[], \(games.sports)::text[],
        \(games.statuses)::text[], \(games.dates)::text[], \(games.awayTeams)::text[], \(games.homeTeams)::text[],
        \(games.json)::text[]) AS r(i, v, h, s, st, d, a, ho, j)
      ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, sport = excluded.sport,
        status = excluded.status, date = excluded.date, away_team = excluded.away_team,
        home_team = excluded.home_team, changed_at = excluded.changed_at, json = excluded.json),
    t AS (
      INSERT INTO teams (id, version, hash, json)
      SELECT i, v, h, j::jsonb FROM unnest(\(teams.ids)::text[], \(teams.versions)::bigint[],
        \(teams.hashes)::bigint[], \(teams.json)::text[]) AS r(i, v, h, j)
      ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json),
    b AS (
      INSERT INTO box_scores (game_id, version, hash, json)
      SELECT i, v, h, j::jsonb FROM unnest(\(boxScores.ids)::text[], \(boxScores.versions)::bigint[],
        \(boxScores.hashes)::bigint[], \(boxScores.json)::text[]) AS r(i, v, h, j)
      ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json),
    p AS (
      INSERT INTO plays (game_id, sequence, version, hash, json)
      SELECT g, s, v, h, j::jsonb FROM unnest(\(plays.games)::text[], \(plays.sequences)::int[],
        \(plays.versions)::bigint[], \(plays.hashes)::bigint[], \(plays.json)::text[]) AS r(g, s, v, h, j)
      ON CONFLICT (game_id, sequence) DO UPDATE SET version = excluded.version, hash = excluded.hash,
        json = excluded.json),
    r AS (
      INSERT INTO rankings (id, version, hash, json)
      SELECT i, v, h, j::jsonb FROM unnest(\(rankings.ids)::text[], \(rankings.versions)::bigint[],
        \(rankings.hashes)::bigint[], \(rankings.json)::text[]) AS r(i, v, h, j)
      ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json),
    e AS (
      INSERT INTO events (sequence, version, game_id, type, json)
      SELECT s, v, g, t, j::jsonb FROM unnest(\(events.sequences)::bigint[], \(events.versions)::bigint[],
        \(events.games)::text[], \(events.types)::text[], \(events.json)::text[]) AS r(s, v, g, t, j))
    UPDATE store_version SET version = \(version) WHERE id = 1
    """
  }
}
