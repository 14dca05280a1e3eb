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
    // 4: a poll's commit in one statement (`OneStatementCommit`). Custom plans: a generic plan
    // cannot see how long the `unnest` arrays are, and cost PostgreSQL half as much CPU again.
    (
      4,
      """
      CREATE FUNCTION statline_commit(
        p_worker text, p_target text, p_count int, p_time float8,
        x_game text[], x_game_hash bigint[], x_game_held bool[],
        x_team text[], x_team_hash bigint[], x_team_held bool[],
        x_box text[], x_box_hash bigint[], x_box_held bool[],
        x_play_game text[], x_play_seq int[], x_play_hash bigint[], x_play_held bool[],
        g_id text[], g_v bigint[], g_h bigint[], g_sport text[], g_status text[], g_date text[], g_away text[],
        g_home text[], g_json text[],
        t_id text[], t_v bigint[], t_h bigint[], t_json text[],
        b_id text[], b_v bigint[], b_h bigint[], b_json text[],
        l_game text[], l_seq int[], l_v bigint[], l_h bigint[], l_json text[],
        e_seq bigint[], e_v bigint[], e_game text[], e_type text[], e_json text[],
        s_id text[], s_url text[], s_source text[], s_parser text[], s_role text[], s_due float8[], s_outcome text[],
        s_succeeded float8[], s_json text[], s_etag text[], s_modified text[], s_body_hash text[], s_overwrite bool[])
      RETURNS bigint
      LANGUAGE plpgsql
      SET plan_cache_mode = force_custom_plan
      AS $$
      DECLARE
        v_owner text;
        v_base bigint;
        v_last bigint;
      BEGIN
        IF p_worker IS NOT NULL THEN
          SELECT lease_owner INTO v_owner FROM targets WHERE id = p_target FOR UPDATE;
          IF v_owner IS DISTINCT FROM p_worker THEN RETURN -1; END IF;
        END IF;
        IF p_count > 0 THEN
          SELECT version INTO v_base FROM store_version WHERE id = 1 FOR UPDATE;
          IF EXISTS (SELECT 1 FROM unnest(x_game, x_game_hash, x_game_held) AS x(i, h, held)
                LEFT JOIN games r ON r.id = x.i WHERE (r.id IS NULL) = held OR r.hash <> x.h)
            OR EXISTS (SELECT 1 FROM unnest(x_team, x_team_hash, x_team_held) AS x(i, h, held)
                LEFT JOIN teams r ON r.id = x.i WHERE (r.id IS NULL) = held OR r.hash <> x.h)
            OR EXISTS (SELECT 1 FROM unnest(x_box, x_box_hash, x_box_held) AS x(i, h, held)
                LEFT JOIN box_scores r ON r.game_id = x.i WHERE (r.game_id IS NULL) = held OR r.hash <> x.h)
            OR EXISTS (SELECT 1 FROM unnest(x_play_game, x_play_seq, x_play_hash, x_play_held) AS x(g, s, h, held)
                LEFT JOIN plays r ON r.game_id = x.g AND r.sequence = x.s
                WHERE (r.game_id IS NULL) = held OR r.hash <> x.h)
          THEN
            RETURN -2;
          END IF;
          SELECT COALESCE(MAX(sequence), 0) INTO v_last FROM events;
          INSERT INTO games (id, version, hash, sport, status, date, away_team, home_team, changed_at, json)
            SELECT i, v_base + v, h, s, st, NULLIF(d, ''), NULLIF(a, ''), NULLIF(ho, ''), p_time, j::jsonb
            FROM unnest(g_id, g_v, g_h, g_sport, g_status, g_date, g_away, g_home, g_json) AS r(i, v, h, s, st, d, a, ho, j)
            ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, sport = excluded.sport,
              status = excluded.status, date = excluded.date, away_team = excluded.away_team,
              home_team = excluded.home_team, changed_at = excluded.changed_at, json = excluded.json;
          INSERT INTO teams (id, version, hash, json)
            SELECT i, v_base + v, h, j::jsonb FROM unnest(t_id, t_v, t_h, t_json) AS r(i, v, h, j)
            ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json;
          INSERT INTO box_scores (game_id, version, hash, json)
            SELECT i, v_base + v, h, j::jsonb FROM unnest(b_id, b_v, b_h, b_json) AS r(i, v, h, j)
            ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json;
          INSERT INTO plays (game_id, sequence, version, hash, json)
            SELECT g, s, v_base + v, h, j::jsonb FROM unnest(l_game, l_seq, l_v, l_h, l_json) AS r(g, s, v, h, j)
            ON CONFLICT (game_id, sequence) DO UPDATE SET version = excluded.version, hash = excluded.hash,
              json = excluded.json;
          INSERT INTO events (sequence, version, game_id, type, json)
            SELECT v_last + s, v_base + v, g, t,
              j::jsonb || jsonb_build_object('sequence', v_last + s, 'id', 'evt_' || (v_last + s), 'version', v_base + v)
            FROM unnest(e_seq, e_v, e_game, e_type, e_json) AS r(s, v, g, t, j);
          UPDATE store_version SET version = v_base + p_count WHERE id = 1;
          v_base := v_base + p_count;
        ELSE
          SELECT version INTO v_base FROM store_version WHERE id = 1;
        END IF;
        INSERT INTO targets AS t (id, url, source, parser, role, next_due, outcome, last_succeeded, state, etag,
            last_modified, body_hash)
          SELECT i, u, so, pa, ro, NULLIF(du, 'NaN'), oc, NULLIF(su, 'NaN'), j::jsonb, NULLIF(et, ''), NULLIF(lm, ''),
            NULLIF(bh, '')::bigint
          FROM unnest(s_id, s_url, s_source, s_parser, s_role, s_due, s_outcome, s_succeeded, s_json, s_etag, s_modified,
            s_body_hash, s_overwrite) AS r(i, u, so, pa, ro, du, oc, su, j, et, lm, bh, ow)
          WHERE ow
          ON CONFLICT (id) DO UPDATE SET next_due = excluded.next_due, outcome = excluded.outcome,
            last_succeeded = excluded.last_succeeded, state = excluded.state, etag = excluded.etag,
            last_modified = excluded.last_modified, body_hash = excluded.body_hash,
            lease_owner = CASE WHEN p_worker IS NOT NULL AND t.id = p_target THEN NULL ELSE t.lease_owner END,
            lease_until = CASE WHEN p_worker IS NOT NULL AND t.id = p_target THEN NULL ELSE t.lease_until END;
        INSERT INTO targets (id, url, source, parser, role, next_due, outcome, last_succeeded, state, etag,
            last_modified, body_hash)
          SELECT i, u, so, pa, ro, NULLIF(du, 'NaN'), oc, NULLIF(su, 'NaN'), j::jsonb, NULLIF(et, ''), NULLIF(lm, ''),
            NULLIF(bh, '')::bigint
          FROM unnest(s_id, s_url, s_source, s_parser, s_role, s_due, s_outcome, s_succeeded, s_json, s_etag, s_modified,
            s_body_hash, s_overwrite) AS r(i, u, so, pa, ro, du, oc, su, j, et, lm, bh, ow)
          WHERE NOT ow
          ON CONFLICT (id) DO NOTHING;
        IF cardinality(s_id) > 0 THEN
          UPDATE schedule_stamp SET schedule = schedule + 1 WHERE id = 1;
        END IF;
        RETURN v_base;
      END
      $$;
      """
    ),
    (5, stateTagsAndFinishedPermits),
    // Canonical games (architecture.md#canonical-games) live in `games` beside their source games, under ids that
    // start `game:`; `migrate` assigns them to the games stored before (once: `canonical_ids`
    // says it is done), and delta-sync cursors from before `resync_below` must resync.
    (
      6,
      """
      ALTER TABLE store_version ADD COLUMN resync_below bigint NOT NULL DEFAULT 0;
      ALTER TABLE store_version ADD COLUMN canonical_ids bool NOT NULL DEFAULT false;
      """
    ),
    (7, rankings),
    (8, commitSkipsEmptyStatements),
    (9, claimAffinity),
    (10, hostPauses),
    (11, devices),
    (12, outbox),
    (13, liveActivities),
    (14, teamLogos),
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
