/// Migration 11: devices (architecture.md#devices), one row each, and the teams each follows,
/// keyed by team first so that a team's followers are read in id order without a scan.
extension PostgresMigrations {
  static let devices = """
    CREATE TABLE IF NOT EXISTS devices (id text PRIMARY KEY, kind text NOT NULL, registered_at text NOT NULL, json jsonb NOT NULL);
    CREATE TABLE IF NOT EXISTS device_teams (
      team text NOT NULL, device_id text NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
      PRIMARY KEY (team, device_id));
    CREATE INDEX IF NOT EXISTS device_teams_by_device ON device_teams (device_id)
    """
}
