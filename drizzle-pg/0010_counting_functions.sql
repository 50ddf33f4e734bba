-- Hand-written (drizzle-kit generate --custom): the request's bookkeeping (src/db/pg/counters.ts)
-- as functions, whose statements PL/pgSQL plans once per connection: the same work as one
-- statement of CTEs took twice its execution time to plan on every request.
--
-- dossier_rate_count: counts `want` requests of `subj` at `now_ms` against `lim` a minute in the
-- sliding 60 s window (C8): all of them when not `refusable`, else as many as the window has room
-- for. The counter's row is locked first, so that the window is read (a new snapshot, READ
-- COMMITTED) after every count committed before; requests of one subject on any node are counted
-- one after the other, and the window is exact. `edge`: the place before the oldest hit of the
-- window; `cum`: the counter after; `n`: how many were counted.
CREATE FUNCTION "dossier_rate_count"(subj text, lim integer, refusable boolean, want bigint, now_ms bigint, OUT cum bigint, OUT n bigint, OUT edge bigint)
LANGUAGE plpgsql AS $$
DECLARE
  counted_before bigint;
BEGIN
  SELECT c.cum INTO counted_before FROM rate_counters c WHERE c.subject = subj FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO rate_counters (subject, cum, n) VALUES (subj, 0, 0) ON CONFLICT (subject) DO NOTHING;
    SELECT c.cum INTO counted_before FROM rate_counters c WHERE c.subject = subj FOR UPDATE;
  END IF;
  SELECT h.cum - 1 INTO edge FROM rate_hits h WHERE h.subject = subj AND h.at > now_ms - 60000 ORDER BY h.at, h.cum LIMIT 1;
  edge := coalesce(edge, counted_before);
  n := CASE WHEN refusable THEN least(want, greatest(0, lim - (counted_before - edge))) ELSE want END;
  cum := counted_before + n;
  IF n > 0 THEN
    UPDATE rate_counters SET cum = dossier_rate_count.cum, n = dossier_rate_count.n WHERE subject = subj;
    INSERT INTO rate_hits (subject, cum, at) SELECT subj, g, now_ms FROM generate_series(counted_before + 1, counted_before + n) g;
  END IF;
END $$;
--> statement-breakpoint
-- What the rn-th of a statement's requests sees of the window: its size (after it when counted),
-- whether it was counted, and the time of the hit that must leave first for a request to be free
-- (C10's X-RateLimit-Reset): the oldest, or past the limit the one that brings the window under it.
CREATE FUNCTION "dossier_rate_seen"(subj text, lim integer, rn bigint, cum bigint, n bigint, edge bigint, OUT size bigint, OUT counted boolean, OUT leaving bigint)
LANGUAGE plpgsql AS $$
BEGIN
  counted := rn <= n;
  size := (CASE WHEN counted THEN cum - n + rn ELSE cum END) - edge;
  SELECT h.at INTO leaving FROM rate_hits h WHERE h.subject = subj AND h.cum >= edge + greatest(0, size - lim) + 1 ORDER BY h.cum LIMIT 1;
END $$;
--> statement-breakpoint
-- The principals of `hashes` (API keys' SHA-256) that are keys of `org` (NULL: the first hash's
-- organization), live at `at_iso`, counted in their organization's window; with the
-- organization's cache generations. `i`: the request's index in `hashes` (from 0).
CREATE FUNCTION "dossier_admit_keys"(org text, hashes text[], at_iso text, now_ms bigint)
RETURNS TABLE (i integer, id text, organization_id text, scopes text, expires_at text, revoked_at text, plan text, rate_limit integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision)
LANGUAGE plpgsql AS $$
DECLARE
  o record;
  c record;
  want bigint;
  dossiers_now double precision;
  contacts_now double precision;
BEGIN
  IF org IS NULL THEN
    SELECT k.organization_id INTO org FROM api_keys k WHERE k.key_hash = hashes[1];
  END IF;
  SELECT x.id, x.plan, x.rate_limit INTO o FROM organizations x WHERE x.id = org;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT count(*) INTO want FROM unnest(hashes) q(hash) JOIN api_keys k ON k.key_hash = q.hash
    WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso);
  IF want = 0 THEN RETURN; END IF;
  c := dossier_rate_count(org, o.rate_limit, o.plan = 'growth', want, now_ms);
  SELECT g.generation INTO dossiers_now FROM generations g WHERE g.organization_id = org AND g.table_name = 'dossiers';
  SELECT g.generation INTO contacts_now FROM contact_generations g WHERE g.organization_id = org;
  RETURN QUERY
    SELECT (r.ord - 1)::integer, r.id, r.organization_id, r.scopes, r.expires_at, r.revoked_at, o.plan, o.rate_limit,
      c.edge::float8, o.rate_limit, s.size::float8, s.counted, s.leaving::float8, dossiers_now, contacts_now
    FROM (SELECT q.ord, k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, row_number() OVER (ORDER BY q.ord) AS rn
          FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN api_keys k ON k.key_hash = q.hash
          WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso)) r,
      LATERAL dossier_rate_seen(org, o.rate_limit, r.rn, c.cum, c.n, c.edge) s;
END $$;
--> statement-breakpoint
-- The same for sessions (`hashes`: their tokens' SHA-256): alive (used after `idle_since`, made
-- after `made_since`, their member not disabled).
CREATE FUNCTION "dossier_admit_sessions"(org text, hashes text[], idle_since text, made_since text, now_ms bigint)
RETURNS TABLE (i integer, id text, "organizationId" text, "memberId" text, "csrfToken" text, "createdAt" text, "lastUsedAt" text, role text,
  "disabledAt" text, plan text, "rateLimit" integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision)
LANGUAGE plpgsql AS $$
DECLARE
  o record;
  c record;
  want bigint;
  dossiers_now double precision;
  contacts_now double precision;
BEGIN
  IF org IS NULL THEN
    SELECT x.organization_id INTO org FROM sessions x WHERE x.token_hash = hashes[1];
  END IF;
  SELECT x.id, x.plan, x.rate_limit INTO o FROM organizations x WHERE x.id = org;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT count(*) INTO want FROM unnest(hashes) q(hash) JOIN sessions x ON x.token_hash = q.hash JOIN members m ON m.id = x.member_id
    WHERE x.organization_id = org AND m.disabled_at IS NULL AND x.last_used_at > idle_since AND x.created_at > made_since;
  IF want = 0 THEN RETURN; END IF;
  c := dossier_rate_count(org, o.rate_limit, o.plan = 'growth', want, now_ms);
  SELECT g.generation INTO dossiers_now FROM generations g WHERE g.organization_id = org AND g.table_name = 'dossiers';
  SELECT g.generation INTO contacts_now FROM contact_generations g WHERE g.organization_id = org;
  RETURN QUERY
    SELECT (r.ord - 1)::integer, r.id, r.organization_id, r.member_id, r.csrf_token, r.created_at, r.last_used_at, r.role, r.disabled_at,
      o.plan, o.rate_limit, c.edge::float8, o.rate_limit, s.size::float8, s.counted, s.leaving::float8, dossiers_now, contacts_now
    FROM (SELECT q.ord, x.id, x.organization_id, x.member_id, x.csrf_token, x.created_at, x.last_used_at, m.role, m.disabled_at,
            row_number() OVER (ORDER BY q.ord) AS rn
          FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN sessions x ON x.token_hash = q.hash JOIN members m ON m.id = x.member_id
          WHERE x.organization_id = org AND m.disabled_at IS NULL AND x.last_used_at > idle_since AND x.created_at > made_since) r,
      LATERAL dossier_rate_seen(org, o.rate_limit, r.rn, c.cum, c.n, c.edge) s;
END $$;
--> statement-breakpoint
-- One request of `subj` (an intake token's limit, C20) against `lim` a minute, refusable.
CREATE FUNCTION "dossier_count_hit"(subj text, lim integer, now_ms bigint)
RETURNS TABLE (edge double precision, lim_out integer, size double precision, counted boolean, leaving double precision)
LANGUAGE plpgsql AS $$
DECLARE
  c record;
BEGIN
  c := dossier_rate_count(subj, lim, true, 1, now_ms);
  RETURN QUERY SELECT c.edge::float8, lim, s.size::float8, s.counted, s.leaving::float8 FROM dossier_rate_seen(subj, lim, 1, c.cum, c.n, c.edge) s;
END $$;
