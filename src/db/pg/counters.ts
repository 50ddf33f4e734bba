// The counts every node of one PostgreSQL database shares (C8, C15, C19, C20), and the request's
// bookkeeping in one statement: the principal of its API key or session, its organization's count
// in the sliding 60 s window, and the organization's cache generations (src/db/pg/answer-cache.ts).
// One round trip, whatever else the request reads; none of it is remembered on a node, so a key
// revoked, a member's role changed or a plan changed on another node holds on the next request.
//
// The window is exact (C10's headers mean what they say on one node or many): each subject (an
// organization's id, "intake:" and an intake token's hash) has a counter row whose `cum` counts its
// counted requests since the first, and each counted request a row of rate_hits (its place `cum` and
// time `at`, epoch ms). The window's count is the counter less the place before the oldest hit of
// the window; the decision to count is taken in the counter's UPDATE, under its row lock, against
// the latest count that any node committed. So an organization limited to N gets at most N in any
// 60 s window (C19 allows N + nodes), and requests of one organization wait for each other only
// for the few microseconds of that UPDATE and its commit, which writes no WAL (the tables are
// UNLOGGED, drizzle-pg/0006). Time comes from the caller (the context's clock).
import type { SQL } from "bun";
import type { KeyHolder } from "../principals";
import type { SessionLookup } from "../sessions";
import type { Admission, CacheGenerations, RateDecision, SharedCounters } from "../store";

const WINDOW_MS = 60_000;
/** Hits and failures older than this are swept (more than the windows, for clocks that differ by a
 * few seconds between nodes). */
const HITS_KEPT_MS = 2 * WINDOW_MS;
const SWEEP_EVERY_MS = 10_000;
/** pg_advisory_xact_lock's first key for the sign-in throttle (its second: the address's hash). */
const SIGN_IN_LOCK = 1_918;

interface Counted {
  cum: number;
  n: number;
  edge: number;
  lim: number;
  leaving: number | null;
}

/** The subject's count in the window (CTE `p` gives subject, refusable and lim), as CTEs ending in
 * `rate`: the oldest hit of the window, the place before it (`edge`; the counter itself when the
 * window is empty), the counter's UPDATE that counts or refuses, the hit, and the time at which a
 * request is free again (`leaving`, the hit that must leave first; NULL when it is this one). */
function counting(sql: SQL, now: number) {
  return sql`first_hit AS (SELECT min(h.at) AS at FROM rate_hits h, p WHERE h.subject = p.subject AND h.at > ${now - WINDOW_MS}::bigint),
  seen AS (SELECT coalesce(
      (SELECT min(h.cum) - 1 FROM rate_hits h, p, first_hit WHERE h.subject = p.subject AND h.at = first_hit.at),
      (SELECT c.cum FROM rate_counters c, p WHERE c.subject = p.subject), 0)::bigint AS edge),
  counted AS (INSERT INTO rate_counters AS c (subject, cum, n) SELECT p.subject, 1, 1 FROM p
    ON CONFLICT (subject) DO UPDATE SET
      cum = c.cum + (CASE WHEN (SELECT refusable FROM p) AND c.cum - (SELECT edge FROM seen) >= (SELECT lim FROM p) THEN 0 ELSE 1 END),
      n = (CASE WHEN (SELECT refusable FROM p) AND c.cum - (SELECT edge FROM seen) >= (SELECT lim FROM p) THEN 0 ELSE 1 END)
    RETURNING c.cum, c.n),
  hit AS (INSERT INTO rate_hits (subject, cum, at) SELECT p.subject, counted.cum, ${now}::bigint FROM p, counted WHERE counted.n = 1),
  rate AS (SELECT counted.cum::float8 AS cum, counted.n, seen.edge::float8 AS edge, p.lim,
      (SELECT h.at::float8 FROM rate_hits h WHERE h.subject = p.subject
        AND h.cum >= seen.edge + greatest(0, counted.cum - seen.edge - p.lim) + 1 ORDER BY h.cum LIMIT 1) AS leaving
    FROM p, counted, seen)`;
}

/** C8, C10: what the request sees of the window after it. `leaving` is NULL when the hit to leave
 * first is this request's own (or one committed after the statement's snapshot): now. */
function decided(row: Counted, now: number): RateDecision {
  const size = row.cum - row.edge;
  const leaving = row.leaving ?? now;
  return {
    allowed: size - row.n < row.lim,
    limit: row.lim,
    remaining: Math.max(0, row.lim - size),
    reset: size === 0 ? 0 : Math.max(1, Math.ceil((leaving + WINDOW_MS - now) / 1000)),
  };
}

/** The generations (src/db/generations.ts's rule, kept by drizzle-pg/0001's triggers) that the
 * answer caches check, of the organization `org` (a column of the statement). */
const generationsOf = (sql: SQL, org: unknown) =>
  sql`(SELECT generation::float8 FROM generations WHERE organization_id = ${org} AND table_name = 'dossiers') AS dossiers_generation,
    (SELECT generation::float8 FROM contact_generations WHERE organization_id = ${org}) AS contacts_generation`;

interface Generations {
  dossiers_generation: number | null;
  contacts_generation: number | null;
}

const cacheGenerations = (organizationId: string, row: Generations): CacheGenerations => ({
  organizationId,
  dossiers: row.dossiers_generation ?? 0,
  contacts: row.contacts_generation ?? 0,
});

/**
 * The shared counters on `sql` (the pool: each statement commits by itself). `observe` gets the
 * generations each admission read, for the answer caches of the request it admits.
 */
export function pgCounters(sql: SQL, observe: (generations: CacheGenerations) => void): SharedCounters {
  const touched = new Set<string>();
  let swept = -Infinity;
  // Old hits go by subject (an index range each), at most every SWEEP_EVERY_MS of the callers'
  // clock; the request does not wait for it.
  const sweep = (subject: string, now: number) => {
    touched.add(subject);
    if (now - swept < SWEEP_EVERY_MS && now >= swept) return;
    swept = now;
    const subjects = [...touched];
    touched.clear();
    void (async () => {
      for (const s of subjects) await sql`DELETE FROM rate_hits WHERE subject = ${s} AND at < ${now - HITS_KEPT_MS}::bigint`;
    })().catch(() => {});
  };

  return {
    async admitKey(keyHash: string, now: number): Promise<Admission<KeyHolder> | null> {
      const at = new Date(now).toISOString();
      const [row] = await sql<(KeyHolder & Counted & Generations)[]>`WITH
        k AS (SELECT k.id, k.organization_id, k.scopes, k.expires_at, k.revoked_at, o.plan, o.rate_limit
          FROM api_keys k JOIN organizations o ON o.id = k.organization_id
          WHERE k.key_hash = ${keyHash} AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ${at})),
        p AS (SELECT organization_id AS subject, plan = 'growth' AS refusable, rate_limit AS lim FROM k),
        ${counting(sql, now)}
        SELECT k.*, rate.*, ${generationsOf(sql, sql`k.organization_id`)} FROM k, rate`;
      if (!row) return null;
      sweep(row.organization_id, now);
      observe(cacheGenerations(row.organization_id, row));
      const { id, organization_id, scopes, expires_at, revoked_at, plan, rate_limit } = row;
      return { found: { id, organization_id, scopes, expires_at, revoked_at, plan, rate_limit }, rate: decided(row, now) };
    },

    async admitSession(tokenHash: string, now: number, ended: { idleSince: string; madeSince: string }): Promise<Admission<SessionLookup> | null> {
      const [row] = await sql<(SessionLookup & Counted & Generations)[]>`WITH
        s AS (SELECT s.id, s.organization_id AS "organizationId", s.member_id AS "memberId", s.csrf_token AS "csrfToken",
            s.created_at AS "createdAt", s.last_used_at AS "lastUsedAt", m.role, m.disabled_at AS "disabledAt", o.plan, o.rate_limit AS "rateLimit"
          FROM sessions s JOIN members m ON m.id = s.member_id JOIN organizations o ON o.id = s.organization_id
          WHERE s.token_hash = ${tokenHash} AND m.disabled_at IS NULL AND s.last_used_at > ${ended.idleSince} AND s.created_at > ${ended.madeSince}),
        p AS (SELECT "organizationId" AS subject, plan = 'growth' AS refusable, "rateLimit" AS lim FROM s),
        ${counting(sql, now)}
        SELECT s.*, rate.*, ${generationsOf(sql, sql`s."organizationId"`)} FROM s, rate`;
      if (!row) return null;
      sweep(row.organizationId, now);
      observe(cacheGenerations(row.organizationId, row));
      const { id, organizationId, memberId, csrfToken, createdAt, lastUsedAt, role, disabledAt, plan, rateLimit } = row;
      return { found: { id, organizationId, memberId, csrfToken, createdAt, lastUsedAt, role, disabledAt, plan, rateLimit }, rate: decided(row, now) };
    },

    async hit(subject: string, limit: number, now: number): Promise<RateDecision> {
      const [row] = await sql<Counted[]>`WITH p AS (SELECT ${subject}::text AS subject, true AS refusable, ${limit}::integer AS lim),
        ${counting(sql, now)}
        SELECT * FROM rate`;
      sweep(subject, now);
      return decided(row, now);
    },

    async failSignIn(address: string, keys: { key: string; limit: number }[], windowMs: number, now: number) {
      // Under a lock on the address (both keys name it), so that attempts sent to several nodes at
      // once are counted one after the other, as in one process.
      const ids = await sql.begin(async (tx) => {
        await tx`SELECT pg_advisory_xact_lock(${SIGN_IN_LOCK}::integer, hashtext(${address}))`;
        let wait = 0;
        for (const { key, limit } of keys) {
          const [row] = await tx<{ at: number }[]>`SELECT at::float8 AS at FROM sign_in_failures
            WHERE key = ${key} AND at > ${now - windowMs}::bigint ORDER BY at DESC LIMIT 1 OFFSET ${limit - 1}::bigint`;
          if (row) wait = Math.max(wait, row.at + windowMs - now);
        }
        if (wait > 0) return wait;
        const made: number[] = [];
        for (const { key } of keys) {
          const [row] = await tx<{ id: number }[]>`INSERT INTO sign_in_failures (key, at) VALUES (${key}, ${now}::bigint) RETURNING id::float8 AS id`;
          made.push(row.id);
        }
        await tx`DELETE FROM sign_in_failures WHERE key = ANY(${sql.array(keys.map((k) => k.key), "TEXT")}) AND at < ${now - windowMs - HITS_KEPT_MS}::bigint`;
        return made;
      });
      if (typeof ids === "number") return { wait: ids };
      return { wait: 0, forgive: () => sql`DELETE FROM sign_in_failures WHERE id = ANY(${sql.array(ids, "BIGINT")})`.then(() => {}) };
    },
  };
}
