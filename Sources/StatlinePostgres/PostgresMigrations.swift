/// The PostgreSQL store's schema, as ordered migrations. `statline_migrations` records which
/// have run; each runs in its own transaction, and the whole run holds an advisory lock, so
/// workers starting at once migrate one after the other. Never edit a shipped migration: add one.
///
/// Records keep their JSON contract as `jsonb`; the columns the read API filters on (sport,
/// date, status, teams, versions) are real, indexed columns. Times are seconds since 1970 as
/// `double precision`: exact for every `Date` the job makes, and what the SQLite store keeps.
enum PostgresMigrations {
  static let all: [(version: Int, sql: String)] = [
    (
      1,
      """
      CREATE TABLE store_version (id int PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
      INSERT INTO store_version (id, version) VALUES (1, 0);
      CREATE TABLE schedule_stamp (id int PRIMARY KEY CHECK (id = 1), schedule bigint NOT NULL);
      INSERT INTO schedule_stamp (id, schedule) VALUES (1, 0);
      CREATE TABLE games (
        id text PRIMARY KEY, version bigint NOT NULL, hash bigint NOT NULL, sport text NOT NULL,
        status text NOT NULL, date text, away_team text, home_team text, changed_at double precision,
        json jsonb NOT NULL);
      CREATE INDEX games_by_version ON games (version);
      CREATE INDEX games_by_sport_date ON games (sport, date);
      CREATE INDEX games_by_date ON games (date);
      CREATE INDEX games_by_status ON games (status, date);
      CREATE INDEX games_by_away_team ON games (away_team, date);
      CREATE INDEX games_by_home_team ON games (home_team, date);
      CREATE TABLE teams (id text PRIMARY KEY, version bigint NOT NULL, hash bigint NOT NULL, json jsonb NOT NULL);
      CREATE INDEX teams_by_version ON teams (version);
      CREATE TABLE box_scores (
        game_id text PRIMARY KEY, version bigint NOT NULL, hash bigint NOT NULL, json jsonb NOT NULL);
      CREATE INDEX box_scores_by_version ON box_scores (version);
      CREATE TABLE plays (
        game_id text NOT NULL, sequence int NOT NULL, version bigint NOT NULL, hash bigint NOT NULL,
        json jsonb NOT NULL, PRIMARY KEY (game_id, sequence));
      CREATE INDEX plays_by_version ON plays (version);
      CREATE TABLE captures (
        id bigserial PRIMARY KEY, captured_at double precision NOT NULL, url text, status int NOT NULL,
        headers text NOT NULL, fetched_at double precision, file text, source text, parser text,
        error text NOT NULL, body bytea NOT NULL);
      CREATE INDEX captures_by_time ON captures (captured_at);
      CREATE TABLE targets (
        id text PRIMARY KEY, url text NOT NULL, source text NOT NULL, parser text NOT NULL, role text NOT NULL,
        next_due double precision, outcome text NOT NULL, last_succeeded double precision,
        lease_owner text, lease_until double precision, state jsonb NOT NULL,
        etag text, last_modified text, body_hash bigint);
      CREATE INDEX targets_by_due ON targets (next_due) WHERE next_due IS NOT NULL;
      CREATE INDEX targets_by_lease ON targets (lease_owner) WHERE lease_owner IS NOT NULL;
      CREATE TABLE hosts (
        host text PRIMARY KEY, breaker text NOT NULL, failures int NOT NULL, open_until double precision,
        updated double precision NOT NULL);
      CREATE TABLE events (
        sequence bigint PRIMARY KEY, version bigint NOT NULL, game_id text NOT NULL, type text NOT NULL,
        json jsonb NOT NULL);
      CREATE INDEX events_by_game ON events (game_id, sequence);
      CREATE TABLE sink_cursors (sink text PRIMARY KEY, sequence bigint NOT NULL);
      CREATE TABLE dead_letters (
        sink text NOT NULL, sequence bigint NOT NULL, attempts int NOT NULL, error text NOT NULL,
        failed_at double precision NOT NULL, json jsonb NOT NULL, PRIMARY KEY (sink, sequence));
      """
    ),
    (
      2,
      """
      CREATE TABLE workers (
        id text PRIMARY KEY, host text NOT NULL, pid int NOT NULL, started double precision NOT NULL,
        heartbeat double precision NOT NULL, stopped double precision);
      CREATE INDEX targets_due_unleased ON targets (next_due) WHERE next_due IS NOT NULL AND lease_owner IS NULL;
      """
    ),
    (
      3,
      """
      CREATE TABLE host_slots (host text PRIMARY KEY, next_start double precision NOT NULL);
      CREATE TABLE host_permits (
        id text PRIMARY KEY, host text NOT NULL, holder text NOT NULL, expires double precision NOT NULL);
      CREATE INDEX host_permits_by_host ON host_permits (host);
      CREATE TABLE robots (
        origin text PRIMARY KEY, status int NOT NULL, body bytea NOT NULL, fetched_at double precision NOT NULL);
      CREATE TABLE sink_leases (sink text PRIMARY KEY, holder text NOT NULL, until double precision NOT NULL);
      CREATE FUNCTION statline_reserve(
        p_host text, p_limit int, p_spacing float8, p_holder text, p_now float8, p_expiry float8, p_id text)
      RETURNS TABLE (granted boolean, start float8, failures int, breaker text, open_until float8)
      LANGUAGE plpgsql AS $$
      DECLARE
        v_next float8;
        v_count int;
        v_start float8;
        v_failures int;
        v_breaker text;
        v_open float8;
      BEGIN
        INSERT INTO host_slots (host, next_start) VALUES (p_host, 0) ON CONFLICT (host) DO NOTHING;
        SELECT s.next_start INTO v_next FROM host_slots s WHERE s.host = p_host FOR UPDATE;
        SELECT h.failures, h.breaker, h.open_until INTO v_failures, v_breaker, v_open FROM hosts h WHERE h.host = p_host;
        DELETE FROM host_permits WHERE host = p_host AND expires < p_now;
        SELECT count(*) INTO v_count FROM host_permits WHERE host = p_host;
        v_start := GREATEST(v_next, p_now);
        IF v_count >= p_limit THEN
          RETURN QUERY SELECT false, v_start, v_failures, v_breaker, v_open;
          RETURN;
        END IF;
        UPDATE host_slots SET next_start = v_start + p_spacing WHERE host = p_host;
        INSERT INTO host_permits (id, host, holder, expires)
          VALUES (p_id, p_host, p_holder, GREATEST(p_expiry, v_start + 1));
        RETURN QUERY SELECT true, v_start, v_failures, v_breaker, v_open;
      END
      $$;
      """
    ),
  ]

  static var latest: Int { all.last?.version ?? 0 }

  /// A migration's statements, one by one (the extended protocol takes one at a time).
  /// A `$$`-quoted function body is one statement, semicolons and all.
  static func statements(_ sql: String) -> [String] {
    var statements: [String] = []
    var current = ""
    for piece in sql.components(separatedBy: ";\n") {
      current += current.isEmpty ? piece : ";\n" + piece
      if current.components(separatedBy: "$$").count % 2 == 1 {
        statements.append(current)
        current = ""
      }
    }
    statements.append(current)
    return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
      .map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 }.filter { !$0.isEmpty }
  }
}
