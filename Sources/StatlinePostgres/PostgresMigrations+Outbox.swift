/// Migration 12: the push outbox (architecture.md#the-push-outbox), one slot per device and
/// game, found due by (pending, ready_at); and the evaluator's event cursor, locked and moved in
/// the same transaction as the slots it fills, so two workers never plan the same events.
extension PostgresMigrations {
  static let outbox = """
    CREATE TABLE IF NOT EXISTS push_outbox (
      device_id text NOT NULL, collapse_id text NOT NULL, pending bool NOT NULL, ready_at double precision NOT NULL,
      expires_at double precision NOT NULL, leased_until double precision NOT NULL,
      not_before double precision NOT NULL, json text NOT NULL, PRIMARY KEY (device_id, collapse_id));
    CREATE INDEX IF NOT EXISTS push_outbox_due ON push_outbox (ready_at) WHERE pending;
    CREATE INDEX IF NOT EXISTS push_outbox_by_expiry ON push_outbox (pending, expires_at);
    CREATE TABLE IF NOT EXISTS push_cursor (id int PRIMARY KEY CHECK (id = 1), sequence bigint NOT NULL, device text);
    INSERT INTO push_cursor (id, sequence) VALUES (1, 0) ON CONFLICT DO NOTHING;
    CREATE INDEX IF NOT EXISTS devices_by_suspension ON devices ((json->'suspended'->>'kind')) WHERE json ? 'suspended'
    """
}

/// Migration 13: Live Activities (architecture.md#live-activities): the planner's cursor on the
/// store's changes, and the activities found by the game they follow.
extension PostgresMigrations {
  static let liveActivities = """
    CREATE TABLE IF NOT EXISTS push_activity_cursor (
      id int PRIMARY KEY CHECK (id = 1), sequence bigint NOT NULL, device text);
    INSERT INTO push_activity_cursor (id, sequence) VALUES (1, 0) ON CONFLICT DO NOTHING;
    CREATE INDEX IF NOT EXISTS devices_by_game ON devices ((json->>'gameId'), id) WHERE kind = 'apns-liveactivity'
    """
}
