/// Rankings (architecture.md#the-contract): one row per poll and week. The columns the read API filters on are
/// generated from the record's JSON, so a writer sends a ranking as it sends a team (id, version,
/// hash, JSON), and `statline_commit` takes the rankings of a poll with the rest of its records.
extension PostgresMigrations {
  static let rankings = """
    CREATE TABLE rankings (
      id text PRIMARY KEY, version bigint NOT NULL, hash bigint NOT NULL, json jsonb NOT NULL,
      sport text GENERATED ALWAYS AS (json->>'sport') STORED,
      poll text GENERATED ALWAYS AS (json->>'poll') STORED,
      season int GENERATED ALWAYS AS ((json->>'season')::int) STORED,
      edition text GENERATED ALWAYS AS (json->>'edition') STORED);
    CREATE INDEX rankings_by_version ON rankings (version);
    CREATE INDEX rankings_by_poll ON rankings (sport, poll, season, edition);
    DROP FUNCTION statline_commit;
    CREATE FUNCTION statline_commit(
      p_worker text, p_target text, p_count int, p_time float8, p_tag bigint, p_permits text[],
      x_game text[], x_game_hash bigint[], x_game_held bool[],
      x_team text[], x_team_hash bigint[], x_team_held bool[],
      x_box text[], x_box_hash bigint[], x_box_held bool[],
      x_play_game text[], x_play_seq int[], x_play_hash bigint[], x_play_held bool[],
      x_rank text[], x_rank_hash bigint[], x_rank_held bool[],
      g_id text[], g_v bigint[], g_h bigint[], g_sport text[], g_status text[], g_date text[], g_away text[],
      g_home text[], g_json text[],
      t_id text[], t_v bigint[], t_h bigint[], t_json text[],
      b_id text[], b_v bigint[], b_h bigint[], b_json text[],
      l_game text[], l_seq int[], l_v bigint[], l_h bigint[], l_json text[],
      r_id text[], r_v bigint[], r_h bigint[], r_json text[],
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
      DELETE FROM host_permits WHERE id = ANY(p_permits);
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
          OR EXISTS (SELECT 1 FROM unnest(x_rank, x_rank_hash, x_rank_held) AS x(i, h, held)
              LEFT JOIN rankings r ON r.id = x.i WHERE (r.id IS NULL) = held OR r.hash <> x.h)
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
        INSERT INTO rankings (id, version, hash, json)
          SELECT i, v_base + v, h, j::jsonb FROM unnest(r_id, r_v, r_h, r_json) AS r(i, v, h, j)
          ON CONFLICT (id) DO UPDATE SET version = excluded.version, hash = excluded.hash, json = excluded.json;
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
          state_tag = CASE WHEN t.id = p_target THEN p_tag END,
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
}
