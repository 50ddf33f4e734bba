-- Hand-written (drizzle-kit generate --custom): places of an organization's window reserved by a
-- node (src/db/pg/counters.ts). Every admission statement took the organization's counter row and
-- held it to its commit, so one organization's requests were counted one statement at a time in the
-- database, whatever the nodes and the cores: a dossier by id ran at half the raw SELECT's rate
-- (docs/performance.md). A node whose organization is busy now asks, beside the requests it counts,
-- for `extra` places more; it gives them to its next requests itself, whose statement then only
-- reads (dossier_read_keys, dossier_read_sessions: no lock, side by side as any reads).
--
-- The window stays exact: an organization limited to N gets at most N in any 60 s window. A
-- reserved place may be given at any time from its statement's `now_ms` to `now_ms + lapse_ms`
-- (the node lets it lapse after), so its hit is dated at the end of that span, and every check
-- counts the hits still in the window at its own `now_ms`, the earliest time its places may be
-- given: for any 60 s window, the last check whose places were given in it counted every other such
-- check's hit (dated at or after its places' use, at or after the window's start, and counted from
-- before the window's end), so all of them hold at most N places. A hit's time is still never
-- earlier than the one before it (a check after a reservation is dated at least as late), so the
-- oldest hit by time is the first by place, as drizzle-pg/0011 needs. A place that lapses unused
-- stays counted to its hit's end, so a window may close a few places short of N: a node gets at
-- most an eighth of the room the window has left, and none when less than 64 would be left (a
-- limit of 70 or under is counted to the place, as before).
--
-- The functions of 0010 to 0014 stay for a node still running the code before this migration (it
-- counts in the same window, under the same row lock).
CREATE FUNCTION "dossier_rate_reserve"(subj text, lim integer, refusable boolean, want bigint, extra bigint, lapse_ms bigint, now_ms bigint,
  OUT cum bigint, OUT n bigint, OUT edge bigint, OUT reserved bigint)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
  counted_before bigint;
  at_ms bigint;
  room bigint;
BEGIN
  SELECT c.cum INTO counted_before FROM rate_counters c WHERE c.subject = subj FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_counters (subject, cum, n) VALUES (subj, 0, 0) ON CONFLICT (subject) DO NOTHING;
    SELECT c.cum INTO counted_before FROM rate_counters c WHERE c.subject = subj FOR UPDATE;
  END IF;
  SELECT greatest(now_ms, h.at) INTO at_ms FROM rate_hits h WHERE h.subject = subj ORDER BY h.at DESC, h.cum DESC LIMIT 1;
  at_ms := coalesce(at_ms, now_ms);
  SELECT h.cum - h.n INTO edge FROM rate_hits h WHERE h.subject = subj AND h.at > now_ms - 60000 ORDER BY h.at, h.cum LIMIT 1;
  edge := coalesce(edge, counted_before);
  room := lim - (counted_before - edge);
  n := CASE WHEN refusable THEN least(want, greatest(0, room)) ELSE want END;
  reserved := CASE WHEN refusable AND room - n >= 64 THEN least(extra, (room - n) / 8) ELSE 0 END;
  IF reserved > 0 THEN
    at_ms := greatest(at_ms, now_ms + lapse_ms);
  END IF;
  cum := counted_before + n + reserved;
  IF n + reserved > 0 THEN
    UPDATE rate_counters SET cum = dossier_rate_reserve.cum, n = dossier_rate_reserve.n + dossier_rate_reserve.reserved WHERE subject = subj;
    INSERT INTO rate_hits (subject, cum, at, n) VALUES (subj, dossier_rate_reserve.cum, at_ms, dossier_rate_reserve.n + dossier_rate_reserve.reserved);
  END IF;
END $$;
--> statement-breakpoint
-- 0012's admission of keys, with `extra` places reserved after the requests' own (`reserved_from`
-- to `reserved_to`, on every row; none: from > to). Places are reserved only when every request of
-- the statement was counted.
CREATE FUNCTION "dossier_admit_keys_reserving"(org text, hashes text[], dossier_ids text[], at_iso text, extra bigint, lapse_ms bigint, now_ms bigint)
RETURNS TABLE (i integer, id text, organization_id text, scopes text, expires_at text, revoked_at text, plan text, rate_limit integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision, dossier json,
  reserved_from double precision, reserved_to double precision)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
  o record;
  c record;
  own_cum bigint;
  first_at bigint;
BEGIN
  IF org IS NULL THEN
    SELECT k.organization_id INTO org FROM api_keys k WHERE k.key_hash = hashes[1];
  END IF;
  SELECT x.plan, x.rate_limit, (SELECT count(*) FROM unnest(hashes) q(hash) JOIN api_keys k ON k.key_hash = q.hash
      WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso)) AS want
    INTO o FROM organizations x WHERE x.id = org;
  IF NOT FOUND OR o.want = 0 THEN RETURN; END IF;
  c := dossier_rate_reserve(org, o.rate_limit, o.plan = 'growth', o.want, extra, lapse_ms, now_ms);
  own_cum := c.cum - c.reserved;
  SELECT h.at INTO first_at FROM rate_hits h WHERE h.subject = org AND h.cum >= c.edge + 1 ORDER BY h.cum LIMIT 1;
  RETURN QUERY
    SELECT (r.ord - 1)::integer, r.id, r.organization_id, r.scopes, r.expires_at, r.revoked_at, o.plan, o.rate_limit,
      c.edge::float8, o.rate_limit, s.size::float8, s.counted,
      (CASE WHEN s.size <= o.rate_limit THEN first_at
        ELSE (SELECT x.leaving FROM dossier_rate_seen(org, o.rate_limit, r.rn, own_cum, c.n, c.edge) x) END)::float8,
      g.dossiers, g.contacts,
      CASE WHEN s.counted AND o.plan = 'growth' THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[r.ord]) END,
      (own_cum + 1)::float8, c.cum::float8
    FROM (SELECT q.ord, k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, row_number() OVER (ORDER BY q.ord) AS rn
          FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN api_keys k ON k.key_hash = q.hash
          WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso)) r,
      LATERAL (SELECT r.rn <= c.n AS counted, (CASE WHEN r.rn <= c.n THEN own_cum - c.n + r.rn ELSE own_cum END) - c.edge AS size) s,
      (SELECT (SELECT x.generation FROM generations x WHERE x.organization_id = org AND x.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT x.generation FROM contact_generations x WHERE x.organization_id = org)::float8 AS contacts) g;
END $$;
--> statement-breakpoint
-- The same for sessions, as 0012's dossier_admit_sessions_reading.
CREATE FUNCTION "dossier_admit_sessions_reserving"(org text, hashes text[], dossier_ids text[], idle_since text, made_since text, extra bigint, lapse_ms bigint, now_ms bigint)
RETURNS TABLE (i integer, id text, "organizationId" text, "memberId" text, "csrfToken" text, "createdAt" text, "lastUsedAt" text, role text,
  "disabledAt" text, plan text, "rateLimit" integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision, dossier json,
  reserved_from double precision, reserved_to double precision)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
  o record;
  c record;
  own_cum bigint;
  first_at bigint;
BEGIN
  IF org IS NULL THEN
    SELECT x.organization_id INTO org FROM sessions x WHERE x.token_hash = hashes[1];
  END IF;
  SELECT x.plan, x.rate_limit, (SELECT count(*) FROM unnest(hashes) q(hash) JOIN sessions y ON y.token_hash = q.hash JOIN members m ON m.id = y.member_id
      WHERE y.organization_id = org AND m.disabled_at IS NULL AND y.last_used_at > idle_since AND y.created_at > made_since) AS want
    INTO o FROM organizations x WHERE x.id = org;
  IF NOT FOUND OR o.want = 0 THEN RETURN; END IF;
  c := dossier_rate_reserve(org, o.rate_limit, o.plan = 'growth', o.want, extra, lapse_ms, now_ms);
  own_cum := c.cum - c.reserved;
  SELECT h.at INTO first_at FROM rate_hits h WHERE h.subject = org AND h.cum >= c.edge + 1 ORDER BY h.cum LIMIT 1;
  RETURN QUERY
    SELECT (r.ord - 1)::integer, r.id, r.organization_id, r.member_id, r.csrf_token, r.created_at, r.last_used_at, r.role, r.disabled_at,
      o.plan, o.rate_limit, c.edge::float8, o.rate_limit, s.size::float8, s.counted,
      (CASE WHEN s.size <= o.rate_limit THEN first_at
        ELSE (SELECT x.leaving FROM dossier_rate_seen(org, o.rate_limit, r.rn, own_cum, c.n, c.edge) x) END)::float8,
      g.dossiers, g.contacts,
      CASE WHEN s.counted AND o.plan = 'growth' THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[r.ord]) END,
      (own_cum + 1)::float8, c.cum::float8
    FROM (SELECT q.ord, x.id, x.organization_id, x.member_id, x.csrf_token, x.created_at, x.last_used_at, m.role, m.disabled_at,
            row_number() OVER (ORDER BY q.ord) AS rn
          FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN sessions x ON x.token_hash = q.hash JOIN members m ON m.id = x.member_id
          WHERE x.organization_id = org AND m.disabled_at IS NULL AND x.last_used_at > idle_since AND x.created_at > made_since) r,
      LATERAL (SELECT r.rn <= c.n AS counted, (CASE WHEN r.rn <= c.n THEN own_cum - c.n + r.rn ELSE own_cum END) - c.edge AS size) s,
      (SELECT (SELECT x.generation FROM generations x WHERE x.organization_id = org AND x.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT x.generation FROM contact_generations x WHERE x.organization_id = org)::float8 AS contacts) g;
END $$;
--> statement-breakpoint
-- What a request admitted from its node's reserved places reads: its key (live at `at_iso`), its
-- organization's plan, limit and generations, and the dossier it will show (Growth only, as 0012),
-- in one statement, so that the rows are those of the generations given. Nothing is locked or
-- written.
CREATE FUNCTION "dossier_read_keys"(org text, hashes text[], dossier_ids text[], at_iso text)
RETURNS TABLE (i integer, id text, organization_id text, scopes text, expires_at text, revoked_at text, plan text, rate_limit integer,
  dossiers_generation double precision, contacts_generation double precision, dossier json)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
BEGIN
  RETURN QUERY
    SELECT (q.ord - 1)::integer, k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, o.plan, o.rate_limit, g.dossiers, g.contacts,
      CASE WHEN o.plan = 'growth' THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[q.ord]) END
    FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN api_keys k ON k.key_hash = q.hash JOIN organizations o ON o.id = k.organization_id,
      (SELECT (SELECT x.generation FROM generations x WHERE x.organization_id = org AND x.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT x.generation FROM contact_generations x WHERE x.organization_id = org)::float8 AS contacts) g
    WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso);
END $$;
--> statement-breakpoint
-- The same for sessions.
CREATE FUNCTION "dossier_read_sessions"(org text, hashes text[], dossier_ids text[], idle_since text, made_since text)
RETURNS TABLE (i integer, id text, "organizationId" text, "memberId" text, "csrfToken" text, "createdAt" text, "lastUsedAt" text, role text,
  "disabledAt" text, plan text, "rateLimit" integer, dossiers_generation double precision, contacts_generation double precision, dossier json)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
BEGIN
  RETURN QUERY
    SELECT (q.ord - 1)::integer, x.id, x.organization_id, x.member_id, x.csrf_token, x.created_at, x.last_used_at, m.role, m.disabled_at,
      o.plan, o.rate_limit, g.dossiers, g.contacts,
      CASE WHEN o.plan = 'growth' THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[q.ord]) END
    FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN sessions x ON x.token_hash = q.hash JOIN members m ON m.id = x.member_id
      JOIN organizations o ON o.id = x.organization_id,
      (SELECT (SELECT y.generation FROM generations y WHERE y.organization_id = org AND y.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT y.generation FROM contact_generations y WHERE y.organization_id = org)::float8 AS contacts) g
    WHERE x.organization_id = org AND m.disabled_at IS NULL AND x.last_used_at > idle_since AND x.created_at > made_since;
END $$;
