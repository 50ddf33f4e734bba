-- Hand-written (drizzle-kit generate --custom): 0015's four admission statements, told what the
-- node already holds. A GET /dossiers/{id} admitted with its dossier read ahead got the dossier's
-- JSON on every request, though the node answers from the record it holds when the generation read
-- is the one it holds it under (src/db/pg/answer-cache.ts): PostgreSQL made the JSON, sent it, and
-- the driver parsed it, for nothing. Each function now takes `known`, by request, the dossiers
-- generation under which the node holds the dossier it reads ahead (NULL: it does not), and when the
-- generation it reads is that one it leaves the dossier out and says so (`dossier_known`): no write
-- to the organization's dossiers committed since the node read it (the generations' rule,
-- drizzle-pg/0001), so the record it holds is the dossier as it is.
--
-- The functions of 0015 stay for a node still running the code before this migration.
-- Admission of keys (0015's dossier_admit_keys_reserving).
CREATE FUNCTION "dossier_admit_keys_known"(org text, hashes text[], dossier_ids text[], known double precision[], at_iso text, extra bigint, lapse_ms bigint, now_ms bigint)
RETURNS TABLE (i integer, id text, organization_id text, scopes text, expires_at text, revoked_at text, plan text, rate_limit integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision, dossier json, dossier_known boolean,
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
      CASE WHEN s.counted AND o.plan = 'growth' AND (known[r.ord] IS NULL OR g.dossiers IS DISTINCT FROM known[r.ord]) THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[r.ord]) END,
      coalesce(s.counted AND o.plan = 'growth' AND g.dossiers = known[r.ord], false),
      (own_cum + 1)::float8, c.cum::float8
    FROM (SELECT q.ord, k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, row_number() OVER (ORDER BY q.ord) AS rn
          FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN api_keys k ON k.key_hash = q.hash
          WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso)) r,
      LATERAL (SELECT r.rn <= c.n AS counted, (CASE WHEN r.rn <= c.n THEN own_cum - c.n + r.rn ELSE own_cum END) - c.edge AS size) s,
      (SELECT (SELECT x.generation FROM generations x WHERE x.organization_id = org AND x.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT x.generation FROM contact_generations x WHERE x.organization_id = org)::float8 AS contacts) g;
END $$;
--> statement-breakpoint
-- Admission of sessions (0015's dossier_admit_sessions_reserving).
CREATE FUNCTION "dossier_admit_sessions_known"(org text, hashes text[], dossier_ids text[], known double precision[], idle_since text, made_since text, extra bigint, lapse_ms bigint, now_ms bigint)
RETURNS TABLE (i integer, id text, "organizationId" text, "memberId" text, "csrfToken" text, "createdAt" text, "lastUsedAt" text, role text,
  "disabledAt" text, plan text, "rateLimit" integer,
  edge double precision, lim integer, size double precision, counted boolean, leaving double precision,
  dossiers_generation double precision, contacts_generation double precision, dossier json, dossier_known boolean,
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
      CASE WHEN s.counted AND o.plan = 'growth' AND (known[r.ord] IS NULL OR g.dossiers IS DISTINCT FROM known[r.ord]) THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[r.ord]) END,
      coalesce(s.counted AND o.plan = 'growth' AND g.dossiers = known[r.ord], false),
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
-- A request admitted from reserved places, by key (0015's dossier_read_keys).
CREATE FUNCTION "dossier_read_keys_known"(org text, hashes text[], dossier_ids text[], known double precision[], at_iso text)
RETURNS TABLE (i integer, id text, organization_id text, scopes text, expires_at text, revoked_at text, plan text, rate_limit integer,
  dossiers_generation double precision, contacts_generation double precision, dossier json, dossier_known boolean)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
BEGIN
  RETURN QUERY
    SELECT (q.ord - 1)::integer, k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, o.plan, o.rate_limit, g.dossiers, g.contacts,
      CASE WHEN o.plan = 'growth' AND (known[q.ord] IS NULL OR g.dossiers IS DISTINCT FROM known[q.ord]) THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[q.ord]) END,
      coalesce(o.plan = 'growth' AND g.dossiers = known[q.ord], false)
    FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN api_keys k ON k.key_hash = q.hash JOIN organizations o ON o.id = k.organization_id,
      (SELECT (SELECT x.generation FROM generations x WHERE x.organization_id = org AND x.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT x.generation FROM contact_generations x WHERE x.organization_id = org)::float8 AS contacts) g
    WHERE k.organization_id = org AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > at_iso);
END $$;
--> statement-breakpoint
-- The same by session (0015's dossier_read_sessions).
CREATE FUNCTION "dossier_read_sessions_known"(org text, hashes text[], dossier_ids text[], known double precision[], idle_since text, made_since text)
RETURNS TABLE (i integer, id text, "organizationId" text, "memberId" text, "csrfToken" text, "createdAt" text, "lastUsedAt" text, role text,
  "disabledAt" text, plan text, "rateLimit" integer, dossiers_generation double precision, contacts_generation double precision, dossier json, dossier_known boolean)
LANGUAGE plpgsql SET enable_seqscan = off SET enable_bitmapscan = off AS $$
BEGIN
  RETURN QUERY
    SELECT (q.ord - 1)::integer, x.id, x.organization_id, x.member_id, x.csrf_token, x.created_at, x.last_used_at, m.role, m.disabled_at,
      o.plan, o.rate_limit, g.dossiers, g.contacts,
      CASE WHEN o.plan = 'growth' AND (known[q.ord] IS NULL OR g.dossiers IS DISTINCT FROM known[q.ord]) THEN (SELECT to_json(d) FROM dossiers d WHERE d.organization_id = org AND d.id = dossier_ids[q.ord]) END,
      coalesce(o.plan = 'growth' AND g.dossiers = known[q.ord], false)
    FROM unnest(hashes) WITH ORDINALITY q(hash, ord) JOIN sessions x ON x.token_hash = q.hash JOIN members m ON m.id = x.member_id
      JOIN organizations o ON o.id = x.organization_id,
      (SELECT (SELECT y.generation FROM generations y WHERE y.organization_id = org AND y.table_name = 'dossiers')::float8 AS dossiers,
        (SELECT y.generation FROM contact_generations y WHERE y.organization_id = org)::float8 AS contacts) g
    WHERE x.organization_id = org AND m.disabled_at IS NULL AND x.last_used_at > idle_since AND x.created_at > made_since;
END $$;
