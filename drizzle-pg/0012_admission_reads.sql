-- Hand-written (drizzle-kit generate --custom): the request's bookkeeping (src/db/pg/counters.ts)
-- that also reads what a GET by id will show (src/db/pg/answer-cache.ts), so that a dossier read by
-- id is one statement on the database, as a bare SELECT of it would be. The functions of 0010 stay
-- for a node still running the code before this migration (it counts in the same window, under the
-- same row lock: dossier_rate_count).
--
-- Beside 0010's admissions: `dossier_ids[i]` names the dossier the request at index i (from 1) will
-- read (NULL: none; the array NULL: none of them); `dossier` is its row, whole, as JSON, read under
-- the admitted organization only for a request that was counted and whose organization is on
-- Growth: a request that 402 or 429 refuse reads nothing, and a 401 cannot, having no organization
-- (C3: no answer before the checks). The generations and the rows are read by one statement, so
-- that the rows are those of the generations given.
--
-- A request's place in the window (`size`, `counted`, `leaving`) is dossier_rate_seen's, with its
-- lookup of `leaving` made once per statement: every request within the limit waits for the same
-- hit, the window's oldest (`first_at`); only one past it calls dossier_rate_seen. Per row, as a
-- subquery of the statement, that lookup was planned as a scan of all the subject's hits (rate_hits
-- has no statistics in its first minute, nor one subject's share of it), sorted, for each row.
--
-- The counting functions plan their statements with sequential and bitmap scans off: without
-- statistics of rate_hits (its first minute, before autovacuum's first ANALYZE; a table that grew
-- since), the planner took it for a page or two and read all of a subject's hits, with a sort, where
-- an index gives the one hit asked for in a few pages (measured: 0.3-0.6 ms a statement after 2 s of
-- load, growing with the window's hits; docs/performance.md). Every lookup here has its index.
ALTER FUNCTION "dossier_rate_count"(text, integer, boolean, bigint, bigint) SET enable_seqscan = off SET enable_bitmapscan = off;
--> statement-breakpoint
ALTER FUNCTION "dossier_rate_seen"(text, integer, bigint, bigint, bigint, bigint) SET enable_seqscan = off SET enable_bitmapscan = off;
--> statement-breakpoint
CREATE FUNCTION "dossier_admit_keys_reading"(org text, hashes text[], dossier_ids text[], at_iso text, now_ms bigint)
RETURNS TABLE (i integer, id text, organization_id text, scopes text, expires_at text, revoked_at text, plan text, rate_limit integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision, dossier json)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
  o record;
  c record;
  first_at bigint;
BEGIN
  IF org IS NULL THEN
    SELECT k.organization_id INTO org FROM api_keys k WHERE k.key_hash = hashes[1];
  END IF;
  SELECT x.plan, x.rate_limit, (SELECT count(*) FROM unnest(hashes) q(hash) JOIN api_keys k ON k.key_hash = q.hash
      WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso)) AS want
    INTO o FROM organizations x WHERE x.id = org;
  IF NOT FOUND OR o.want = 0 THEN RETURN; END IF;
  c := dossier_rate_count(org, o.rate_limit, o.plan = 'growth', o.want, now_ms);
  SELECT h.at INTO first_at FROM rate_hits h WHERE h.subject = org AND h.cum >= c.edge + 1 ORDER BY h.cum LIMIT 1;
  RETURN QUERY
    SELECT (r.ord - 1)::integer, r.id, r.organization_id, r.scopes, r.expires_at, r.revoked_at, o.plan, o.rate_limit,
      c.edge::float8, o.rate_limit, s.size::float8, s.counted,
      (CASE WHEN s.size <= o.rate_limit THEN first_at
        ELSE (SELECT x.leaving FROM dossier_rate_seen(org, o.rate_limit, r.rn, c.cum, c.n, c.edge) x) END)::float8,
      g.dossiers, g.contacts,
      CASE WHEN s.counted AND o.plan = 'growth' THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[r.ord]) END
    FROM (SELECT q.ord, k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, row_number() OVER (ORDER BY q.ord) AS rn
          FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN api_keys k ON k.key_hash = q.hash
          WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso)) r,
      LATERAL (SELECT r.rn <= c.n AS counted, (CASE WHEN r.rn <= c.n THEN c.cum - c.n + r.rn ELSE c.cum END) - c.edge AS size) s,
      (SELECT (SELECT x.generation FROM generations x WHERE x.organization_id = org AND x.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT x.generation FROM contact_generations x WHERE x.organization_id = org)::float8 AS contacts) g;
END $$;
--> statement-breakpoint
-- The same for sessions, as 0010's dossier_admit_sessions.
CREATE FUNCTION "dossier_admit_sessions_reading"(org text, hashes text[], dossier_ids text[], idle_since text, made_since text, now_ms bigint)
RETURNS TABLE (i integer, id text, "organizationId" text, "memberId" text, "csrfToken" text, "createdAt" text, "lastUsedAt" text, role text,
  "disabledAt" text, plan text, "rateLimit" integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision, dossier json)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
DECLARE
  o record;
  c record;
  first_at bigint;
BEGIN
  IF org IS NULL THEN
    SELECT x.organization_id INTO org FROM sessions x WHERE x.token_hash = hashes[1];
  END IF;
  SELECT x.plan, x.rate_limit, (SELECT count(*) FROM unnest(hashes) q(hash) JOIN sessions y ON y.token_hash = q.hash JOIN members m ON m.id = y.member_id
      WHERE y.organization_id = org AND m.disabled_at IS NULL AND y.last_used_at > idle_since AND y.created_at > made_since) AS want
    INTO o FROM organizations x WHERE x.id = org;
  IF NOT FOUND OR o.want = 0 THEN RETURN; END IF;
  c := dossier_rate_count(org, o.rate_limit, o.plan = 'growth', o.want, now_ms);
  SELECT h.at INTO first_at FROM rate_hits h WHERE h.subject = org AND h.cum >= c.edge + 1 ORDER BY h.cum LIMIT 1;
  RETURN QUERY
    SELECT (r.ord - 1)::integer, r.id, r.organization_id, r.member_id, r.csrf_token, r.created_at, r.last_used_at, r.role, r.disabled_at,
      o.plan, o.rate_limit, c.edge::float8, o.rate_limit, s.size::float8, s.counted,
      (CASE WHEN s.size <= o.rate_limit THEN first_at
        ELSE (SELECT x.leaving FROM dossier_rate_seen(org, o.rate_limit, r.rn, c.cum, c.n, c.edge) x) END)::float8,
      g.dossiers, g.contacts,
      CASE WHEN s.counted AND o.plan = 'growth' THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[r.ord]) END
    FROM (SELECT q.ord, x.id, x.organization_id, x.member_id, x.csrf_token, x.created_at, x.last_used_at, m.role, m.disabled_at,
            row_number() OVER (ORDER BY q.ord) AS rn
          FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN sessions x ON x.token_hash = q.hash JOIN members m ON m.id = x.member_id
          WHERE x.organization_id = org AND m.disabled_at IS NULL AND x.last_used_at > idle_since AND x.created_at > made_since) r,
      LATERAL (SELECT r.rn <= c.n AS counted, (CASE WHEN r.rn <= c.n THEN c.cum - c.n + r.rn ELSE c.cum END) - c.edge AS size) s,
      (SELECT (SELECT x.generation FROM generations x WHERE x.organization_id = org AND x.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT x.generation FROM contact_generations x WHERE x.organization_id = org)::float8 AS contacts) g;
END $$;
