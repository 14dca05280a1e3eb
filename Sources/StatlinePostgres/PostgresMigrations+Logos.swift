/// Migration 14: team logos (architecture.md#team-logos), each canonical team's keeper state and
/// the image downloaded last.
extension PostgresMigrations {
  static let teamLogos = """
    CREATE TABLE IF NOT EXISTS team_logos (team_id text PRIMARY KEY, state jsonb NOT NULL, image bytea)
    """
}
