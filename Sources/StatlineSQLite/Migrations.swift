import StatlineCore

/// The store's schema, as ordered migrations. `PRAGMA user_version` records how far a file
/// has come; each migration runs in its own transaction. Never edit a shipped migration: add one.
enum Migrations {
  static let all: [(version: Int64, sql: String)] = [
    (
      1,
      """
      CREATE TABLE store_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
      INSERT INTO store_version (id, version) VALUES (1, 0);
      CREATE TABLE games (
        id TEXT PRIMARY KEY, version INTEGER NOT NULL, hash INTEGER NOT NULL,
        sport TEXT NOT NULL, status TEXT NOT NULL, date TEXT, json TEXT NOT NULL);
      CREATE INDEX games_by_version ON games (version);
      CREATE INDEX games_by_status ON games (status, date);
      CREATE TABLE teams (id TEXT PRIMARY KEY, version INTEGER NOT NULL, hash INTEGER NOT NULL, json TEXT NOT NULL);
      CREATE INDEX teams_by_version ON teams (version);
      CREATE TABLE box_scores (
        game_id TEXT PRIMARY KEY, version INTEGER NOT NULL, hash INTEGER NOT NULL, json TEXT NOT NULL);
      CREATE INDEX box_scores_by_version ON box_scores (version);
      CREATE TABLE plays (
        game_id TEXT NOT NULL, sequence INTEGER NOT NULL, version INTEGER NOT NULL, hash INTEGER NOT NULL,
        json TEXT NOT NULL, PRIMARY KEY (game_id, sequence));
      CREATE INDEX plays_by_version ON plays (version);
      """
    ),
    (
      2,
      """
      CREATE TABLE captures (
        id INTEGER PRIMARY KEY AUTOINCREMENT, captured_at REAL NOT NULL, url TEXT, status INTEGER NOT NULL,
        headers TEXT NOT NULL, fetched_at REAL, file TEXT, source TEXT, parser TEXT, error TEXT NOT NULL,
        body BLOB NOT NULL);
      CREATE INDEX captures_by_time ON captures (captured_at);
      """
    ),
    (
      3,
      """
      CREATE TABLE targets (
        id TEXT PRIMARY KEY, url TEXT NOT NULL, source TEXT NOT NULL, parser TEXT NOT NULL, role TEXT NOT NULL,
        next_due REAL, outcome TEXT NOT NULL, state TEXT NOT NULL);
      CREATE INDEX targets_by_due ON targets (next_due);
      CREATE TABLE validators (
        target_id TEXT PRIMARY KEY REFERENCES targets (id), etag TEXT, last_modified TEXT, body_hash INTEGER);
      CREATE TABLE hosts (
        host TEXT PRIMARY KEY, breaker TEXT NOT NULL, failures INTEGER NOT NULL, open_until REAL,
        updated REAL NOT NULL);
      """
    ),
    (
      4,
      """
      CREATE TABLE events (
        sequence INTEGER PRIMARY KEY, version INTEGER NOT NULL, game_id TEXT NOT NULL, type TEXT NOT NULL,
        json TEXT NOT NULL);
      CREATE INDEX events_by_game ON events (game_id, sequence);
      CREATE TABLE sink_cursors (sink TEXT PRIMARY KEY, sequence INTEGER NOT NULL);
      CREATE TABLE dead_letters (
        sink TEXT NOT NULL, sequence INTEGER NOT NULL, attempts INTEGER NOT NULL, error TEXT NOT NULL,
        failed_at REAL NOT NULL, json TEXT NOT NULL, PRIMARY KEY (sink, sequence));
      """
    ),
    (
      5,
      """
      ALTER TABLE games ADD COLUMN away_team TEXT;
      ALTER TABLE games ADD COLUMN home_team TEXT;
      UPDATE games SET away_team = json_extract(json, '$.away.team.id'), home_team = json_extract(json, '$.home.team.id');
      CREATE INDEX games_by_away_team ON games (away_team, date);
      CREATE INDEX games_by_home_team ON games (home_team, date);
      """
    ),
    (
      6,
      """
      ALTER TABLE games ADD COLUMN changed_at REAL;
      ALTER TABLE store_version ADD COLUMN schedule INTEGER NOT NULL DEFAULT 0;
      """
    ),
    (
      // Canonical games (architecture.md#canonical-games) live in `games` beside their source games, under ids
      // that start `game:`; the store assigns them to the games it held when it next opens
      // (`assignCanonicalIds`, once: `canonical_ids` says it is done), and delta-sync cursors
      // from before `resync_below` must resync.
      7,
      """
      ALTER TABLE store_version ADD COLUMN resync_below INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE store_version ADD COLUMN canonical_ids INTEGER NOT NULL DEFAULT 0;
      """
    ),
    (
      // Rankings (architecture.md#the-contract): one row per poll and week.
      8,
      """
      CREATE TABLE rankings (
        id TEXT PRIMARY KEY, version INTEGER NOT NULL, hash INTEGER NOT NULL, sport TEXT NOT NULL, poll TEXT NOT NULL,
        season INTEGER NOT NULL, edition TEXT NOT NULL, json TEXT NOT NULL);
      CREATE INDEX rankings_by_version ON rankings (version);
      CREATE INDEX rankings_by_poll ON rankings (sport, poll, season, edition);
      """
    ),
    (
      // The schedule stamp of each target's last change: the read API's freshness board takes
      // only the targets changed since it was built.
      9,
      """
      ALTER TABLE targets ADD COLUMN stamp INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX targets_by_stamp ON targets (stamp);
      """
    ),
    (
      // Devices (architecture.md#devices): one row each, and the teams each follows, keyed by
      // team first so that a team's followers are read in id order without a scan.
      10,
      """
      CREATE TABLE IF NOT EXISTS devices (
        id TEXT PRIMARY KEY, kind TEXT NOT NULL, registered_at TEXT NOT NULL, json TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS device_teams (
        team TEXT NOT NULL, device_id TEXT NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
        PRIMARY KEY (team, device_id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS device_teams_by_device ON device_teams (device_id);
      """
    ),
    (
      // The push outbox (architecture.md#the-push-outbox): one slot per device and game, found
      // due by (pending, ready_at); and the evaluator's event cursor, moved in the same
      // transaction as the slots it fills.
      11,
      """
      CREATE TABLE IF NOT EXISTS push_outbox (
        device_id TEXT NOT NULL, collapse_id TEXT NOT NULL, pending INTEGER NOT NULL, ready_at REAL NOT NULL,
        expires_at REAL NOT NULL, leased_until REAL NOT NULL, not_before REAL NOT NULL, json TEXT NOT NULL,
        PRIMARY KEY (device_id, collapse_id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS push_outbox_due ON push_outbox (pending, ready_at);
      CREATE INDEX IF NOT EXISTS push_outbox_by_expiry ON push_outbox (pending, expires_at);
      CREATE TABLE IF NOT EXISTS push_cursor (
        id INTEGER PRIMARY KEY CHECK (id = 1), sequence INTEGER NOT NULL, device TEXT);
      INSERT OR IGNORE INTO push_cursor (id, sequence) VALUES (1, 0);
      CREATE INDEX IF NOT EXISTS devices_by_suspension ON devices (json_extract(json, '$.suspended.kind'))
        WHERE json_extract(json, '$.suspended.kind') IS NOT NULL;
      """
    ),
    (
      // Live Activities (architecture.md#live-activities): the planner's cursor on the store's
      // changes, and the activities found by the game they follow.
      12,
      """
      CREATE TABLE IF NOT EXISTS push_activity_cursor (
        id INTEGER PRIMARY KEY CHECK (id = 1), sequence INTEGER NOT NULL, device TEXT);
      INSERT OR IGNORE INTO push_activity_cursor (id, sequence) VALUES (1, 0);
      CREATE INDEX IF NOT EXISTS devices_by_game ON devices (json_extract(json, '$.gameId'), id)
        WHERE kind = 'apns-liveactivity';
      """
    ),
    (
      // Team logos (architecture.md#team-logos): each canonical team's keeper state (JSON) and
      // the image downloaded last.
      13,
      """
      CREATE TABLE IF NOT EXISTS team_logos (team_id TEXT PRIMARY KEY, state TEXT NOT NULL, image BLOB);
      """
    ),
  ]

  static var latest: Int64 { all.last?.version ?? 0 }

  /// Brings the file up to the latest schema; refuses a file from a newer Statline.
  static func migrate(_ connection: SQLiteConnection) throws(StatlineError) {
    let current = try connection.integer("PRAGMA user_version")
    guard current <= latest else {
      throw StatlineError(
        .store, "the store has schema version \(current), newer than this Statline's \(latest)",
        location: connection.path, hint: "run a newer statline, or point --store at another file")
    }
    for migration in all where migration.version > current {
      try connection.transaction { () throws(StatlineError) in
        try connection.execute(migration.sql)
        try connection.execute("PRAGMA user_version = \(migration.version)")
      }
    }
  }
}
